import ArgumentParser
import Foundation
import Stipple

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert stamps between .json and .sketchpoints files, and ink (.inkml, .ndjson) to and from scripts.",
        discussion: """
            A .json stamps file is an array of [x, y, radius, age, dissolveAngle, r, g, b, a] \
            (a script's inline stamps, docs/reference.md §2); a .sketchpoints file holds the same nine \
            numbers as little-endian 32-bit floats, 36 bytes a stamp. Every stamp is checked \
            as a script's are; errors name the line and column (or byte offset).
            Ink (docs/ink-formats.md): an .inkml file or a Quick, Draw! drawing (.ndjson: its only \
            line, or --index N / --key KEY_ID) becomes a .json script that `render` draws exactly \
            as it draws the ink file; a script's strokes become standard InkML (channels X Y T F, \
            a brush per colour and width) that converts back to a script drawing the same image.
            Examples:
              stipple convert burst.json -o burst.sketchpoints
              stipple convert burst.sketchpoints -o burst.json
              stipple convert formula.inkml -o formula.json
              stipple convert cats.ndjson --key 5201136883597312 -o cat.json
              stipple convert drawing.json -o drawing.inkml
            """)

    @Argument(help: "The file to read: stamps (.json or .sketchpoints), ink (.inkml or .ndjson), or a script (.json, with -o ending in .inkml).")
    var input: String

    @Option(name: .shortAndLong, help: "The file to write: .sketchpoints or .json (stamps, or a script made from ink), or .inkml (from a script).")
    var output: String

    @Flag(help: "Replace the output file when it exists (by default an existing file is an error: a conversion never writes over a file unasked).")
    var overwrite = false

    @OptionGroup(title: "Ink files")
    var ink: InkArguments

    /// Refuses an output file that exists, unless --overwrite (devices and pipes are written into).
    func checkNotThere() throws {
        // The input itself is refused below, saying so.
        guard !overwrite, FileSystem.entry(at: output) == .file, !OutputFile.isSpecial(output),
              !OutputFile.sameFile(input, output) else { return }
        throw InputError(file: output, "exists; add --overwrite to replace it")
    }

    func run() throws {
        try checkNotThere()
        let outExt = OutputKind.pathExtension(output)
        if let format = try ink.inkFormat(of: input) {
            try checkOutput(output, notAnyOf: [input], inputsAre: "the file being converted")
            guard outExt == "json" else {
                throw InputError(file: output, "ink converts to a script: give -o a path ending in .json")
            }
            let text = try InkImport.scriptText(path: input, selection: ink.selection, options: try ink.options(), format: format)
            _ = try InkImport.parse(text, path: input)  // the script reads back
            try OutputFile.write(Array(text.utf8), to: output)
            return note("\(output): script from \(input) (\(text.utf8.count) bytes)")
        }
        try ink.refuseFor(script: input)
        if outExt == "inkml" {
            try checkOutput(output, notAnyOf: [input], inputsAre: "the file being converted")
            let script = try Script.load(path: input)
            let text = try InkMLWriter.inkML(script)
            try OutputFile.write(Array(text.utf8), to: output)
            return note("\(output): \(script.draw.count) stroke\(script.draw.count == 1 ? "" : "s") of \(input) as InkML (\(text.utf8.count) bytes)")
        }
        let from = try OutputKind.forStamps(input, role: "read")
        try checkOutput(output, notAnyOf: [input], inputsAre: "the file being converted")
        let to = try OutputKind.forStamps(output)
        let stamps = from == .stampsJSON ? try StampsJSON.read(path: input) : try SketchPointsFile.read(path: input)
        let bytes = try writeStamps(stamps, as: to, to: output)
        note("\(output): \(counted(stamps.count, "stamp")) from \(input) (\(counted(bytes, "byte")))")
    }
}

struct BrushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "brush",
        abstract: "Write a built-in brush as a PNG (white, coverage in alpha).",
        discussion: """
            The PNG reads back as the same brush: a script's brush file uses its alpha as \
            coverage. Start a brush of your own from it.
            Examples:
              stipple brush soft-round --size 64 -o soft.png
            """)

    @Argument(help: "The built-in brush: \(Brush.Builtin.allCases.map(\.rawValue).joined(separator: " or ")).")
    var name: Brush.Builtin

    @Option(parsing: .unconditional, help: "Texels a side.")
    var size: Int = Brush.defaultBuiltinSize

    @Option(name: .shortAndLong, help: "The PNG to write.")
    var output: String

    func validate() throws {
        if !(1...4096).contains(size) { throw ValidationError("Please give --size from 1 to 4096 (got \(size)).") }
    }

    func run() throws {
        try checkOutput(output, notAnyOf: [])
        guard OutputKind.pathExtension(output) == "png" else {
            throw InputError(file: output, "brush writes .png images; give -o a path ending in .png")
        }
        let brush = Brush.builtin(name, size: size)
        var pixels = [UInt8](repeating: 0, count: size * size * 4)
        for (i, c) in brush.coverage.enumerated() where c > 0 {
            pixels[i * 4] = 255; pixels[i * 4 + 1] = 255; pixels[i * 4 + 2] = 255; pixels[i * 4 + 3] = c
        }
        try Image(width: size, height: size, pixels: pixels).writePNG(to: output)
        note("\(output): \(name.rawValue) brush, \(size)×\(size)")
    }
}

extension Brush.Builtin: ExpressibleByArgument {}
