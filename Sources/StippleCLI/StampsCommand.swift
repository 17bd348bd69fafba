import ArgumentParser
import Foundation
import Stipple

struct StampsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stamps",
        abstract: "Write the live vertex buffer at a frame as a .sketchpoints file.",
        discussion: """
            The stamps exactly as uploaded at frame N, in draw order: born at or before N, \
            ages as at frame N, dead stamps gone (SPEC §9). Records are 36 bytes (SPEC §2).
            """)

    @Argument(help: "The JSON script (SPEC §9).")
    var script: String

    // Unconditional, so that `--frame -1` reaches validate() instead of reading as a missing value.
    @Option(parsing: .unconditional, help: "The frame (from 0).")
    var frame: Int = 0

    @Option(name: .shortAndLong, help: "The .sketchpoints file to write.")
    var output: String

    func validate() throws {
        if frame < 0 { throw ValidationError("Please give a frame of 0 or more (got \(frame)).") }
    }

    func run() async throws {
        let scene = try Scene.load(path: script)
        try checkOutput(output, notAnyOf: scene.inputFiles)
        let live = scene.batches(atFrame: frame).flatMap(\.stamps)
        try SketchPointsFile.write(live, to: output)
        print("\(output): \(live.count) stamps at frame \(frame) (\(live.count * SketchPoint.byteSize) bytes)")
    }
}
