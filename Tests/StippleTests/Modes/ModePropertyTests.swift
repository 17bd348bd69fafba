import XCTest
@testable import Stipple

/// Properties of stroke layers that hold whatever the exact arithmetic.
final class ModePropertyTests: XCTestCase {
    /// A stroke crossing itself again and again, of an opaque colour.
    private func scribble(_ mode: StrokeMode?) -> StampBatch {
        var samples: [TouchSample] = []
        for i in 0..<12 {
            samples.append(TouchSample(x: i % 2 == 0 ? 6 : 58, y: Float(6 + i * 3), t: 0, pressure: nil))
        }
        let stamps = StrokeBuilder.stamps(for: samples, style: StrokeStyle(color: Color(red: 0.2, green: 0.3, blue: 0.9), radius: 7),
                                          fps: 30, seed: 1, strokeIndex: 0)
        var b = StampBatch(brushKey: "modes:soft", brush: .builtin(.softRound), stamps: stamps.map(\.point))
        b.mode = mode
        return b
    }

    func testStrokeOpacityNeverCoversMoreThanK() async throws {
        let renderer = try Renderer()
        let canvas = Canvas(width: ModeFixtures.width, height: ModeFixtures.height)
        for k: Float in [0.25, 0.6] {
            var m = StrokeMode()
            m.strokeOpacity = k
            let pixels = try await renderer.renderPremultiplied(canvas: canvas, batches: [scribble(m)])
            let alphas = stride(from: 3, to: pixels.count, by: 4).map { pixels[$0] }
            XCTAssertLessThanOrEqual(Int(alphas.max()!), Int((k * 255).rounded()) + 1)
            // Without the cap, the same scribble covers fully where it crosses itself.
            let plain = try await renderer.renderPremultiplied(canvas: canvas, batches: [scribble(nil)])
            XCTAssertEqual(stride(from: 3, to: plain.count, by: 4).map { plain[$0] }.max(), 255)
        }
    }

    func testTwoIdenticalEffectStrokesCompound() async throws {
        let renderer = try Renderer()
        let background = ModeFixtures.backgrounds().first { $0.0 == "photo-like" }!.1
        var m = StrokeMode()
        m.effect = .darken
        m.strokeOpacity = 0.5
        let stroke = ModeFixtures.stroke(from: (6, 8), to: (58, 40), mode: m)
        let canvas = ModeFixtures.canvas(background)
        let once = try await renderer.renderPremultiplied(canvas: canvas, batches: [stroke])
        let twice = try await renderer.renderPremultiplied(canvas: canvas, batches: [stroke, stroke])
        XCTAssertNotEqual(once, twice)
        // The second applies to the result of the first.
        var plain = stroke
        plain.mode = nil
        let layer = try await renderer.renderPremultiplied(canvas: Canvas(width: ModeFixtures.width, height: ModeFixtures.height),
                                                           batches: [plain])
        let expected = ModeOracle.apply(m, before: once, layer: layer, width: ModeFixtures.width, height: ModeFixtures.height,
                                        reference: nil)
        XCTAssertLessThanOrEqual(ModeFixtures.worst(twice, expected).diff, 2)
    }

    func testEdgesLeaveTheOtherColourBitIdentical() async throws {
        let renderer = try Renderer()
        let step = ModeFixtures.backgrounds().first { $0.0 == "step" }!.1
        let canvas = ModeFixtures.canvas(step)
        let half = ModeFixtures.width / 2
        for (start, end, keptColumns) in [((Float(4), Float(24)), (Float(60), Float(24)), half..<ModeFixtures.width),
                                          ((60, 20), (4, 28), 0..<half)] {
            for effect: StrokeMode.Effect? in [nil, .lighten, .soften] {
                var m = StrokeMode()
                m.edgeTolerance = 40
                m.effect = effect
                let after = try await renderer.renderPremultiplied(canvas: canvas, batches: [ModeFixtures.stroke(from: start, to: end, mode: m)])
                let before = try await renderer.renderPremultiplied(canvas: canvas, batches: [])
                var changed = 0
                for y in 0..<ModeFixtures.height {
                    for x in 0..<ModeFixtures.width {
                        let i = (y * ModeFixtures.width + x) * 4
                        if keptColumns.contains(x) {
                            XCTAssertEqual(Array(after[i..<i + 4]), Array(before[i..<i + 4]), "(\(x), \(y)) \(String(describing: effect))")
                        } else if after[i..<i + 4] != before[i..<i + 4] { changed += 1 }
                    }
                }
                XCTAssertGreaterThan(changed, 50, "the stroke drew on its own colour")
            }
        }
    }

    func testEntriesWithoutModesDrawAsBefore() async throws {
        let renderer = try Renderer()
        let background = ModeFixtures.backgrounds().first { $0.0 == "noise" }!.1
        let canvas = ModeFixtures.canvas(background)
        let a = ModeFixtures.stroke(from: (6, 8), to: (58, 40))
        let b = ModeFixtures.stroke(from: (8, 40), to: (56, 6), brush: .hardRound)
        var nothing = StrokeMode()
        nothing.blend = .erase
        nothing.strokeOpacity = 0
        let plain = try await renderer.renderPremultiplied(canvas: canvas, batches: [a, b])
        // A stroke layer that changes nothing splits the plain entries into two runs.
        let split = try await renderer.renderPremultiplied(canvas: canvas, batches: [a, ModeFixtures.stroke(from: (1, 1), to: (60, 40), mode: nothing), b])
        XCTAssertEqual(plain, split)
    }

    func testBitIdenticalRunToRun() async throws {
        let background = ModeFixtures.backgrounds().first { $0.0 == "checkerboard" }!.1
        var m = StrokeMode()
        m.effect = .sharpen
        var s = StrokeMode()
        s.shadow = StrokeMode.Shadow()
        let batches = [ModeFixtures.stroke(from: (6, 8), to: (58, 40), mode: m), ModeFixtures.stroke(from: (8, 40), to: (56, 6), mode: s)]
        let first = try await Renderer().renderPremultiplied(canvas: ModeFixtures.canvas(background), batches: batches)
        let second = try await Renderer().renderPremultiplied(canvas: ModeFixtures.canvas(background), batches: batches)
        XCTAssertEqual(first, second)
    }
}
