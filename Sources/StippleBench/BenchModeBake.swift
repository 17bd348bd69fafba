import Foundation
import Stipple

/// The costs of stroke layers where users feel them, in the `modes` scenario: a bake whose
/// strokes are all `effect: desaturate` against the same bake with plain strokes, and the
/// whole `stipple render` process for one large frame of blended, faded, softened and
/// shadowed strokes against the same strokes plain.
extension BenchSuite {
    static let modeBakeStrokes = (count: 40, radius: Float(16))
    static let modeRenderStrokes = (count: 120, samples: 24)

    func modeBakes(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stipple-bench-modebake-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (w, h, frames) = (config.modeBakeSize[0], config.modeBakeSize[1], config.modeBakeSize[2])
        let s = BenchSuite.modeBakeStrokes
        let header = Y4MHeader(width: w, height: h, rateNumerator: 30, rateDenominator: 1)
        let work = "\(frames) frames \(w)×\(h) 4:2:0, \(s.count) strokes r=\(Int(s.radius))"
        let variants = [("bake, plain strokes", ""), ("bake, effect desaturate", #""effect": "desaturate", "#)]
        var scenes: [Scene] = []
        for (name, keys) in variants {
            let script = try scriptFile(folder, name.filter(\.isLetter), strokes: s.count, radius: s.radius, maxAge: 0,
                                        w, h, frames, keys: keys)
            scenes.append(try VideoBake.loadScene(script: script, header: header, video: "the synthetic video"))
        }
        // The two bakes in turn, a round at a time (after one of each unmeasured), the ratio the
        // median of each round's: a bake takes a fraction of a second and this machine's load
        // drifts over seconds.
        log("modes: \(variants.map(\.0).joined(separator: ", ")), in turn")
        var times: [[Double]] = [[], []]
        let source = SyntheticVideo(header: header, frames: frames)
        for round in 0...(2 * config.videoGoalReps) {
            for (i, scene) in scenes.enumerated() {
                let t = try await oneBake(try VideoBake(scene: scene, header: header, renderer: renderer), source)
                if round > 0 { times[i].append(t) }
            }
        }
        for (i, (name, _)) in variants.enumerated() {
            let t = Timing(samples: times[i])
            var row = BenchRow(scenario: "modes", variant: name, workload: work + ", in turn", timing: t,
                               figures: ["frames/s": Double(frames) / t.median])
            if i > 0 {
                let ratios = zip(times[i], times[0]).map { $0 / $1 }
                row.ratio = Timing(samples: ratios).median
                row.ratioTo = "bake, plain strokes, median of \(ratios.count) rounds"
                report.targets.append(.init(name: "modes: desaturate bake / plain bake, \(w)×\(h)",
                                            measured: row.ratio!, limit: 1.5, atMost: true))
            }
            report.rows.append(row)
        }
    }

    /// `stipple render` of one frame, the whole process (start, parse, draw, read back,
    /// PNG), each mode against the same strokes plain.
    func modeRenders(_ report: inout BenchReport) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stipple-bench-moderender-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard let executable = config.stippleExecutable else {
            report.skipped.append("modes: the render process rows (the stipple executable is unknown)")
            return
        }
        let (w, h) = (config.modeRenderSize[0], config.modeRenderSize[1])
        let s = BenchSuite.modeRenderStrokes
        let work = "\(w)×\(h), \(s.count) strokes × \(s.samples) samples, whole process"
        // Every blend, every effect, stroke opacity and a shadow: each is held to its target.
        var variants: [(String, String, Double)] = [("render, plain strokes", "", 0)]
        for blend in StrokeMode.Blend.allCases where blend != .over {
            variants.append(("render, blend \(blend.rawValue)", "\"blend\": \"\(blend.rawValue)\", ", 2))
        }
        variants.append(("render, strokeOpacity 0.8", "\"strokeOpacity\": 0.8, ", 2))
        for effect in StrokeMode.Effect.allCases {
            variants.append(("render, effect \(effect.rawValue)", "\"effect\": \"\(effect.rawValue)\", ", 2))
        }
        variants.append(("render, shadow (blur 3)", "\"shadow\": { \"blur\": 3 }, ", 4))
        let png = (folder as NSString).appendingPathComponent("out.png")
        var scripts: [String] = []
        for (name, keys, _) in variants {
            let script = (folder as NSString).appendingPathComponent("\(name.filter(\.isLetter)).json")
            try renderScript(keys: keys).write(toFile: script, atomically: true, encoding: .utf8)
            scripts.append(script)
        }
        func render(_ i: Int) throws -> Double {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: executable)
            p.arguments = ["render", scripts[i], "-o", png, "--overwrite"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            let start = DispatchTime.now().uptimeNanoseconds
            try p.run()
            p.waitUntilExit()
            guard p.terminationStatus == 0 else {
                throw RenderError("stipple render \(variants[i].0) failed (exit \(p.terminationStatus))")
            }
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        log("modes: \(variants.map(\.0).joined(separator: ", ")), one process each a round, in turn")
        // The first round warms the file cache and the driver's shader cache. The variants run
        // in turn, one process each a round, and a ratio is the median of each round's ratio
        // to plain: the load drifts over the seconds a round takes.
        var samples = [[Double]](repeating: [], count: variants.count)
        for round in 0..<(1 + config.videoGoalReps) {
            for i in variants.indices {
                let t = try render(i)
                if round > 0 { samples[i].append(t) }
            }
        }
        for (i, (name, _, limit)) in variants.enumerated() {
            let t = Timing(samples: samples[i])
            var row = BenchRow(scenario: "modes", variant: name, workload: work, timing: t, figures: ["s": t.median])
            if i > 0 {
                row.ratio = Timing(samples: zip(samples[i], samples[0]).map { $0 / $1 }).median
                row.ratioTo = "render, plain strokes, median of \(samples[i].count) rounds"
                report.targets.append(.init(name: "modes: \(name.dropFirst("render, ".count)) render / plain render, whole process",
                                            measured: row.ratio!, limit: limit, atMost: true))
            }
            report.rows.append(row)
        }
    }

    /// A script of `modeRenderSize` with strokes of `samples` samples each, every entry with `keys`.
    private func renderScript(keys: String) -> String {
        let (w, h) = (config.modeRenderSize[0], config.modeRenderSize[1])
        let s = BenchSuite.modeRenderStrokes
        var rng = SplitMix64(seed: config.seed &+ 5)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        let entries = (0..<s.count).map { _ -> String in
            var x = unit() * Double(w), y = unit() * Double(h)
            let dx = (unit() - 0.5) * 24, dy = (unit() - 0.5) * 24
            let samples = (0..<s.samples).map { _ -> String in
                defer { x += dx; y += dy }
                return #"{"x": \#(x), "y": \#(y), "t": 0, "pressure": 0.8}"#
            }
            let colour = String(format: "#%02x%02x%02x", Int(unit() * 255), Int(unit() * 255), Int(unit() * 255))
            return ##"{"brush": "soft", \##(keys)"color": "\##(colour)", "radius": 10, "points": [\##(samples.joined(separator: ","))]}"##
        }
        return """
            {"canvas": {"width": \(w), "height": \(h), "background": "#d8d0c0"},
             "brushes": {"soft": {"builtin": "soft-round", "size": 64}},
             "draw": [\(entries.joined(separator: ",\n"))]}
            """
    }
}
