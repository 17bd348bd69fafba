import Stipple
import Foundation

/// "Detect edges" strokes in one frame: 4, 8, 16 and 32 of them over a canvas of coloured
/// regions, each frame drawn from the script as `render` draws it, references included.
/// Every reference is read once, in birth order, so a frame's cost grows linearly with
/// the number of such strokes; the rows show it as milliseconds an edges stroke.
extension BenchSuite {
    static let edgeCounts = [4, 8, 16, 32]

    func edges(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stipple-bench-edges-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var first: Timing?
        for count in BenchSuite.edgeCounts {
            log("modes: \(count) detect-edges strokes")
            let path = dir.appendingPathComponent("edges-\(count).json").path
            try edgesScript(count).write(toFile: path, atomically: true, encoding: .utf8)
            let scene = try Scene.load(path: path)
            let frame = 2 * count + 10
            // Each repetition reads the references again, as a run's first frame does.
            let t = try await renderer.measure(warmup: config.warmup, reps: config.reps) {
                var fresh = scene
                fresh.forgetEdgeReferences()
                _ = try $0.render(fresh, frame: frame)
            }
            var row = BenchRow(scenario: "modes", variant: "\(count) detect-edges strokes",
                               workload: "6 plain strokes, then \(count) edges strokes (desaturate, over) "
                                   + "\(config.width)×\(config.height), frame drawn and read back",
                               timing: t, figures: ["ms/frame": t.median * 1e3,
                                                    "ms/edges stroke": t.median * 1e3 / Double(count)])
            if let first {
                row.ratio = t.median / first.median
                row.ratioTo = "4 detect-edges strokes (linear: \(count / 4)×)"
            } else {
                first = t
            }
            report.rows.append(row)
        }
        try await edgesFrames(renderer, &report, dir: dir)
    }

    /// `render --frames` of a script of 16 darken strokes with "detect edges", against the
    /// same frames of the script without the key: a run reads each reference once (the scene
    /// keeps them), so its frames cost about what frames without edges do.
    private func edgesFrames(_ renderer: Renderer, _ report: inout BenchReport, dir: URL) async throws {
        let (count, frames, w, h) = (16, config.edgesFrames, 512, 256)
        log("modes: --frames 0...\(frames - 1) of \(count) darken strokes with and without detect edges, in turn")
        var scenes: [Scene] = []
        for edges in [false, true] {
            let path = dir.appendingPathComponent("frames-\(edges).json").path
            try edgesScript(count, width: w, height: h, keys: { _ in
                #", "effect": "darken""# + (edges ? #", "edges": { "tolerance": 40 }"# : "")
            }).write(toFile: path, atomically: true, encoding: .utf8)
            scenes.append(try Scene.load(path: path))
        }
        let loaded = scenes
        // A whole run a repetition, the two scripts in turn; every run starts with no reference known.
        let times = try await renderer.measureInTurn(warmup: 1, reps: max(3, config.reps / 2), count: 2) { r, v in
            var scene = loaded[v]
            scene.forgetEdgeReferences()
            for n in 0..<frames { _ = try r.render(scene, frame: n) }
        }
        let work = "\(frames) frames of 6 plain and \(count) darken strokes \(w)×\(h), each drawn from the script "
            + "and read back (render --frames)"
        let plain = Timing(samples: times[0]), edged = Timing(samples: times[1])
        report.rows.append(BenchRow(scenario: "modes", variant: "--frames, darken strokes", workload: work, timing: plain,
                                    figures: ["ms/frame": plain.median * 1e3 / Double(frames)]))
        var row = BenchRow(scenario: "modes", variant: "--frames, darken strokes with detect edges", workload: work,
                           timing: edged, figures: ["ms/frame": edged.median * 1e3 / Double(frames)])
        let ratios = zip(times[1], times[0]).map { $0 / $1 }
        row.ratio = Timing(samples: ratios).median
        row.ratioTo = "the same frames without detect edges, median of \(ratios.count) rounds"
        report.rows.append(row)
        report.targets.append(.init(name: "modes: --frames with detect edges / without", measured: row.ratio!,
                                    limit: 1.2, atMost: true))
    }

    /// Six wide plain strokes in four colours, then `count` edges strokes crossing them,
    /// each born two frames after the one before.
    private func edgesScript(_ count: Int) -> String {
        edgesScript(count, width: config.width, height: config.height) { i in
            i % 2 == 0 ? #", "effect": "desaturate", "edges": { "tolerance": 40 }"#
                : #", "edges": { "tolerance": 40 }, "strokeOpacity": 0.7"#
        }
    }

    /// Six wide plain strokes in four colours on a `width`×`height` canvas, then `count`
    /// strokes crossing them with `keys(i)` added, each born two frames after the one before.
    private func edgesScript(_ count: Int, width: Int, height: Int, keys: (Int) -> String) -> String {
        let (w, h) = (Double(width), Double(height))
        var rng = SplitMix64(seed: config.seed)
        func stroke(_ keys: String, radius: Double, color: String, t: Double) -> String {
            let (x0, y0) = (Double.random(in: 0...w, using: &rng), Double.random(in: 0...h, using: &rng))
            let (x1, y1) = (Double.random(in: 0...w, using: &rng), Double.random(in: 0...h, using: &rng))
            let samples = (0..<8).map { i -> String in
                let f = Double(i) / 7
                return String(format: #"{ "x": %.1f, "y": %.1f, "t": %.3f }"#, x0 + (x1 - x0) * f, y0 + (y1 - y0) * f,
                              t + f * 0.03)
            }
            return ##"{ "brush": "soft", "radius": \##(radius), "color": "\##(color)", "points": [\##(samples.joined(separator: ", "))]\##(keys) }"##
        }
        let colors = ["#d04030", "#3060c0", "#40a050", "#e0c040"]
        var draw = (0..<6).map { stroke("", radius: h / 6, color: colors[$0 % 4], t: 0) }
        for i in 0..<count {
            draw.append(stroke(keys(i), radius: h / 20, color: "#202020", t: Double(2 * i + 2) / 30))
        }
        return ##"{ "canvas": { "width": \##(width), "height": \##(height), "background": "#f4efe6" }, "fps": 30, "##
            + #""brushes": { "soft": { "builtin": "soft-round" } }, "draw": [\#(draw.joined(separator: ",\n"))] }"#
    }
}
