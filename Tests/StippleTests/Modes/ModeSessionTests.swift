import XCTest
@testable import Stipple

/// Stroke layers in live drawing sessions: undo gives the image without the stroke bit for
/// bit, strokes baked past the undo depth change no pixel, and saves keep the keys.
final class ModeSessionTests: XCTestCase {
    let canvas = Canvas(width: 48, height: 36, background: .color(Color(hex: "#4080c0")!))

    private func style(_ color: Color, _ configure: (inout StrokeMode) -> Void) -> StrokeStyle {
        var s = StrokeStyle(color: color, radius: 6)
        var m = StrokeMode()
        configure(&m)
        s.mode = m
        return s
    }

    private func draw(_ live: LiveCanvas, _ style: StrokeStyle, from a: (Double, Double), to b: (Double, Double),
                      t: Double) async throws {
        let id = await live.beginStroke(style: style)
        try await live.add(x: a.0, y: a.1, t: t, to: id)
        try await live.add(x: b.0, y: b.1, t: t, to: id)
        try await live.endStroke(id)
        _ = try await live.render()
    }

    private var styles: [StrokeStyle] {
        [StrokeStyle(color: Color(red: 1, green: 0.8, blue: 0), radius: 7),
         style(Color(red: 0.9, green: 0.1, blue: 0.1)) { $0.shadow = StrokeMode.Shadow(); $0.strokeOpacity = 0.6 },
         style(.black) { $0.effect = .desaturate; $0.edgeTolerance = 60 },
         style(.black) { $0.effect = .soften },
         style(.black) { $0.blend = .erase; $0.strokeOpacity = 0.5 }]
    }

    func testUndoOfAModeStrokeIsNeverDrawn() async throws {
        let renderer = try Renderer()
        let strokes: [((Double, Double), (Double, Double))] = [((4, 18), (44, 18)), ((6, 4), (40, 30)), ((4, 18), (44, 8)),
                                                               ((10, 30), (40, 6)), ((2, 2), (46, 34))]
        for last in 1..<styles.count {
            let live = LiveCanvas(renderer: renderer, canvas: canvas, fps: 30, seed: 1, undo: UndoLimits(steps: 10))
            let never = LiveCanvas(renderer: renderer, canvas: canvas, fps: 30, seed: 1, undo: UndoLimits(steps: 10))
            for i in 0...last {
                try await draw(live, styles[i], from: strokes[i].0, to: strokes[i].1, t: 0)
                if i < last { try await draw(never, styles[i], from: strokes[i].0, to: strokes[i].1, t: 0) }
            }
            let before = try await live.render()
            try await live.undo()
            let a = try await live.render(), b = try await never.render()
            XCTAssertEqual(a, b, "undo of \(String(describing: styles[last].mode))")
            XCTAssertNotEqual(a, before, "\(String(describing: styles[last].mode)) drew something")
        }
    }

    func testUndoEachModeStrokeAndBakingChangeNothing() async throws {
        let renderer = try Renderer()
        let path: [((Double, Double), (Double, Double))] = [((4, 18), (44, 18)), ((6, 4), (40, 30)), ((4, 18), (44, 8)),
                                                            ((10, 30), (40, 6)), ((2, 2), (46, 34))]
        // Depth 2: the older strokes are baked into the backing layer as the later ones come.
        let shallow = LiveCanvas(renderer: renderer, canvas: canvas, fps: 30, seed: 1, undo: UndoLimits(steps: 2))
        let deep = LiveCanvas(renderer: renderer, canvas: canvas, fps: 30, seed: 1, undo: UndoLimits(steps: 10))
        for (i, s) in styles.enumerated() {
            try await draw(shallow, s, from: path[i].0, to: path[i].1, t: 0)
            try await draw(deep, s, from: path[i].0, to: path[i].1, t: 0)
        }
        try await shallow.bakeAll()
        let a = try await shallow.render(), b = try await deep.render()
        XCTAssertEqual(a, b)
        // Undo then redo of an effect stroke gives the image back bit for bit.
        try await deep.undo()
        let undone = try await deep.render()
        XCTAssertNotEqual(undone, b)
        try await deep.redo()
        let redone = try await deep.render()
        XCTAssertEqual(redone, b)
    }

    func testSaveKeepsTheKeys() async throws {
        let dir = try TestSupport.temporaryDirectory(self)
        let renderer = try Renderer()
        let live = LiveCanvas(renderer: renderer, canvas: canvas, fps: 30, seed: 1, undo: UndoLimits(steps: 10))
        let path: [((Double, Double), (Double, Double))] = [((4, 18), (44, 18)), ((6, 4), (40, 30)), ((4, 18), (44, 8)),
                                                            ((10, 30), (40, 6)), ((2, 2), (46, 34))]
        for (i, s) in styles.enumerated() { try await draw(live, s, from: path[i].0, to: path[i].1, t: 0) }
        let file = dir.appendingPathComponent("modes.json").path
        try await live.save(to: file)
        let script = try Script.load(path: file)
        XCTAssertEqual(script.draw.map(\.mode), styles.map(\.mode))
        let image = try await live.render()
        let rendered = try await renderer.render(try Scene(script: script), frame: 0)
        XCTAssertEqual(rendered, image)
    }
}

extension ModeSessionTests {
    /// Frames drawn after every step (so later frames start from kept canvases) equal the
    /// same steps replayed on another renderer and drawn once at the end, for random mixes of
    /// mode strokes, undo, redo and clear.
    func testFramesFromKeptCanvasesEqualAFullRedraw() async throws {
        for seed in 0..<4 {
            var rng = SplitMix64(seed: UInt64(seed) &+ 40)
            var steps: [(Int, (Double, Double), (Double, Double))] = []
            for _ in 0..<14 {
                let a = (Double(rng.next() % 48), Double(rng.next() % 36)), b = (Double(rng.next() % 48), Double(rng.next() % 36))
                steps.append((Int(rng.next() % 8), a, b))
            }
            func run(_ live: LiveCanvas, everyStep: Bool) async throws -> Image {
                for (op, a, b) in steps {
                    switch op {
                    case 5: try? await live.undo()
                    case 6: try? await live.redo()
                    case 7: try? await live.clear()
                    default:
                        let id = await live.beginStroke(style: styles[op])
                        try await live.add(x: a.0, y: a.1, t: 0, to: id)
                        if everyStep { _ = try await live.render() }
                        try await live.add(x: b.0, y: b.1, t: 0, to: id)
                        try await live.endStroke(id)
                    }
                    if everyStep { _ = try await live.render() }
                }
                return try await live.render()
            }
            let stepwise = try await run(LiveCanvas(renderer: try Renderer(), canvas: canvas, fps: 30, seed: 1,
                                                    undo: UndoLimits(steps: 6)), everyStep: true)
            let once = try await run(LiveCanvas(renderer: try Renderer(), canvas: canvas, fps: 30, seed: 1,
                                                undo: UndoLimits(steps: 6)), everyStep: false)
            XCTAssertEqual(stepwise, once, "seed \(seed)")
        }
    }
}
