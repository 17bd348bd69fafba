import Foundation
import Stipple

/// Part of the `sequence` scenario: what PNG costs the outputs users write, whole processes
/// of `stipple render` with the default compression against `--compression 0` (the pixels'
/// floor: stored, not compressed), alternated round by round; and `vips pngsave` of the same
/// still, in the same run.
extension BenchSuite {
    func pngOutputs(_ report: inout BenchReport) throws {
        guard let exe = config.stippleExecutable, exe.hasSuffix("stipple") else {
            report.skipped.append("sequence: the PNG output rows run stipple as a child process (needs the stipple executable)")
            return
        }
        // In memory where the system has room (`outputFolder`): the busy frames stored
        // (`--compression 0`) are 1.1 GB at 1280×720; the still, stored, its raw copy for vips and
        // vips's file are three times its RGBA.
        let folder = try BenchSuite.outputFolder("stipple-bench-png",
                                                 bytes: max(config.sequenceFrames * config.width * config.height * 4,
                                                            3 * config.pngStillSide * config.pngStillSide * 4))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
        let rounds = config.pngRounds, place = "files in \((folder as NSString).deletingLastPathComponent)"

        /// Median seconds of `variants` run in turn, one of each a round; each run's outputs removed after it.
        func alternate(_ what: String, _ variants: [[String]], clean: String) throws -> [Double] {
            var times = Array(repeating: [Double](), count: variants.count)
            for round in 0..<rounds {
                for (i, args) in variants.enumerated() {
                    log("sequence: \(what), round \(round + 1), \(i == 0 ? "default" : "--compression 0")")
                    let run = try BenchSuite.runMeasured(args)
                    guard run.status == 0 else { throw RenderError("sequence: \(what) failed (status \(run.status)): \(args.joined(separator: " "))") }
                    times[i].append(run.seconds)
                    try? FileManager.default.removeItem(atPath: clean)
                }
            }
            return times.map { Timing(samples: $0).median }
        }

        /// The rows of `render` with PNG (`times[0]`) against `--compression 0` (`times[1]`),
        /// and the target on their ratio.
        func compare(_ what: String, _ times: [Double], workload: String, target: String, limit: Double) {
            let stored = "\(what), --compression 0"
            report.rows.append(BenchRow(scenario: "sequence", variant: stored, workload: workload,
                                        timing: Timing(samples: [times[1]]), figures: ["s": times[1]]))
            var row = BenchRow(scenario: "sequence", variant: "\(what), default compression", workload: workload,
                               timing: Timing(samples: [times[0]]), figures: ["s": times[0]])
            row.ratio = times[0] / times[1]
            row.ratioTo = stored
            report.rows.append(row)
            report.targets.append(.init(name: "sequence: \(target), default / --compression 0", measured: times[0] / times[1],
                                        limit: limit, atMost: true))
        }

        // Busy frames: a photo-like background (noise at 32 levels, a PNG's worst case) under
        // one small stroke, every frame written.
        let (w, h, frames) = (config.width, config.height, config.sequenceFrames)
        var rng = SplitMix64(seed: config.seed &+ 42)
        var noise = [UInt8](repeating: 255, count: w * h * 4)
        for i in 0..<(w * h) { for c in 0..<3 { noise[i * 4 + c] = UInt8(truncatingIfNeeded: (rng.next() % 32) * 8) } }
        try PNGFile.write(Image(width: w, height: h, pixels: noise), to: path("noise.png"), compression: 0)
        let points = (0..<12).map { k in #"{"x": \#(w / 3 + k * 9), "y": \#(h / 2 + (k % 3) * 7), "t": \#(Double(k) * 0.1)}"# }
        try """
            {"canvas": {"width": \(w), "height": \(h), "background": {"image": "\(path("noise.png"))"}},
             "brushes": {"soft": {"builtin": "soft-round", "size": 64}},
             "draw": [{"brush": "soft", "color": "#e04020", "radius": 10, "points": [\(points.joined(separator: ","))]}]}
            """.write(toFile: path("busy.json"), atomically: true, encoding: .utf8)
        let range = "0...\(frames - 1)"
        let busy = try alternate("\(frames) busy frames to PNG", [
            [exe, "render", path("busy.json"), "-o", path("busy"), "--frames", range],
            [exe, "render", path("busy.json"), "-o", path("busy"), "--frames", range, "--compression", "0"],
        ], clean: path("busy"))
        compare("render --frames, busy", busy, workload: "\(frames) frames \(w)×\(h) over a noise background, one stroke; "
                    + "medians of \(rounds) rounds in turn, \(place)", target: "busy frames", limit: 1.5)

        // A still: a heavy drawing written as one PNG (streamed in bands past 4096²).
        let side = config.pngStillSide
        let script = try heavyDrawing(folder, side: side, strokes: config.pngStillStrokes, name: "still")
        let still = try alternate("a \(side)² still to PNG", [
            [exe, "render", script, "-o", path("still.png")],
            [exe, "render", script, "-o", path("still.png"), "--compression", "0"],
        ], clean: path("still.png"))
        compare("render -o PNG, still", still, workload: "\(side)² drawing of \(config.pngStillStrokes) strokes; "
                    + "medians of \(rounds) rounds in turn, \(place)", target: "a still", limit: 1.1)

        // The same still's pixels encoded by Stipple's writer (in this process, the file
        // written) and by `vips pngsave` at its default level and at 1.
        guard let vips = ["/usr/bin/vips", "/usr/local/bin/vips"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            report.skipped.append("sequence: vips pngsave (no vips: make bench-deps installs libvips-tools)")
            return
        }
        log("sequence: the still once more, for the encoders")
        let source = try BenchSuite.runMeasured([exe, "render", script, "-o", path("source.png")])
        guard source.status == 0 else { throw RenderError("sequence: render failed (status \(source.status))") }
        let image = try PNGFile.read(path: path("source.png")).image
        let encodeWork = "the \(side)² still above (\(String(format: "%.0f", Double(side * side * 4) / 1e6)) MB of RGBA), file written"
        var ours = [Double]()
        for _ in 0..<rounds {
            let t0 = DispatchTime.now().uptimeNanoseconds
            try PNGFile.write(image, to: path("ours.png"), compression: PNGFile.defaultCompression, durable: false)
            ours.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9)
        }
        let oursBytes = Double((try? FileManager.default.attributesOfItem(atPath: path("ours.png"))[.size] as? Int) ?? 0)
        try? FileManager.default.removeItem(atPath: path("ours.png"))
        let oursSeconds = Timing(samples: ours).median
        report.rows.append(BenchRow(scenario: "sequence", variant: "Stipple's PNG writer, default compression", workload: encodeWork,
                                    timing: Timing(samples: ours), figures: ["s": oursSeconds, "MB": oursBytes / 1e6]))
        // vips from its own raw format (mapped from the file, nearly free to read), so its
        // time is its encoder's and the file's writing, as Stipple's row is.
        log("sequence: vips copy to its raw format")
        let raw = try BenchSuite.runMeasured([vips, "copy", path("source.png"), path("still.v")])
        guard raw.status == 0 else { report.skipped.append("sequence: vips copy failed (status \(raw.status))"); return }
        for (name, args) in [("vips pngsave (level 6, its default)", [vips, "pngsave", path("still.v"), path("vips6.png")]),
                             ("vips pngsave --compression 1", [vips, "pngsave", path("still.v"), path("vips1.png"), "--compression", "1"])] {
            log("sequence: \(name)")
            var times = [Double]()
            for _ in 0..<rounds {
                let run = try BenchSuite.runMeasured(args)
                guard run.status == 0 else { break }
                times.append(run.seconds)
            }
            guard times.count == rounds else { report.skipped.append("sequence: \(name) failed"); continue }
            let bytes = Double((try? FileManager.default.attributesOfItem(atPath: args[3])[.size] as? Int) ?? 0)
            try? FileManager.default.removeItem(atPath: args[3])
            let seconds = Timing(samples: times).median
            var row = BenchRow(scenario: "sequence", variant: name, workload: encodeWork + ", from vips's raw format",
                               timing: Timing(samples: times), figures: ["s": seconds, "MB": bytes / 1e6],
                               note: "a whole vips process, its start-up included")
            row.ratio = seconds / oursSeconds
            row.ratioTo = "Stipple's PNG writer, default compression"
            report.rows.append(row)
        }
    }
}
