import XCTest
@testable import Stipple

/// docs/reference.md §12 saves: a saved drawing is a script that renders the canvas bit for bit, and
/// opening it gives a canvas whose undo works on the saved strokes.
final class SessionSaveTests: XCTestCase {
    let canvas = Canvas(width: 40, height: 30, background: .color(Color(hex: "#30303880")!))

    /// 40 seeded sessions (depth 2…4, a third with maxAge 15, strokes of every style and a
    /// non-built-in brush): save → `Scene.load` + render, and save → `LiveCanvas(loading:)`,
    /// both equal the canvas's frame; undo on both then gives equal frames again.
    func testSaveThenLoadRendersBitIdentical() async throws {
        let dir = try TestSupport.temporaryDirectory(self)
        let renderer = try Renderer()
        for seed in 0..<40 {
            let aging = seed % 3 == 2
            let settings = RenderSettings(effects: AgeEffects(maxAge: aging ? 15 : 0, dissolveDistance: 5, pointScale: 1.25))
            var session = RandomSession(seed: UInt64(seed) &+ 77, width: canvas.width, height: canvas.height)
            session.variety = true
            let live = LiveCanvas(renderer: renderer, canvas: canvas, settings: settings, fps: 24, seed: UInt64(seed),
                                  undo: UndoLimits(steps: 2 + seed % 3))
            for _ in 0..<(3 + seed % 6) {
                try await session.stroke(on: live)
                if session.rng.next() % 3 == 0 { try await live.undo() }
                if session.rng.next() % 5 == 0 { try await live.clear() }
                _ = try await live.render()
                await live.tick(1 + Int(session.rng.next() % 4))
            }
            let path = dir.appendingPathComponent("drawing-\(seed).json").path
            try await live.save(to: path)
            let image = try await live.render()
            let rendered = try await renderer.render(try Scene.load(path: path), frame: 0)
            XCTAssertEqual(rendered, image, "seed \(seed): stipple render of the save")
            let loaded = try await LiveCanvas(loading: path, renderer: renderer)
            let reopened = try await loaded.render()
            XCTAssertEqual(reopened, image, "seed \(seed): the reopened canvas")
            if rendered != image || reopened != image { return }
            // The newest step is a stroke on both: undo it on both.
            if case .stroke? = await live.session.history.undoSteps.last {
                try await live.undo()
                try await loaded.undo()
                let a = try await live.render(), b = try await loaded.render()
                XCTAssertEqual(a, b, "seed \(seed): undo after reopening")
            }
        }
    }

    /// A second save replaces the first: the script renders the new drawing, and the first
    /// save's backing PNG is gone (brush PNGs are named by content and shared).
    func testSavingAgainReplacesThePreviousSave() async throws {
        let dir = try TestSupport.temporaryDirectory(self)
        let renderer = try Renderer()
        let live = LiveCanvas(renderer: renderer, canvas: canvas)
        var session = RandomSession(seed: 5, width: 40, height: 30)
        let path = dir.appendingPathComponent("d.json").path
        try await session.stroke(on: live)
        try await live.save(to: path)
        try await session.stroke(on: live)
        try await live.save(to: path)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        XCTAssertEqual(files.filter { $0.hasPrefix("d.backing-") }.count, 1, "\(files)")
        XCTAssertFalse(files.contains { $0.contains(".tmp-") }, "\(files)")
        let image = try await live.render()
        let rendered = try await renderer.render(try Scene.load(path: path), frame: 0)
        XCTAssertEqual(rendered, image)
    }

    func testSaveErrorsSayWhatHappened() async throws {
        let live = LiveCanvas(renderer: try Renderer(), canvas: canvas)
        do {
            try await live.save(to: "/nonexistent-folder/d.json")
            XCTFail("saved into a missing folder")
        } catch let e as InputError {
            XCTAssertEqual(e.description, "/nonexistent-folder/d.json: cannot save: the folder /nonexistent-folder does not exist")
        }
        let id = await live.beginStroke(brushKey: "soft", brush: .builtin(.softRound), style: StrokeStyle(color: .black, radius: 2))
        do {
            try await live.save(to: NSTemporaryDirectory() + "never.json")
            XCTFail("saved with an open stroke")
        } catch let e as SessionError {
            XCTAssertEqual(e.message, "cannot save while stroke 0 is open: end it first")
        }
        try await live.endStroke(id)
    }
}
