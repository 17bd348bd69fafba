import ArgumentParser
import Foundation
import Stipple
import StippleGolden

struct BisectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bisect",
        abstract: "Find the draw entry that first makes a frame differ from its golden.",
        discussion: """
            Renders prefixes of the script's draw entries (the background, then the first k entries \
            shown at the frame) and compares each with the golden on the pixels that no later entry \
            draws, by binary search: the first prefix that differs ends with the entry to blame. \
            Prints SCRIPT:LINE:COLUMN: draw entry N and what changed (pixels beyond the tolerance, \
            their bounding box), exit 0. When the background alone already differs, or nothing \
            differs beyond the tolerance, or only pixels no entry draws differ, one line says so and \
            the exit status is 1. Each prefix is \
            rendered at most once (about log2 of the entries).
            Examples:
              stipple bisect drawing.json --golden golden/drawing.llvmpipe.points.png
              stipple bisect periscope.json --golden g.png --frame 55 --max-channel-diff 2 --diff d.png
            """)

    @Argument(help: "The JSON script.")
    var script: String

    @Option(help: "The golden PNG the frame should match.")
    var golden: String

    @Option(help: "The frame to compare.")
    var frame: Int = 0

    @Option(help: "Draw stamps as points (default) or quads, as the golden was made.")
    var primitive: Primitive = .points

    @OptionGroup var limits: ToleranceOptions

    @Option(help: "Write the diff image of the prefix that first differs (against the golden).")
    var diff: String?

    func validate() throws {
        // The bound `render` and `stamps` hold frames to (docs/limits.md).
        if !(0...Limits.maxFrame).contains(frame) {
            throw ValidationError("Please give a frame from 0 to \(Limits.maxFrame) (got \(frame)).")
        }
    }

    func run() async throws {
        if let diff { try checkOutput(diff, notAnyOf: [script, golden], inputsAre: "an input of the search") }
        let loaded = try Script.load(path: script)
        let scene = try Scene(script: loaded)
        let goldenImage = try PNGFile.read(path: golden).image
        var search = try await GoldenBisect(renderer: try makeRenderer(), scene: scene, frame: frame, golden: goldenImage,
                                  tolerance: limits.tolerance, primitive: primitive)
        let outcome = try await search.run()
        switch outcome {
        case let .sizes(g, c):
            throw InputError(file: golden, "the golden is \(g); the script's canvas is \(c): nothing to bisect")
        case let .nothing(probe):
            try write(probe)
            say("\(script): frame \(frame) matches \(golden) within the tolerance (\(probe.comparison.summary)); "
                + "no draw entry to blame")
            throw ExitCode(ExitStatus.differs)
        case let .background(probe):
            try write(probe)
            say("\(script): the background alone already differs from \(golden) (where no draw entry draws: "
                + "\(probe.comparison.summary)); no draw entry to blame")
            throw ExitCode(ExitStatus.differs)
        case let .undrawn(probe):
            try write(probe)
            var box = ""
            if let b = probe.bounds { box = " in \(b.width)×\(b.height) pixels at (\(b.x), \(b.y))" }
            say("\(script): every pixel a draw entry draws matches \(golden); \(probe.comparison.pixelsOverTolerance) "
                + "pixels no entry draws differ\(box) (an entry moved away or removed, or part of the background)")
            throw ExitCode(ExitStatus.differs)
        case let .entry(index, probe, shown):
            try write(probe)
            let entry = loaded.draw[index]
            var box = ""
            if let b = probe.bounds { box = " in \(b.width)×\(b.height) pixels at (\(b.x), \(b.y))" }
            print("\(script):\(entry.location): draw entry \(index + 1) of \(loaded.draw.count) makes frame \(frame) "
                  + "differ from \(golden): \(counted(probe.comparison.pixelsHeldAgainstP, "pixel")) beyond the tolerance\(box), "
                  + "max channel diff \(probe.comparison.maxChannelDifference); the \(shown - 1) entries before it match "
                  + "(\(search.renderedPrefixes) prefixes rendered)")
        }
    }

    private func write(_ probe: GoldenBisect.Probe) throws {
        if let diff { try PNGFile.write(probe.diff, to: diff) }
    }

    private func say(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
