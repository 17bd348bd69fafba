import ArgumentParser
import Foundation
import Stipple

struct StampsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stamps",
        abstract: "Write the live stamps at a frame as a .sketchpoints or .json file.",
        discussion: """
            The stamps exactly as uploaded at frame N, in draw order: born at or before N, \
            ages as at frame N, dead stamps gone (docs/reference.md §3). OUT's extension picks the form: \
            .sketchpoints (36-byte records, docs/reference.md §2) or .json (an array of \
            [x, y, radius, age, dissolveAngle, r, g, b, a], as a script's inline stamps). \
            One line on stderr sums up what was written.
            Examples:
              stipple stamps demo.json --frame 30 -o live.sketchpoints
              stipple stamps demo.json --frame 30 -o live.json
            """)

    @Argument(help: "The JSON script (docs/reference.md §9), or an ink file (.inkml, or .ndjson of one drawing: docs/ink-formats.md).")
    var script: String

    // Unconditional, so that `--frame -1` reaches validate() instead of reading as a missing value.
    @Option(parsing: .unconditional, help: "The frame (from 0).")
    var frame: Int = 0

    @Option(name: .shortAndLong, help: "The file to write: .sketchpoints or .json.")
    var output: String

    func validate() throws {
        if !(0...Limits.maxFrame).contains(frame) {
            throw ValidationError("Please give a frame from 0 to \(Limits.maxFrame) (got \(frame)).")
        }
    }

    func run() async throws {
        let scene = try loadScene(script)
        try checkOutput(output, notAnyOf: scene.inputFiles)
        let kind = try OutputKind.forStamps(output)
        let live = scene.batches(atFrame: frame).flatMap(\.stamps)
        let bytes = try writeStamps(live, as: kind, to: output)
        note("\(output): \(counted(live.count, "stamp")) at frame \(frame) (\(counted(bytes, "byte")))")
    }
}

/// Writes stamps in the form `kind` names (`.sketchpoints` or `.json`) through `OutputFile`;
/// returns the bytes written (a device such as /dev/null keeps no size to read back).
func writeStamps(_ stamps: [SketchPoint], as kind: OutputKind, to path: String) throws -> Int {
    switch kind {
    case .stampsJSON: return try StampsJSON.write(stamps, to: path)
    default: return try SketchPointsFile.write(stamps, to: path)
    }
}
