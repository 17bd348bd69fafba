import Foundation
import XCTest
@testable import Stipple

/// Backgrounds, strokes and GPU renders for the brush-mode tests.
enum ModeFixtures {
    static let width = 64, height = 48

    /// Straight RGBA backgrounds of the test canvas's size, by name.
    static func backgrounds() -> [(String, Image)] {
        let (w, h) = (width, height)
        func image(_ f: (Int, Int) -> [UInt8]) -> Image {
            var p: [UInt8] = []
            for y in 0..<h { for x in 0..<w { p += f(x, y) } }
            return Image(width: w, height: h, pixels: p)
        }
        var rng = SplitMix64(seed: 11)
        let noise = image { _, _ in (0..<4).map { c in c == 3 ? UInt8(128 + rng.next() % 128) : UInt8(rng.next() % 256) } }
        return [
            ("flat", image { _, _ in [200, 120, 40, 255] }),
            ("noise", noise),
            ("checkerboard", image { x, y in (x / 4 + y / 4) % 2 == 0 ? [250, 250, 250, 255] : [20, 60, 160, 200] }),
            ("step", image { x, _ in x < w / 2 ? [30, 160, 60, 255] : [220, 40, 90, 255] }),
            ("photo-like", image { x, y in
                let fx = Double(x) / Double(w), fy = Double(y) / Double(h)
                let r = 0.5 + 0.4 * sin(fx * 5 + fy * 2), g = 0.45 + 0.35 * cos(fy * 6 - fx), b = 0.3 + 0.3 * fx * fy
                return [UInt8(r * 255), UInt8(g * 255), UInt8(b * 255), 255]
            }),
        ]
    }

    /// A diagonal stroke of a soft brush, with a colour and a radius.
    static func stroke(from a: (Float, Float), to b: (Float, Float), color: Color = Color(red: 0.9, green: 0.2, blue: 0.5, alpha: 0.8),
                       radius: Float = 6, brush: Brush.Builtin = .softRound, mode: StrokeMode? = nil) -> StampBatch {
        let samples = [TouchSample(x: a.0, y: a.1, t: 0, pressure: nil), TouchSample(x: b.0, y: b.1, t: 0, pressure: nil)]
        let stamps = StrokeBuilder.stamps(for: samples, style: StrokeStyle(color: color, radius: radius), fps: 30,
                                          seed: 3, strokeIndex: 0)
        var batch = StampBatch(brushKey: "modes:\(brush.rawValue)", brush: .builtin(brush), stamps: stamps.map(\.point))
        batch.mode = mode
        if mode?.edgeTolerance != nil { batch.edgeAnchor = EdgeAnchor(x: a.0, y: a.1, frame: 0, entry: 0) }
        return batch
    }

    static func canvas(_ background: Image) -> Canvas { Canvas(width: width, height: height, background: .image(background)) }

    /// The GPU's canvas before the stroke, its layer L (the stroke alone on transparent, drawn
    /// stamp by stamp), and the canvas with the stroke layer.
    static func renders(_ renderer: Renderer, _ background: Image, before: [StampBatch], stroke: StampBatch) async throws
        -> (before: [UInt8], layer: [UInt8], after: [UInt8]) {
        let canvas = canvas(background)
        let b = try await renderer.renderPremultiplied(canvas: canvas, batches: before)
        var plain = stroke
        plain.mode = nil
        let l = try await renderer.renderPremultiplied(canvas: Canvas(width: width, height: height), batches: [plain])
        let a = try await renderer.renderPremultiplied(canvas: canvas, batches: before + [stroke])
        return (b, l, a)
    }

    /// The largest difference between the GPU's canvas and the oracle's, and where.
    static func worst(_ gpu: [UInt8], _ expected: [Double]) -> (diff: Double, at: Int) {
        var worst = (0.0, -1)
        for i in gpu.indices {
            let d = abs(Double(gpu[i]) - expected[i])
            if d > worst.0 { worst = (d, i) }
        }
        return worst
    }

    /// Writes a video whose every sample differs from its neighbours and from frame to frame.
    static func writeBusyVideo(_ path: String, header: Y4MHeader, frames: Int) throws {
        let writer = try Y4MWriter(path: path, header: header)
        var frame = Y4MFrame(header: header)
        for n in 0..<frames {
            let start = frame.yOffset
            frame.bytes.withUnsafeMutableBufferPointer { p in
                for i in start..<p.count { p[i] = UInt8(truncatingIfNeeded: (i &* 37) ^ (i >> 5) &+ n &* 11) }
            }
            try writer.write(frame)
        }
        try writer.finish()
    }
}
