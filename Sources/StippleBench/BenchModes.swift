import Stipple
import Foundation

/// Scenario `modes`: strokes drawn as stroke layers (a blend with stroke opacity, an
/// effect, a blur effect, a shadow) against the same stamps drawn stamp by stamp; then
/// frames with 4 to 32 "detect edges" strokes (BenchEdges.swift).
extension BenchSuite {
    static let modeStrokes = 32
    static let modeStampsPerStroke = 48

    func modes(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        let n = BenchSuite.modeStrokes, k = BenchSuite.modeStampsPerStroke
        let stamps = randomStamps(n * k, radius: config.radius, width: config.width, height: config.height)
        // Each stroke a run of stamps along a line, so a stroke's region is a stroke's, not the canvas.
        let strokes: [[SketchPoint]] = (0..<n).map { s in
            let start = stamps[s * k]
            return (0..<k).map { i in
                var p = stamps[s * k + i]
                p.x = start.x + Float(i) * config.radius * 0.3
                p.y = start.y + Float(i) * config.radius * 0.1
                return p
            }
        }
        let canvas = Canvas(width: config.width, height: config.height, background: .color(Color(red: 0.5, green: 0.6, blue: 0.7)))
        func batches(_ mode: StrokeMode?) -> [StampBatch] {
            strokes.map { var b = StampBatch(brushKey: "bench", brush: brush, stamps: $0); b.mode = mode; return b }
        }
        var over = StrokeMode(); over.strokeOpacity = 0.8
        var desaturate = StrokeMode(); desaturate.effect = .desaturate
        var soften = StrokeMode(); soften.effect = .soften
        var shadow = StrokeMode(); shadow.shadow = StrokeMode.Shadow()
        let variants: [(String, StrokeMode?)] = [("plain (stamp by stamp)", nil), ("over, strokeOpacity 0.8", over),
                                                 ("effect desaturate", desaturate), ("effect soften", soften),
                                                 ("shadow (σ 3, offset 4,4)", shadow)]
        // Where soften, sharpen and shadows blur: on the CPU under a software rasterizer.
        let blurs = await renderer.blursOnCPU ? ", blurs on the CPU" : ", blurs on the GPU"
        let work = "\(n) strokes of \(k) stamps r=\(format(config.radius)) \(config.width)×\(config.height)\(blurs)"
        log("modes: one frame each of \(variants.map(\.0).joined(separator: ", ")), in turn")
        let drawn = variants.map { batches($0.1) }
        // A frame takes milliseconds and this machine's load drifts over seconds: the variants
        // run in turn, one frame each, and a ratio is the median of each round's ratio to plain.
        // Three times the repetitions, for a steadier median.
        let times = try await renderer.measureInTurn(warmup: config.warmup, reps: 3 * config.reps, count: variants.count) {
            try $0.drawImmediate(canvas: canvas, batches: drawn[$1])
        }
        for (i, (name, mode)) in variants.enumerated() {
            let t = Timing(samples: times[i])
            var row = BenchRow(scenario: "modes", variant: name, workload: work, timing: t,
                               figures: ["strokes/s": Double(n) / t.median, "ms/frame": t.median * 1e3])
            if i > 0 {
                let ratios = zip(times[i], times[0]).map { $0 / $1 }
                row.ratio = Timing(samples: ratios).median
                row.ratioTo = "plain (stamp by stamp), median of \(ratios.count) rounds"
                report.targets.append(.init(name: "modes: \(name) / plain, one frame drawn", measured: row.ratio!,
                                            limit: mode?.shadow != nil ? 4 : 2, atMost: true))
            }
            report.rows.append(row)
        }
        try await modeBakes(renderer, &report)
        try modeRenders(&report)
        try await edges(renderer, &report)
    }
}
