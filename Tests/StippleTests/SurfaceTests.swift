import XCTest
@testable import Stipple

/// Surfaces: layers baked onto one, then a frame started from it, give the same bytes as
/// drawing everything over the background (baking never changes a pixel).
final class SurfaceTests: XCTestCase {
    func stamps(_ seed: UInt64, count: Int, size: Float) -> [SketchPoint] {
        var rng = SplitMix64(seed: seed)
        func unit() -> Float { Float(rng.next() >> 40) / Float(1 << 24) }
        return (0..<count).map { _ in
            SketchPoint(x: unit() * size, y: unit() * size, radius: 1 + unit() * 9, age: 0, dissolveAngle: 0,
                        red: unit(), green: unit(), blue: unit(), alpha: 0.2 + unit() * 0.8)
        }
    }

    func testBakedLayersThenTheRestEqualsAllOverTheBackground() async throws {
        let renderer = try Renderer()
        let canvas = Canvas(width: 64, height: 48, background: .color(Color(hex: "#203040c0")!))
        let brushes = [Brush.builtin(.softRound, size: 16), Brush.builtin(.hardRound, size: 8)]
        var ids: [LayerID] = []
        for i in 0..<6 {
            let id = await renderer.makeLayer(brushKey: "b\(i % 2)", brush: brushes[i % 2])
            try await renderer.append(stamps(UInt64(i), count: 40, size: 64), to: id)
            ids.append(id)
        }
        let direct = try await renderer.renderLayers(ids, canvas: canvas, frame: 0)
        for depth in 0...ids.count {
            let surface = try await renderer.makeSurface(canvas)
            // Bake the oldest layers in two steps, as a session spreads baking over frames.
            let baked = Array(ids.prefix(depth))
            try await renderer.draw(Array(baked.prefix(depth / 2)), frame: 0, settings: RenderSettings(), onto: surface)
            try await renderer.draw(Array(baked.dropFirst(depth / 2)), frame: 0, settings: RenderSettings(), onto: surface)
            var over = canvas
            over.background = .surface(surface)
            let composed = try await renderer.renderLayers(Array(ids.dropFirst(depth)), canvas: over, frame: 0)
            XCTAssertEqual(composed, direct, "baked \(depth) of \(ids.count) layers")
            if depth == ids.count {
                let image = try await renderer.image(of: surface)
                XCTAssertEqual(image, direct, "the surface itself holds the whole drawing")
            }
            await renderer.removeSurface(surface)
        }
    }

    func testASurfaceOfAnotherSizeIsRefused() async throws {
        let renderer = try Renderer()
        let surface = try await renderer.makeSurface(Canvas(width: 8, height: 8))
        do {
            _ = try await renderer.render(canvas: Canvas(width: 9, height: 8, background: .surface(surface)), batches: [])
            XCTFail("a surface of another size was used")
        } catch let error as RenderError {
            XCTAssertTrue("\(error)".contains("8×8"), "\(error)")
        }
    }
}

/// sokol's rule: state is set once, through the cache; a frame drawn again makes no call
/// that sets what is already set.
final class RedundantGLCallTests: XCTestCase {
    func stampsLayer() -> [SketchPoint] {
        (0..<50).map { SketchPoint(x: Float($0), y: 20, radius: 3, age: -Float($0 % 5), red: 1, green: 0.4, blue: 0, alpha: 0.5) }
    }

    func testResidentFrameDrawnTwiceMakesOnlyTheClearTheDrawAndTheErrorCheck() async throws {
        let renderer = try Renderer()
        let canvas = Canvas(width: 60, height: 40, background: .color(Color(hex: "#ffffff")!))
        let layer = await renderer.makeLayer(brushKey: "s", brush: .builtin(.softRound, size: 8))
        try await renderer.append(stampsLayer(), to: layer)
        let settings = RenderSettings(effects: AgeEffects(maxAge: 30))
        try await renderer.drawLayers([layer], canvas: canvas, frame: 2, settings: settings)
        let before = await renderer.statistics()
        try await renderer.drawLayers([layer], canvas: canvas, frame: 2, settings: settings)
        let after = await renderer.statistics()
        let draws = after.drawCalls - before.drawCalls
        XCTAssertEqual(draws, 1)
        XCTAssertEqual(after.glCalls - before.glCalls, draws + 2, "glClear, the draw, glGetError: nothing else")
        XCTAssertEqual(after.bytesUploaded, before.bytesUploaded)
        XCTAssertGreaterThan(after.skippedBinds - before.skippedBinds, 10, "the cache stood in for the state calls")
    }

    func testImmediateFrameDrawnTwiceAddsOnlyTheUpload() async throws {
        let renderer = try Renderer()
        let canvas = Canvas(width: 60, height: 40)
        let batch = StampBatch(brushKey: "s", brush: .builtin(.softRound, size: 8), stamps: stampsLayer())
        try await renderer.drawImmediate(canvas: canvas, batches: [batch], ageOffset: 5)
        let before = await renderer.statistics()
        try await renderer.drawImmediate(canvas: canvas, batches: [batch], ageOffset: 5)
        let after = await renderer.statistics()
        XCTAssertEqual(after.glCalls - before.glCalls, (after.drawCalls - before.drawCalls) + 3,
                       "glClear, glBufferSubData, the draw, glGetError")
    }
}
