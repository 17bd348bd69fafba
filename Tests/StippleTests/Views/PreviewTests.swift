import Foundation
import XCTest
@testable import Stipple

/// Previews: drawn at the view's scale, stamps smaller than a pixel keep their coverage.
final class PreviewTests: XCTestCase {
    func testTinyStampsKeepTheirCoverage() async throws {
        let r = try Renderer()
        var rng = SplitMix64(seed: 3)
        func unit() -> Float { Float(rng.next() >> 40) / Float(1 << 24) }
        let dir = try TestSupport.temporaryDirectory(self, "preview")
        for key in ["hard-round", "soft-round"] {
            let stamps = (0..<3000).map { _ in "[\(8 + unit() * 1008),\(8 + unit() * 1008),\(1.5 + unit()),0,0,1,1,1,0.8]" }
            let path = dir.appendingPathComponent("\(key).json").path
            try """
                {"canvas": {"width": 1024, "height": 1024}, "brushes": {"b": {"builtin": "\(key)", "size": 64}},
                 "draw": [{"brush": "b", "stamps": [\(stamps.joined(separator: ","))]}]}
                """.write(toFile: path, atomically: true, encoding: .utf8)
            let scene = try Scene(script: Script.load(path: path))
            for scale in [0.125, 1.0 / 16, 1.0 / 32] {
                let view = try View(canvasWidth: 1024, canvasHeight: 1024, scale: scale)
                let exact = try await r.render(scene, frame: 0, view: view)
                let preview = try await r.renderPreview(scene, frame: 0, view: view)
                func coverage(_ image: Image) -> Double {
                    stride(from: 3, to: image.pixels.count, by: 4).reduce(0.0) { $0 + Double(image.pixels[$1]) } / 255
                }
                let (e, p) = (coverage(exact), coverage(preview))
                XCTAssertEqual(p / e, 1, accuracy: 0.15, "\(key) brush at 1/\(Int(1 / scale)): coverage \(p) against \(e)")
                // One stamp alone: a faint pixel, never a full-alpha one.
                var one = scene
                one.batches[0].stamps = [SketchPoint(x: 300.3, y: 200.8, radius: 4, age: 0, dissolveAngle: 0,
                                                     red: 1, green: 1, blue: 1, alpha: 1)]
                let alone = try await r.renderPreview(one, frame: 0, view: view)
                let lost = Float(scale) * one.batches[0].stamps[0].radius / Scene.previewMinimumRadius
                let most = stride(from: 3, to: alone.pixels.count, by: 4).map { alone.pixels[$0] }.max() ?? 0
                XCTAssertGreaterThan(most, 0, "a tiny stamp does not vanish (\(key), 1/\(Int(1 / scale)))")
                XCTAssertLessThanOrEqual(Float(most), 255 * lost * lost + 1, "\(key), 1/\(Int(1 / scale))")
                XCTAssertGreaterThan(p, 0, "tiny stamps do not vanish")
            }
        }
    }
}
