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
            let t = try await renderer.measure(warmup: config.warmup, reps: config.reps) {
                _ = try $0.render(scene, frame: frame)
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
    }

    /// Six wide plain strokes in four colours, then `count` edges strokes crossing them,
    /// each born two frames after the one before.
    private func edgesScript(_ count: Int) -> String {
        let (w, h) = (Double(config.width), Double(config.height))
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
            let keys = i % 2 == 0 ? #", "effect": "desaturate", "edges": { "tolerance": 40 }"#
                : #", "edges": { "tolerance": 40 }, "strokeOpacity": 0.7"#
            draw.append(stroke(keys, radius: h / 20, color: "#202020", t: Double(2 * i + 2) / 30))
        }
        return ##"{ "canvas": { "width": \##(config.width), "height": \##(config.height), "background": "#f4efe6" }, "fps": 30, "##
            + #""brushes": { "soft": { "builtin": "soft-round" } }, "draw": [\#(draw.joined(separator: ",\n"))] }"#
    }
}
