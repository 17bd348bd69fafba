import XCTest
@testable import Stipple

/// A renderer outlives the canvases it draws: what a `LiveCanvas` made on it (a layer a
/// kept stroke, its backing layers' surfaces) is freed by `close()`, and when the canvas goes.
final class LiveCanvasReleaseTests: XCTestCase {
    let canvas = Canvas(width: 64, height: 48, background: .color(Color(hex: "#30343a")!))

    /// Strokes drawn, some baked into a backing surface (an undo depth of 2), one left open.
    private func drawSome(on live: LiveCanvas, seed: UInt64) async throws -> RandomSession {
        var session = RandomSession(seed: seed, width: canvas.width, height: canvas.height)
        for _ in 0..<6 { try await session.stroke(on: live) }
        _ = try await live.render()   // bakes what fell off the depth
        _ = await live.beginStroke(color: Color(red: 1, green: 0.5, blue: 0, alpha: 1), radius: 4)
        return session
    }

    func testClosingFreesEveryLayerAndSurfaceAndLeavesAFreshCanvas() async throws {
        let renderer = try Renderer()
        let live = LiveCanvas(renderer: renderer, canvas: canvas, undo: UndoLimits(steps: 2))
        _ = try await drawSome(on: live, seed: 3)
        let (layers, surfaces) = (await renderer.layerCount, await renderer.surfaceCount)
        XCTAssertGreaterThan(layers, 0)
        XCTAssertEqual(surfaces, 1, "the strokes off the undo depth were baked into a surface")

        await live.close()
        let (layersAfter, surfacesAfter) = (await renderer.layerCount, await renderer.surfaceCount)
        XCTAssertEqual(layersAfter, 0)
        XCTAssertEqual(surfacesAfter, 0)
        let (canUndo, canRedo) = (await live.canUndo, await live.canRedo)
        XCTAssertFalse(canUndo)
        XCTAssertFalse(canRedo)
        let blank = try await LiveCanvas(renderer: renderer, canvas: canvas).render()
        let closed = try await live.render()
        XCTAssertEqual(closed.pixels, blank.pixels, "a closed canvas shows its background alone")

        // It draws again like a new one.
        var again = RandomSession(seed: 4, width: canvas.width, height: canvas.height)
        try await again.stroke(on: live)
        let shown = await renderer.layerCount
        XCTAssertEqual(shown, 1)
        let statistics = await live.sessionStatistics
        XCTAssertEqual(statistics.keptStrokes, 1)
    }

    /// `close()` while frames that bake are being drawn: whatever each frame gives (an image,
    /// or an error about what the close freed), the canvas ends up empty, holds nothing it
    /// cannot reach on the renderer, and draws and bakes again afterwards.
    func testClosingWhileFramesBakeLeavesAWorkingCanvas() async throws {
        let renderer = try Renderer()
        let blank = try await LiveCanvas(renderer: renderer, canvas: canvas).render()
        for round in 0..<24 {
            // Bakes one stroke a frame, each an await on the renderer, so a close can fall between them.
            let live = LiveCanvas(renderer: renderer, canvas: canvas, undo: UndoLimits(steps: 1, bakeMilliseconds: 0))
            var session = RandomSession(seed: UInt64(100 + round), width: canvas.width, height: canvas.height)
            for _ in 0..<8 { try await session.stroke(on: live) }
            // Odd rounds close with the backing surface made already, even ones while it is made.
            if round % 2 == 1 { _ = try await live.render() }
            let frames = (0..<3).map { _ in Task { try? await live.render() } }
            for _ in 0..<(round / 2 % 6) { await Task.yield() }
            await live.close()
            for f in frames { _ = await f.value }
            let closed = try await live.render()
            XCTAssertEqual(closed.pixels, blank.pixels, "round \(round): a closed canvas shows its background alone")
            for _ in 0..<3 { try await session.stroke(on: live) }
            _ = try await live.render()
            try await live.bakeAll()
            let statistics = await live.sessionStatistics
            XCTAssertEqual(statistics.keptStrokes, 1, "round \(round): one stroke kept at an undo depth of 1")
            XCTAssertGreaterThan(statistics.strokesBaked, 0, "round \(round): baking runs again after the close")
            await live.close()
            let (layers, surfaces) = (await renderer.layerCount, await renderer.surfaceCount)
            XCTAssertEqual(layers, 0, "round \(round)")
            XCTAssertEqual(surfaces, 0, "round \(round)")
        }
    }

    /// A clear (which bakes everything first) while frames that bake are being drawn: each
    /// stroke is baked once, and undoing the clear shows every stroke exactly as drawn.
    func testAClearWhileFramesBakeBakesEachStrokeOnce() async throws {
        let renderer = try Renderer()
        for round in 0..<12 {
            let live = LiveCanvas(renderer: renderer, canvas: canvas, undo: UndoLimits(steps: 2, bakeMilliseconds: 0))
            var session = RandomSession(seed: UInt64(200 + round), width: canvas.width, height: canvas.height)
            for _ in 0..<8 { try await session.stroke(on: live) }
            if round % 2 == 1 { _ = try await live.render() }
            let frames = (0..<3).map { _ in Task { try await live.render() } }
            for _ in 0..<(round / 2 % 6) { await Task.yield() }
            try await live.clear()
            for f in frames { _ = try await f.value }
            try await live.undo()
            let got = try await live.render()
            let want = try await session.expected(on: renderer, canvas: canvas, settings: RenderSettings(),
                                                  frame: await live.frame, fps: live.fps, seed: 0)
            XCTAssertEqual(got, want, "round \(round): every stroke shown once after the clear is undone")
            let statistics = await live.sessionStatistics
            XCTAssertEqual(statistics.strokesBaked, 6, "round \(round): the strokes off the depth, each baked once")
            await live.close()
        }
    }

    func testACanvasThatGoesFreesWhatItHeldAndNoOtherCanvasLosesAnything() async throws {
        let renderer = try Renderer()
        let stays = LiveCanvas(renderer: renderer, canvas: canvas, undo: UndoLimits(steps: 2))
        _ = try await drawSome(on: stays, seed: 5)
        let before = try await stays.render()
        let held = (layers: await renderer.layerCount, surfaces: await renderer.surfaceCount)

        do {
            let goes = LiveCanvas(renderer: renderer, canvas: canvas, undo: UndoLimits(steps: 2))
            _ = try await drawSome(on: goes, seed: 6)
            let (layers, surfaces) = (await renderer.layerCount, await renderer.surfaceCount)
            XCTAssertGreaterThan(layers, held.layers)
            XCTAssertEqual(surfaces, held.surfaces + 1)
        }
        // The canvas frees its share on the renderer's thread once it has gone.
        var now = (layers: 0, surfaces: 0)
        for _ in 0..<500 {
            now = (await renderer.layerCount, await renderer.surfaceCount)
            if now == held { break }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        XCTAssertEqual(now.layers, held.layers, "the gone canvas's layers are freed, the other's kept")
        XCTAssertEqual(now.surfaces, held.surfaces)
        let after = try await stays.render()
        XCTAssertEqual(after.pixels, before.pixels, "the canvas that stays draws as before")
    }
}
