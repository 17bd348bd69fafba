import ArgumentParser
import Foundation
import Stipple
import StippleBench

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure stamp and draw-call throughput, every design choice side by side.",
        discussion: """
            Scenarios: stamps (N stamps, one frame: Stipple points and quads, the same GL calls from C, \
            and Cairo on the CPU), drawcalls (the stamps in draws of 1, 4, 16… stamps), animation (L live \
            stamps, k new a frame: resident layers against re-uploading every age), readback \
            (glReadPixels and PNG encoding: Stipple's encoder against libpng at levels 1 and 6, and its coder against \
            libdeflate's on one thread), upload (glBufferSubData, glBufferData, orphaning), sequence \
            (frames to PNG files: render only, encode only, overlapped), video (a Periscope-style animation baked into \
            4:2:0 video, against render --frames PNGs + ffmpeg overlay; then bake), bake (240 frames of 1080p and \
            720p with accumulating and dissolving 60-stroke sketches (a user's, and a heavy one of curvy strokes over 70 % of the frame), the sketch kept and drawn whole, the heavy accumulating one also drawn one frame ahead and with all its strokes at once, against the \
            empty script's bake and ffmpeg's y4m passthrough, the dissolving one also against the raw-C GLES2 program \
            drawing its live stamps, the heavy accumulating one against it drawing every stamp once; --size WxH and --radius bake one size), session (undo latency against \
            replaying every stroke, undo with stroke layers in the history, a long session's frame time and memory, many strokes' memory, frames \
            while a large drawing is saved), tiles (a canvas drawn in tiles against one pass, and the peak \
            memory of a large render streamed to PNG band by band), modes (strokes drawn as stroke layers — stroke \
            opacity, effects, shadows — against the same stamps drawn stamp by stamp; a desaturate bake against a \
            plain one; the whole render process per mode against plain strokes; frames with 4 to 32 detect-edges \
            strokes), ink (10 000 Quick, Draw!-shaped \
            drawings to 256×256 PNG files and to a 28×28 .npy, against a Python pipeline of cairocffi, Pillow \
            and numpy on the same drawings, in turn for three rounds; --ink-drawings N sets the count), views (a heavy 16384² drawing as a \
            Deep Zoom pyramid against render + vips dzsave and against render --compression 0, a 1920×1080 view \
            against its rectangle drawn alone, the peak memory of a 65536² pyramid; make bench-views). Times are medians after warm-up, \
            each ending with glFinish; compare rows of one run, never across runs: this machine is shared. \
            The second line gives the headline: stamps/s and draw calls/s here. Ratios are this row's \
            time over another's. --quick runs small sizes and judges no target.
            Examples:
              stipple bench              # the standard set (make bench)
              stipple bench --quick      # seconds: every scenario, small sizes (CI)
              stipple bench --scenario stamps --stamps 100000 --radius 4 --json
            """)

    @Flag(help: "A seconds-long run of every scenario at small sizes (what CI runs).")
    var quick = false

    @Option(name: .customLong("scenario"), help: "Run only this scenario (repeatable): \(BenchConfig.Scenario.allCases.map(\.rawValue).joined(separator: ", ")).")
    var scenarios: [BenchConfig.Scenario] = []

    @Option(parsing: .unconditional, help: "Stamps in the stamps and upload scenarios.")
    var stamps: Int?

    @Option(parsing: .unconditional, help: "Stamp radius in pixels.")
    var radius: Float?

    @Option(help: "Canvas size, WxH.")
    var size: String?

    @Option(parsing: .unconditional, help: "Timed repetitions a measurement.")
    var reps: Int?

    @Option(parsing: .unconditional, help: "Untimed warm-up runs a measurement.")
    var warmup: Int?

    @Option(help: "Live stamp counts for the animation scenario, comma-separated (e.g. 10000,100000).")
    var live: String?

    @Option(parsing: .unconditional, help: "Frames in the sequence and video scenarios.")
    var frames: Int?

    @Option(parsing: .unconditional, help: "PNG compression of the sequence scenario's frames: 0-3 fast, 4-9 smaller (as render --compression).")
    var compression: Int32?

    @Option(parsing: .unconditional, help: "Frames of the session scenario's long session (make soak-session: 200000).")
    var sessionFrames: Int?

    @Option(parsing: .unconditional, help: "Strokes of the session scenario's many-strokes run (maxAge 0).")
    var sessionStrokes: Int?

    @Option(parsing: .unconditional, help: "Side of the drawing the session scenario saves while drawing.")
    var saveSide: Int?

    @Option(parsing: .unconditional, help: "Drawings of the ink scenario.")
    var inkDrawings: Int?

    @Option(parsing: .unconditional, help: "Seconds the serve scenario's load runs (make soak-serve: 600).")
    var serveSeconds: Int?

    @Flag(help: "Print the report as JSON instead of a table.")
    var json = false

    @Option(help: "Also write the throughput curves as an SVG chart to this file.")
    var chart: String?

    func validate() throws {
        if let stamps, stamps < 1 { throw ValidationError("Please give --stamps of 1 or more.") }
        if let radius, !(radius > 0 && radius.isFinite) { throw ValidationError("Please give a --radius above 0.") }
        if let reps, reps < 1 { throw ValidationError("Please give --reps of 1 or more.") }
        if let warmup, warmup < 0 { throw ValidationError("Please give --warmup of 0 or more.") }
        if let size, parseSize(size) == nil { throw ValidationError("Please give --size as WxH, e.g. 1280x720.") }
        if let live, parseList(live) == nil { throw ValidationError("Please give --live as counts separated by commas.") }
        if let frames, frames < 1 { throw ValidationError("Please give --frames of 1 or more.") }
        if let compression, !(0...9).contains(compression) { throw ValidationError("Please give --compression from 0 to 9.") }
    }

    func parseSize(_ text: String) -> (Int, Int)? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        return (w, h)
    }

    func parseList(_ text: String) -> [Int]? {
        let values = text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        return values.isEmpty || values.contains { $0 < 1 } ? nil : values
    }

    func run() async throws {
        var config = quick ? BenchConfig.quick : BenchConfig()
        if !scenarios.isEmpty { config.scenarios = scenarios }
        if let stamps { config.stamps = stamps }
        if let radius { config.radius = radius }
        if let size, let (w, h) = parseSize(size) {
            config.width = w; config.height = h
            config.videoGoalSizes = [[w, h, Int((radius ?? 8).rounded())]]
        }
        if let reps { config.reps = reps; config.pairs = max(reps, config.pairs) }
        if let warmup { config.warmup = warmup }
        if let live, let counts = parseList(live) { config.liveCounts = counts }
        if let frames { config.sequenceFrames = frames; config.videoFrames = frames; config.videoGoalFrames = frames }
        if let reps { config.videoGoalReps = reps; config.videoGoalPairs = max(reps, config.videoGoalPairs) }
        if let compression { config.compression = compression }
        if let sessionFrames { config.sessionFrames = max(100, sessionFrames) }
        if let sessionStrokes { config.sessionStrokes = max(10, sessionStrokes) }
        if let saveSide { config.saveSide = max(16, saveSide) }
        if let inkDrawings { config.inkDrawings = max(1, inkDrawings) }
        if let serveSeconds { config.serveSeconds = Double(max(1, serveSeconds)) }
        if let chart { try checkOutput(chart, notAnyOf: []) }
        config.stippleExecutable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))

        let verbose = !json
        let suite = BenchSuite(config: config, log: { line in if verbose { note("… \(line)") } })
        let start = DispatchTime.now().uptimeNanoseconds
        var report = try await suite.run()
        report.command = (["stipple"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
        report.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        report.quick = quick
        report.llvmpipeThreads = LlvmpipeThreads.apply(to: report.renderer)
            ? LlvmpipeThreads.describe() : "none (the renderer is not llvmpipe)"
        if json {
            print(String(decoding: try BenchReport.jsonEncoder().encode(report), as: UTF8.self))
        } else {
            print(BenchTable.render(report), terminator: "")
        }
        // The table out (every stream flushed) before any note on stderr, where both go to one log.
        fflush(nil)
        if let chart {
            try AtomicFile.write(Array(BenchChart.svg(report).utf8), to: chart)
            if verbose { note("chart: \(chart)") }
        }
    }
}

extension BenchConfig.Scenario: ExpressibleByArgument {}
