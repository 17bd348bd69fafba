import ArgumentParser
import Foundation
import Stipple

/// The options of `render` and `convert` that apply to ink files (.inkml, .ndjson:
/// docs/ink-formats.md).
struct InkArguments: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Ink: the drawing of a Quick, Draw! .ndjson file to use, from 0 (its N-th line that is not blank).", valueName: "N"))
    var index: Int?

    @Option(help: ArgumentHelp("Ink: the drawing of a Quick, Draw! .ndjson file whose key_id is KEY_ID.", valueName: "KEY_ID"))
    var key: String?

    @Option(help: ArgumentHelp("Ink: the canvas, W×H pixels (such as 256x256); the ink is fitted into it. Default: the ink's own size (one drawing), 256x256 (a folder), 28x28 (.npy).", valueName: "WxH"))
    var size: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Ink: pixels kept clear around the ink (default: 1/32 of the shorter side with --size, else the stroke radius plus 4).", valueName: "PX"))
    var margin: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Ink: every stroke's radius in canvas pixels (default: the file's brush width, else 8 in a Quick, Draw! 256 box or 1.5 pixels at 96 dpi, scaled with the ink).", valueName: "PX"))
    var radius: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Ink: every stroke's width in output pixels, whatever the drawing's size (twice --radius; for datasets: Quick, Draw!'s numpy_bitmap lines are about 2 wide at 28x28).", valueName: "PX"))
    var width: Double?

    @Option(help: ArgumentHelp("Ink: fit the ink's bounding box (ink) or the file's own box (frame: Quick, Draw!'s 256×256, InkML's declared X and Y ranges) into the canvas. Default: frame for InkML that declares its canvas in pixels, else ink.", valueName: "ink|frame"))
    var fit: InkOptions.Fit?

    @Option(help: ArgumentHelp("Ink: the built-in brush strokes are drawn with.", valueName: "hard-round|soft-round"))
    var brush: Brush.Builtin = .hardRound

    @Option(parsing: .unconditional, help: ArgumentHelp("Ink: the step between stamps as a share of their diameter, 0.01 to 10 (default 0.15, as in scripts); 0.3 draws half the stamps with edges still smooth at a hard brush.", valueName: "S"))
    var spacing: Double?

    @Option(help: ArgumentHelp("What the input is, whatever its name says: a script, InkML or a Quick, Draw! file. Default: .json is a script, .inkml and .ink InkML, .ndjson Quick, Draw!, and any other file InkML when its root element is <ink> (Office's .xml ink).", valueName: "script|inkml|ndjson"))
    var format: InputFormat?

    @Flag(help: "Ink, rendering a dataset (whole .ndjson files into a folder or .npy): skip lines that are not a drawing (each listed with its line and reason in skipped.txt in the folder, or NAME.skipped.txt beside NAME.npy; the first 20 on stderr, and the count at the end); without it the first one stops the run.")
    var skipBadLines = false

    /// `WxH`, both 1…65536.
    static func parseSize(_ text: String) throws -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (1...CanvasSpec.maxSide).contains(w), (1...CanvasSpec.maxSide).contains(h) else {
            throw ValidationError("--size is W×H in whole pixels from 1 to \(CanvasSpec.maxSide), such as 256x256 (got \(text)).")
        }
        return (w, h)
    }

    func validate() throws {
        if let size { _ = try InkArguments.parseSize(size) }
        if index != nil && key != nil { throw ValidationError("Please give --index or --key, not both.") }
        if let index, index < 0 { throw ValidationError("--index counts drawings from 0 (got \(index)).") }
        if let margin, !(margin >= 0 && margin < 65536) { throw ValidationError("--margin is pixels from 0 (got \(margin)).") }
        if let radius, !(radius > 0 && radius <= 4096) { throw ValidationError("--radius is pixels above 0, at most 4096 (got \(radius)).") }
        if let width, !(width > 0 && width <= 8192) { throw ValidationError("--width is pixels above 0, at most 8192 (got \(width)).") }
        if radius != nil && width != nil { throw ValidationError("Please give --radius or --width, not both (--width is twice the radius).") }
        if let spacing, !(spacing >= 0.01 && spacing <= 10) { throw ValidationError("--spacing is from 0.01 to 10 (got \(spacing)).") }
    }

    /// Whether any ink option was given (they are refused for scripts).
    var anyGiven: Bool {
        index != nil || key != nil || size != nil || margin != nil || radius != nil || width != nil || spacing != nil || fit != nil || brush != .hardRound || skipBadLines
            || format == .inkml || format == .ndjson
    }

    func options(defaultSize: (width: Int, height: Int)? = nil) throws -> InkOptions {
        var o = InkOptions()
        o.size = try size.map(InkArguments.parseSize) ?? defaultSize
        o.margin = margin; o.radius = radius ?? width.map { $0 / 2 }; o.fit = fit; o.brush = brush; o.spacing = spacing
        return o
    }

    var selection: InkImport.Selection { InkImport.Selection(index: index, key: key) }

    /// The ink format of the input at `path` (--format, else as `InkImport.format(of:)`
    /// finds it), nil for a script. An XML file that is not InkML is refused here, saying so,
    /// rather than read as a script and failing at its first '<'.
    func inkFormat(of path: String) throws -> InkImport.Format? {
        switch format {
        case .script?: return nil
        case .inkml?: return .inkML
        case .ndjson?: return .quickDraw
        case nil:
            if let found = InkImport.format(of: path) { return found }
            if let why = InkImport.notInk(path: path) { throw InputError(file: path, why + "; --format says what it is") }
            return nil
        }
    }

    /// Refuses ink options given with a script (`--size` is a view's size there, with `viewSize`).
    func refuseFor(script path: String, viewSize: Bool = false) throws {
        var ink = self
        if viewSize { ink.size = nil }
        if ink.anyGiven {
            throw ValidationError("--index, --key, --size, --margin, --radius, --width, --spacing, --fit, --brush and --skip-bad-lines apply to ink files (.inkml, .ndjson); \(path) is a script.")
        }
    }
}

extension InkOptions.Fit: ExpressibleByArgument {}

/// `--format`: what an input is, whatever its name says.
enum InputFormat: String, ExpressibleByArgument, CaseIterable {
    case script, inkml, ndjson
}

/// A script, or the script an ink file becomes with the ink options' defaults (for the
/// commands that take no ink options: describe, stamps).
func loadScene(_ path: String) throws -> Scene {
    guard let format = InkImport.format(of: path) else {
        if let why = InkImport.notInk(path: path) { throw InputError(file: path, why) }
        return try Scene.load(path: path)
    }
    return try Scene(script: try InkImport.script(path: path, selection: InkImport.Selection(), options: InkOptions(),
                                                  format: format))
}
