import XCTest
@testable import Stipple

/// docs/reference.md §12 on `LiveCanvas`: any sequence of strokes, undos, redos and clears renders
/// bit-identical to the same drawing made without the undone strokes, at any undo depth.
final class SessionLiveCanvasTests: XCTestCase {
    let canvas = Canvas(width: 48, height: 36, background: .color(Color(hex: "#20242a")!))

    /// 200 seeded sessions of 20 steps (maxAge 0, undo depth 1…5 steps; 50 of them with maxAge 12 and the
    /// clock running): after every undo, redo and clear, and at the end, the canvas's frame
    /// equals the model's drawing rendered from scratch, bit for bit.
    func testRandomSessionsAreBitIdenticalToTheDrawingWithoutUndoneStrokes() async throws {
        let renderer = try Renderer()
        var compared = 0, baked = 0
        for seed in 0..<200 {
            let aging = seed % 4 == 3
            let settings = RenderSettings(effects: AgeEffects(maxAge: aging ? 12 : 0, dissolveDistance: 6, pointScale: 1))
            var session = RandomSession(seed: UInt64(seed), width: canvas.width, height: canvas.height)
            let depth = 1 + Int(session.rng.next() % 5)
            let live = LiveCanvas(renderer: renderer, canvas: canvas, settings: settings, seed: UInt64(seed),
                                  undo: UndoLimits(steps: depth))
            for step in 0..<20 {
                var check = false
                switch session.rng.next() % 12 {
                case 0...4:
                    try await session.stroke(on: live)
                case 5...6:
                    if await live.canUndo { try await live.undo(); XCTAssertTrue(session.model.undo()); check = true }
                case 7...8:
                    if await live.canRedo { try await live.redo(); XCTAssertTrue(session.model.redo()); check = true }
                case 9:
                    try await live.clear(); session.model.clear(); check = true
                default:
                    _ = try await live.render()   // lets baking and freeing run
                    if aging { await live.tick(Int(session.rng.next() % 8)) }
                }
                if check || step == 19 {
                    let frame = await live.frame
                    let got = try await live.render()
                    let want = try await session.expected(on: renderer, canvas: canvas, settings: settings, frame: frame,
                                                          fps: live.fps, seed: UInt64(seed))
                    compared += 1
                    XCTAssertEqual(got, want, "seed \(seed) step \(step) (depth \(depth), maxAge \(aging ? 12 : 0))")
                    if got != want { return }
                }
                // The model forgets what fell off the depth, so that both refuse the same undos.
                let steps = await live.sessionStatistics.undoSteps
                if session.model.cursor > steps {
                    let m = session.model
                    session.model.snapshots = [m.snapshots[m.cursor - steps]] + Array(m.snapshots[(m.cursor - steps + 1)...])
                    session.model.cursor = steps
                }
            }
            baked += await live.sessionStatistics.strokesBaked
        }
        XCTAssertGreaterThan(compared, 800)
        XCTAssertGreaterThan(baked, 200, "the sessions bake strokes into the backing layer")
    }

    /// Baking changes no pixel: the same strokes at undo depths 1, 3 and 1000 (nothing
    /// baked) give the same frame after every stroke, over a colour or an image, bake budget 0 (one stroke a frame) or none.
    func testBakingAtAnyDepthChangesNoPixel() async throws {
        let renderer = try Renderer()
        var pixels = [UInt8](repeating: 0, count: 48 * 36 * 4)
        for i in pixels.indices { pixels[i] = UInt8(truncatingIfNeeded: i &* 31 &+ i / 7) }
        let image = Image(width: 48, height: 36, pixels: pixels)
        for seed in 0..<16 {
            let background: CanvasBackground = seed % 2 == 0 ? canvas.background : .image(image)
            let c = Canvas(width: 48, height: 36, background: background)
            let canvases = [1, 3, 1000].map { depth in
                LiveCanvas(renderer: renderer, canvas: c, seed: 4, undo: UndoLimits(steps: depth, bakeMilliseconds: seed % 3 == 0 ? 0 : 4))
            }
            var sessions = canvases.map { _ in RandomSession(seed: UInt64(seed), width: 48, height: 36) }
            for step in 0..<10 {
                var frames: [Image] = []
                for (i, live) in canvases.enumerated() {
                    try await sessions[i].stroke(on: live)
                    frames.append(try await live.render())
                }
                for (i, f) in frames.enumerated().dropFirst() {
                    XCTAssertEqual(f, frames.last!, "seed \(seed) step \(step): depth index \(i) differs from nothing baked")
                }
            }
            let baked = await canvases[0].sessionStatistics.strokesBaked
            XCTAssertGreaterThanOrEqual(baked, 5, "seed \(seed): depth 1 bakes")
        }
    }

