import XCTest
@testable import Stipple

/// Blurs and shadows worked out on the CPU (a software rasterizer's default) against the
/// oracle and against the GPU's own passes: random strokes of random shapes, σ, offsets,
/// opacities and edges; and a field is the same whichever boxes it is asked over, so tiles
/// never show.
final class BlurFieldsTests: XCTestCase {
    /// A random blur stroke: soften or sharpen (some with "detect edges"), or a shadow of
    /// random σ (0…7), offset, colour and blend.
    private func randomMode(_ rng: inout SplitMix64, edges: Bool = true) -> StrokeMode {
        var m = StrokeMode()
        m.strokeOpacity = [1, 0.8, 0.55, 0.3][Int(rng.next() % 4)]
        switch rng.next() % 3 {
        case 0: m.effect = .soften
        case 1: m.effect = .sharpen
        default:
            var s = StrokeMode.Shadow()
            s.dx = Int(rng.next() % 23) - 11
            s.dy = Int(rng.next() % 23) - 11
            s.blur = Float(rng.next() % 15) / 2
            s.color = Color(red: Float(rng.next() % 256) / 255, green: 0.3, blue: Float(rng.next() % 256) / 255,
                            alpha: 0.4 + Float(rng.next() % 60) / 100)
            m.shadow = s
            m.blend = [.over, .multiply, .screen][Int(rng.next() % 3)]
        }
        if m.effect != nil, rng.next() % 3 == 0, edges { m.edgeTolerance = 40 }
        return m
    }

