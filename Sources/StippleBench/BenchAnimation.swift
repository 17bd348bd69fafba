import Stipple
import Foundation

/// Scenario `animation`: L live stamps, k new a frame, resident layers against re-uploading
/// every age.
extension BenchSuite {
    // MARK: animation

    func animation(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        let k = config.newPerFrame
        let canvas = self.canvas
        for live in config.liveCounts {
            let maxAge = Float(max(1, live / k))
            let effects = AgeEffects(maxAge: maxAge, dissolveDistance: 6, pointScale: 1)
            // k stamps born at each of the frames −(M−1)…0: L live at frame 0, ages at frame 0.
            let initial = randomStamps(live, radius: config.radius, width: config.width, height: config.height,
                                       age: { Float(Int(maxAge) - 1 - $0 / k) })
            let fresh = randomStamps(k * (config.animationFrames + config.warmup + 1), radius: config.radius,
                                     width: config.width, height: config.height)
            for strategy in UploadStrategy.allCases {
                log("animation: L=\(live) k=\(k) \(strategy.rawValue)")
                let layer = await renderer.makeLayer(brushKey: "bench", brush: brush)
                try await renderer.append(initial, rotations: nil, to: layer)
                try await renderer.drawLayers([layer], canvas: canvas, frame: 0,
                                              settings: RenderSettings(effects: effects), upload: strategy)
                let before = await renderer.statistics().bytesUploaded
                let clock = FrameClock()
                let t = try await renderer.measure(warmup: config.warmup, reps: config.animationFrames) { r in
                    // One tick: k stamps are born at this frame, then the frame is drawn.
                    clock.frame += 1
                    let frame = clock.frame
                    let born = fresh[((frame - 1) * k)..<(frame * k)].map { p -> SketchPoint in
                        var q = p
                        q.age = -Float(frame)
                        return q
                    }
                    try r.append(born, rotations: nil, to: layer)
                    try r.drawLayers([layer], canvas: canvas, frame: frame, settings: RenderSettings(effects: effects),
                                     upload: strategy)
                }
                let frames = config.warmup + config.animationFrames
                let bytes = Double(await renderer.statistics().bytesUploaded - before) / Double(frames)
                await renderer.removeLayer(layer)
                report.rows.append(BenchRow(
                    scenario: "animation", variant: strategy.rawValue, workload: "L=\(live) k=\(k) M=\(Int(maxAge))",
                    timing: t, figures: ["ms/frame": t.median * 1e3, "bytes/frame": bytes,
                                         "stamps/s": Double(live) / t.median]))
            }
        }
    }
}

/// The animation scenario's clock: only ever touched inside `Renderer.measure`'s body, on
/// the render thread, one tick after another.
// Unchecked: touched only inside `Renderer.measure`'s body, on the render thread (see above).
private final class FrameClock: @unchecked Sendable {
    var frame = 0
}
