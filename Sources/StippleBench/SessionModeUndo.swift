import Foundation
import Stipple

/// Undo with stroke layers in the history: 30 undoable strokes at the bench size, every
/// third one a stroke layer (soften, desaturate, a blurred drop shadow in turn), so an undo
/// must draw the canvas again through the brush-mode passes.
extension BenchSuite {
    /// Walks of three undos timed (after the warm-up): enough for a 95th percentile.
    static let undoWalks = 40

    func undoLatencyWithModes(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        let (w, h) = (config.width, config.height)
        let kept = 30
        let canvas = Canvas(width: w, height: h, background: .color(Color(hex: "#d8d0c0")!))
        let live = LiveCanvas(renderer: renderer, canvas: canvas, undo: UndoLimits(steps: kept))
        var rng = SplitMix64(seed: config.seed &+ 3)
        log("session: drawing \(kept) strokes, every third a stroke layer")
        for i in 0..<kept {
            let samples = BenchSuite.benchStroke(&rng, width: w, height: h, samples: 12, step: 40, t0: 0, dt: 0)
            var style = BenchSuite.style(&rng, radius: 12)
            if i % 3 == 2 {
                var mode = StrokeMode()
                switch (i / 3) % 3 {
                case 0: mode.effect = .soften
                case 1: mode.effect = .desaturate
                default: mode.shadow = StrokeMode.Shadow()
                }
                style.mode = mode
            }
            try await BenchSuite.draw(samples, style: style, brush: brush, on: live)
        }
        _ = try await live.render()
        let work = "\(w)×\(h), \(kept) undoable strokes, \(kept / 3) of them stroke layers"
        log("session: undo latency with stroke layers")
        var drawn: [Double] = [], read: [Double] = []
        for _ in 0..<(config.warmup + config.reps) {
            var start = DispatchTime.now().uptimeNanoseconds
            try await live.undo()
            try await live.drawFrame()
            drawn.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            try await live.redo()
            try await live.drawFrame()
            start = DispatchTime.now().uptimeNanoseconds
            try await live.undo()
            _ = try await live.render()
            read.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            try await live.redo()
            _ = try await live.render()
        }
        // Undos in a row walk past the canvases the session keeps: the slowest of three,
        // enough times for a 95th percentile.
        var walk: [Double] = []
        for _ in 0..<(config.warmup + max(config.reps, BenchSuite.undoWalks)) {
            var slowest = 0.0
            for _ in 0..<3 {
                let start = DispatchTime.now().uptimeNanoseconds
                try await live.undo()
                try await live.drawFrame()
                slowest = max(slowest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            walk.append(slowest)
            try await live.redo(3)
            try await live.drawFrame()
        }
        let walkTiming = Timing(samples: Array(walk.dropFirst(config.warmup)))
        let drawnTiming = Timing(samples: Array(drawn.dropFirst(config.warmup)))
        let readTiming = Timing(samples: Array(read.dropFirst(config.warmup)))
        report.rows.append(BenchRow(scenario: "session", variant: "undo → frame drawn, stroke layers in history", workload: work,
                                    timing: drawnTiming, figures: ["ms": drawnTiming.median * 1e3, "max ms": drawn.max()! * 1e3]))
        report.rows.append(BenchRow(scenario: "session", variant: "undo → next frame, stroke layers in history", workload: work,
                                    timing: readTiming, figures: ["ms": readTiming.median * 1e3, "max ms": read.max()! * 1e3]))
        report.rows.append(BenchRow(scenario: "session", variant: "3 undos in a row → frame drawn, slowest", workload: work,
                                    timing: walkTiming, figures: ["ms": walkTiming.median * 1e3, "p95 ms": walkTiming.p95 * 1e3,
                                                                  "max ms": walkTiming.max * 1e3]))
        report.targets.append(.init(name: "session: undo to a drawn frame with stroke layers in the history, ms (one 60 Hz frame)",
                                    measured: drawnTiming.median * 1e3, limit: 16.7, atMost: true))
        report.targets.append(.init(name: "session: slowest of 3 undos in a row with stroke layers, p95 ms (one 60 Hz frame)",
                                    measured: walkTiming.p95 * 1e3, limit: 16.7, atMost: true))
    }
}