    func testUndoPastTheDepthIsRefusedWithAClearError() async throws {
        let live = LiveCanvas(renderer: try Renderer(), canvas: canvas, undo: UndoLimits(steps: 2))
        var session = RandomSession(seed: 1, width: 48, height: 36)
        do { try await live.undo(); XCTFail("undo of nothing") } catch let e as SessionError {
            XCTAssertEqual(e.message, "cannot undo 1 step: 0 can be undone; nothing older has been drawn")
        }
        for _ in 0..<3 { try await session.stroke(on: live) }
        try await live.undo(2)
        do { try await live.undo(); XCTFail("undo past the depth") } catch let e as SessionError {
            XCTAssertTrue(e.message.hasPrefix("cannot undo 1 step: 0 can be undone; the canvas keeps its newest 2 steps"), e.message)
        }
        try await live.redo()
        try await session.stroke(on: live)
        do { try await live.redo(); XCTFail("redo after a new stroke") } catch let e as SessionError {
            XCTAssertEqual(e.message, "cannot redo 1 step: 0 can be redone (a new stroke or clear empties the redo list)")
        }
        let open = await live.beginStroke(brushKey: "soft", brush: .builtin(.softRound), style: StrokeStyle(color: .black, radius: 3))
        do { try await live.undo(); XCTFail("undo with an open stroke") } catch let e as SessionError {
            XCTAssertEqual(e.message, "cannot undo while stroke 4 is open: end it first")
        }
        try await live.endStroke(open)
    }

    /// The byte cap: strokes over it fall off the depth even when the step count allows more.
    func testTheByteCapLimitsUndo() async throws {
        let live = LiveCanvas(renderer: try Renderer(), canvas: canvas, undo: UndoLimits(steps: 30, bytes: 1))
        var session = RandomSession(seed: 2, width: 48, height: 36)
        for _ in 0..<5 { try await session.stroke(on: live) }
        let stats = await live.sessionStatistics
        XCTAssertEqual(stats.undoSteps, 1, "the newest step always stays")
        XCTAssertEqual(stats.stepsDropped, 4)
    }

    /// maxAge > 0: strokes off the depth stay as data until their last stamp dies, then
    /// their layers are freed: the live layers stay bounded over a long session.
    func testAgingStrokesAreFreedWhenDead() async throws {
        let settings = RenderSettings(effects: AgeEffects(maxAge: 10, dissolveDistance: 6, pointScale: 1))
        let live = LiveCanvas(renderer: try Renderer(), canvas: canvas, settings: settings, undo: UndoLimits(steps: 3))
        var session = RandomSession(seed: 3, width: 48, height: 36)
        for _ in 0..<40 {
            try await session.stroke(on: live)
            _ = try await live.render()
            await live.tick(4)
        }
        _ = try await live.render()
        let stats = await live.sessionStatistics
        XCTAssertLessThanOrEqual(stats.liveLayers, 3 + 10 / 4 + 1, "\(stats)")
        XCTAssertLessThanOrEqual(stats.keptStrokes, 3 + 10 / 4 + 1, "\(stats)")
        XCTAssertGreaterThan(stats.strokesFreed, 30)
    }
}
