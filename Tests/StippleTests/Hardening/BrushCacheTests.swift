import XCTest
@testable import Stipple

/// The renderer's brush textures are found by content: a cache key given with two different
/// brushes never draws one with the other's texture.
final class BrushCacheTests: XCTestCase {
    private let canvas = Canvas(width: 48, height: 24, background: .color(.white))
    private func stamps(_ x: Float) -> [SketchPoint] {
        [SketchPoint(x: x, y: 12, radius: 10, color: Color(red: 0.1, green: 0.2, blue: 0.8))]
    }
    private let hard = Brush.builtin(.hardRound, size: 32)
    private let soft = Brush.builtin(.softRound, size: 32)

    func testOneKeyWithTwoBrushesDrawsEachBrush() async throws {
        let renderer = try Renderer()
        let shared = try await renderer.render(canvas: canvas, batches: [
            StampBatch(brushKey: "pen", brush: hard, stamps: stamps(12)),
            StampBatch(brushKey: "pen", brush: soft, stamps: stamps(36)),
        ])
        let distinct = try await Renderer().render(canvas: canvas, batches: [
            StampBatch(brush: hard, stamps: stamps(12)), StampBatch(brush: soft, stamps: stamps(36)),
        ])
        XCTAssertTrue(shared == distinct, "one key with two brushes drew another image than two keys")
        // And across frames: the key's first brush stays cached, the second still draws itself.
        let later = try await renderer.render(canvas: canvas, batches: [StampBatch(brushKey: "pen", brush: soft, stamps: stamps(12))])
        let fresh = try await Renderer().render(canvas: canvas, batches: [StampBatch(brush: soft, stamps: stamps(12))])
        XCTAssertTrue(later == fresh, "a key seen with another brush drew that brush's texture")
        let allHard = try await Renderer().render(canvas: canvas, batches: [
            StampBatch(brush: hard, stamps: stamps(12)), StampBatch(brush: hard, stamps: stamps(36)),
        ])
        XCTAssertFalse(shared == allHard, "the two brushes must differ for this test to mean anything")
    }

    func testLayersWithOneKeyAndTwoBrushes() async throws {
        let renderer = try Renderer()
        let a = await renderer.makeLayer(brushKey: "pen", brush: hard)
        let b = await renderer.makeLayer(brushKey: "pen", brush: soft)
        try await renderer.append(stamps(12), to: a)
        try await renderer.append(stamps(36), to: b)
        let image = try await renderer.renderLayers([a, b], canvas: canvas, frame: 0)
        let expected = try await Renderer().render(canvas: canvas, batches: [
            StampBatch(brush: hard, stamps: stamps(12)), StampBatch(brush: soft, stamps: stamps(36)),
        ])
        XCTAssertTrue(image == expected, "two layers sharing a key drew another image than two keys")
    }
}