    func testRandomBlurStrokesAgreeWithTheOracleBothWays() async throws {
        let renderer = try Renderer()
        var rng = SplitMix64(seed: 29)
        let backgrounds = ModeFixtures.backgrounds()
        var checked = 0
        for round in 0..<14 {
            let mode = randomMode(&rng)
            let (name, background) = backgrounds[round % backgrounds.count]
            func point() -> (Float, Float) { (Float(rng.next() % 70) - 3, Float(rng.next() % 54) - 3) }
            let under = ModeFixtures.stroke(from: point(), to: point(), color: Color(red: 0.1, green: 0.6, blue: 0.9, alpha: 0.7),
                                            radius: 4 + Float(rng.next() % 5), brush: .hardRound)
            let stroke = ModeFixtures.stroke(from: point(), to: point(), radius: 3 + Float(rng.next() % 8), mode: mode)
            var results: [[UInt8]] = []
            for onCPU in [true, false] {
                await renderer.setBlursOnCPU(onCPU)
                let r = try await ModeFixtures.renders(renderer, background, before: [under], stroke: stroke)
                var reference: [UInt8]?
                if mode.edgeTolerance != nil {
                    guard let p = stroke.edgeAnchor?.pixel(width: ModeFixtures.width, height: ModeFixtures.height) else { continue }
                    let i = (p.y * ModeFixtures.width + p.x) * 4
                    reference = Array(r.before[i..<i + 4])
                }
                let expected = ModeOracle.apply(mode, before: r.before, layer: r.layer, width: ModeFixtures.width,
                                                height: ModeFixtures.height, reference: reference)
                let worst = ModeFixtures.worst(r.after, expected)
                XCTAssertLessThanOrEqual(worst.diff, 2, "round \(round), \(mode) on \(name), blurred on the "
                                         + "\(onCPU ? "CPU" : "GPU"): worst at byte \(worst.at)")
                results.append(r.after)
                checked += 1
            }
            if results.count == 2 {
                let apart = zip(results[0], results[1]).map { abs(Int($0) - Int($1)) }.max() ?? 0
                XCTAssertLessThanOrEqual(apart, 4, "round \(round), \(mode): the two ways differ by \(apart)")
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 20)
    }

    /// Many blur strokes, crossing and apart (so they share passes in groups), drawn both
    /// ways: each stroke is within 2 of exact either way, and the two stay close. (Without
    /// "detect edges": a pixel one unit apart on the two ways may fall on either side of the
    /// tolerance, and a later edges stroke then acts on it on one way only.)
    func testManyStrokesBothWays() async throws {
        let renderer = try Renderer()
        var rng = SplitMix64(seed: 7)
        let canvas = Canvas(width: 203, height: 131, background: .color(Color(red: 0.8, green: 0.7, blue: 0.5)))
        var batches: [StampBatch] = []
        for i in 0..<24 {
            func point() -> (Float, Float) { (Float(rng.next() % 220) - 8, Float(rng.next() % 150) - 8) }
            let color = Color(red: Float(rng.next() % 256) / 255, green: Float(rng.next() % 256) / 255, blue: 0.4, alpha: 0.9)
            batches.append(ModeFixtures.stroke(from: point(), to: point(), color: color, radius: 3 + Float(rng.next() % 6),
                                               brush: i % 2 == 0 ? .hardRound : .softRound,
                                               mode: i % 3 == 0 ? nil : randomMode(&rng, edges: false)))
        }
        await renderer.setBlursOnCPU(true)
        let cpu = try await renderer.renderPremultiplied(canvas: canvas, batches: batches)
        await renderer.setBlursOnCPU(false)
        let gpu = try await renderer.renderPremultiplied(canvas: canvas, batches: batches)
        let diffs = zip(cpu, gpu).map { abs(Int($0) - Int($1)) }
        let over2 = diffs.filter { $0 > 2 }.count
        let plain = try await renderer.renderPremultiplied(canvas: canvas, batches: batches.filter { $0.mode == nil })
        XCTAssertNotEqual(cpu, plain, "the blur strokes changed nothing")
        XCTAssertLessThanOrEqual(diffs.max() ?? 0, 8, "the two ways drift apart")
        XCTAssertLessThanOrEqual(Double(over2) / Double(diffs.count), 0.002, "\(over2) samples more than 2 apart")
    }

    /// A field over a box is the same bytes as over the box cut in four: each pixel's taps
    /// are its own, whichever boxes are asked for (what keeps tiles from showing).
    func testAFieldIsTheSameOverAnyBoxes() {
        var rng = SplitMix64(seed: 5)
        let (width, height) = (57, 41)
        let whole = PixelBox(x0: 0, y0: 0, x1: width, y1: height)
        func noise(alphaZeroEvery n: UInt64) -> ReadBoxes {
            // Rows bottom to top, as read back.
            let bytes = (0..<(width * height)).flatMap { _ -> [UInt8] in
                let a = rng.next() % n == 0 ? 0 : UInt8(rng.next() % 256)
                return [UInt8(rng.next() % 256) & a, UInt8(rng.next() % 256) & a, UInt8(rng.next() % 256) & a, a]
            }
            // Two overlapping parts, as a read back of two boxes gives.
            func part(_ b: PixelBox) -> (box: PixelBox, bytes: [UInt8]) {
                var out: [UInt8] = []
                for y in (b.y0..<b.y1).reversed() {
                    let row = (height - 1 - y) * width
                    out += bytes[((row + b.x0) * 4)..<((row + b.x1) * 4)]
                }
                return (b, out)
            }
            return ReadBoxes(parts: [part(PixelBox(x0: 0, y0: 0, x1: width, y1: 30)),
                                     part(PixelBox(x0: 0, y0: 20, x1: width, y1: height))])
        }
        let canvas = noise(alphaZeroEvery: 7), layer = noise(alphaZeroEvery: 3)
        let weights = ModeShaderConstants.tapWeights(sigma: StrokeMode.blurSigma, radius: StrokeMode.blurRadius)
        let shadowWeights = ModeShaderConstants.tapWeights(sigma: 2.5, radius: 8)
        let big = PixelBox(x0: 3, y0: 2, x1: 50, y1: 39)
        let cuts = [PixelBox(x0: 3, y0: 2, x1: 20, y1: 17), PixelBox(x0: 20, y0: 2, x1: 50, y1: 17),
                    PixelBox(x0: 3, y0: 17, x1: 31, y1: 39), PixelBox(x0: 31, y0: 17, x1: 50, y1: 39)]
        for sharpen in [false, true] {
            let effect = BlurFields.BlurEffect(layer: layer, opacity: 0.7, sharpen: sharpen)
            let one = BlurFields.blurEffect(canvas, effect, width: width, height: height, box: big, weights: weights)
            for cut in cuts {
                let part = BlurFields.blurEffect(canvas, effect, width: width, height: height, box: cut, weights: weights)
                XCTAssertEqual(part, Self.crop(one, big, to: cut), "sharpen \(sharpen), \(cut)")
            }
            XCTAssertNotEqual(one, Self.crop(Self.bottomUp(canvas, whole), whole, to: big), "the stroke changed nothing")
        }
        // The shadow's field reaches past the canvas.
        let cast = PixelBox(x0: -9, y0: -6, x1: 44, y1: 47)
        let one = BlurFields.shadow(layer, opacity: 0.8, width: width, height: height, box: cast, weights: shadowWeights)
        for cut in [PixelBox(x0: -9, y0: -6, x1: 10, y1: 47), PixelBox(x0: 10, y0: -6, x1: 44, y1: 20),
                    PixelBox(x0: 10, y0: 20, x1: 44, y1: 47)] {
            let part = BlurFields.shadow(layer, opacity: 0.8, width: width, height: height, box: cut, weights: shadowWeights)
            XCTAssertEqual(part, Self.crop(one, cast, to: cut), "shadow over \(cut)")
        }
        XCTAssertTrue(one.contains { $0 > 0 })
    }

    /// The pixels of `inner` out of `bytes` (over `outer`, rows bottom to top).
    private static func crop(_ bytes: [UInt8], _ outer: PixelBox, to inner: PixelBox) -> [UInt8] {
        var out: [UInt8] = []
        for y in (inner.y0..<inner.y1).reversed() {
            let row = (outer.y1 - 1 - y) * outer.width
            out += bytes[((row + inner.x0 - outer.x0) * 4)..<((row + inner.x1 - outer.x0) * 4)]
        }
        return out
    }

    /// `read`'s pixels over `box`, rows bottom to top.
    private static func bottomUp(_ read: ReadBoxes, _ box: PixelBox) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: box.width * box.height * 4)
        out.withUnsafeMutableBufferPointer { o in
            for y in box.y0..<box.y1 { read.copyRow(y, box.x0, box.x1, into: o.baseAddress! + (box.y1 - 1 - y) * box.width * 4) }
        }
        return out
    }
}
