import Stipple
import Foundation

/// Scenarios `stamps` (Stipple points and quads against the C baseline and Cairo) and
/// `drawcalls` (the same stamps in draws of 1, 4, 16… stamps).
extension BenchSuite {
    // MARK: stamps

    func stamps(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        let stamps = randomStamps(config.stamps, radius: config.radius, width: config.width, height: config.height)
        let batch = [StampBatch(brushKey: "bench", brush: brush, stamps: stamps)]
        let pixels = Double(config.stamps) * Double(2 * config.radius) * Double(2 * config.radius)
        func figures(_ t: Timing) -> [String: Double] {
            ["stamps/s": Double(config.stamps) / t.median, "px/s": pixels / t.median, "ms/frame": t.median * 1e3]
        }
        var rows: [BenchRow] = []
        let canvas = self.canvas
        log("stamps: stipple points and the C baseline, alternately")
        let (points, c, pairRatio) = try await paired(renderer, stamps: stamps, perDraw: stamps.count) {
            try $0.drawImmediate(canvas: canvas, batches: batch, settings: RenderSettings(primitive: .points))
        }
        rows.append(BenchRow(scenario: "stamps", variant: "stipple points", workload: workload, timing: points,
                             figures: figures(points)))
        log("stamps: stipple quads")
        let quads = try await renderer.measure(warmup: config.warmup, reps: config.reps) {
            try $0.drawImmediate(canvas: canvas, batches: batch, settings: RenderSettings(primitive: .quads))
        }
        rows.append(BenchRow(scenario: "stamps", variant: "stipple quads", workload: workload, timing: quads,
                             figures: figures(quads)))
        rows.append(BenchRow(scenario: "stamps", variant: "C baseline points", workload: workload, timing: c,
                             figures: figures(c), note: "the same GL calls issued from C, measured alternately with Stipple"))
        log("stamps: cairo")
        switch BenchPeers.cairo(stamps: stamps, config: config, brush: brush) {
        case let .success(t):
            rows.append(BenchRow(scenario: "stamps", variant: "cairo (CPU)", workload: workload, timing: t,
                                 figures: figures(t), note: "libcairo image surface, one mask a stamp"))
        case let .failure(error):
            report.skipped.append("stamps/cairo: \(error.message)")
        }
        rows[0].ratio = pairRatio; rows[0].ratioTo = "C baseline points (median of alternate pairs)"
        rows[1].ratio = quads.median / points.median; rows[1].ratioTo = "stipple points"
        if let cairo = rows.first(where: { $0.variant.hasPrefix("cairo") }) {
            rows[rows.count - 1].ratio = cairo.timing.median / points.median
            rows[rows.count - 1].ratioTo = "stipple points"
            report.targets.append(.init(name: "stamps: cairo time / stipple time (N=\(config.stamps))",
                                        measured: cairo.timing.median / points.median, limit: 2, atMost: false))
        }
        report.targets.append(.init(name: "stamps: stipple / C baseline time per frame",
                                    measured: pairRatio, limit: 1.05, atMost: true))
        report.rows += rows
    }

    // MARK: draw calls

    func drawCalls(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        let n = config.drawCallStamps
        let stamps = randomStamps(n, radius: config.radius, width: config.width, height: config.height)
        let canvas = self.canvas
        for size in config.stampsPerDraw where size <= n {
            let draws = (n + size - 1) / size
            let batches = stride(from: 0, to: n, by: size).map {
                StampBatch(brushKey: "bench", brush: brush, stamps: Array(stamps[$0..<min($0 + size, n)]))
            }
            log("drawcalls: \(size) stamps a draw")
            let (s, c, pairRatio) = try await paired(renderer, stamps: stamps, perDraw: size) {
                try $0.drawImmediate(canvas: canvas, batches: batches)
            }
            let work = "N=\(n) in \(draws) draws of \(size)"
            func figures(_ t: Timing) -> [String: Double] {
                ["calls/s": Double(draws) / t.median, "µs/call": t.median / Double(draws) * 1e6,
                 "ms/frame": t.median * 1e3]
            }
            var row = BenchRow(scenario: "drawcalls", variant: "stipple", workload: work, timing: s, figures: figures(s))
            row.ratio = pairRatio
            row.ratioTo = "C baseline"
            report.rows.append(row)
            report.rows.append(BenchRow(scenario: "drawcalls", variant: "C baseline", workload: work, timing: c,
                                        figures: figures(c)))
            if size == 1 {
                report.targets.append(.init(name: "drawcalls: stipple / C baseline at 1 stamp a draw",
                                            measured: pairRatio, limit: 1.25, atMost: true))
            }
        }
    }
}
