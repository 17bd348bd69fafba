import XCTest
@testable import Stipple

/// Properties of docs/reference.md §6 over hundreds of random strokes. Each case prints its seed; rebuild
/// it with `RandomStroke.make(seed:gentle:)` to reproduce.
final class StrokePropertyTests: XCTestCase {
    /// Every stamp lies on the curve, one step of arc after the one before (the closing stamp
    /// may come early), and every sample lies on the stamped path: a stamp within 0.5 px of it,
    /// or two consecutive stamps whose arc positions bracket it.
    func testStampsWalkTheCurveAndEverySampleLiesOnTheStampedPath() {
        for seed in propertySeeds(150, salt: 1) {
            for gentle in [true, false] {
                let stroke = RandomStroke.make(seed: seed, gentle: gentle)
                let stamps = stroke.stamps()
                let curve = StrokeDenseCurve(through: stroke.distinctPositions, smoothing: stroke.style.smoothing)
                let arcs: [Double]
                switch curve.arcPositions(of: stamps, step: { stepAfter($0, stroke.style) }) {
                case let .success(found): arcs = found
                case let .failure(off):
                    XCTFail("stamp \(off.index) at \(centre(off.stamp)) is off the curve; \(stroke)")
                    return
                }
                for i in arcs.indices.dropFirst() {
                    let step = arcs[i] - arcs[i - 1], expected = stepAfter(stamps[i - 1], stroke.style)
                    let isClosing = i == arcs.count - 1
                    // The dense polyline itself is within ~1e-4 px of the arc.
                    if isClosing ? step > expected * 1.01 + 1e-3 : abs(step - expected) > expected * 0.01 + 1e-3 {
                        XCTFail("stamps \(i - 1)…\(i) are \(step) px apart along the curve, expected \(expected); \(stroke)")
                        return
                    }
                }
                XCTAssertEqual(arcs.last ?? 0, curve.length, accuracy: StrokeStamper.minimumStep, "the last stamp is not on the last sample; \(stroke)")
                for (p, arc) in zip(stroke.distinctPositions, curve.sampleArcs) {
                    let nearCentre = stamps.contains { distance(centre($0), p) <= 0.5 }
                    let bracketed = zip(arcs, arcs.dropFirst()).contains { $0 - 1e-3 <= arc && arc <= $1 + 1e-3 }
                    if !(nearCentre || bracketed) {
                        XCTFail("sample \(p) is not on the stamped path; \(stroke)")
                        return
                    }
                }
            }
        }
    }

    func testConsecutiveStampsAreOneStepApart() {
        for seed in propertySeeds(300, salt: 2) {
            let stroke = RandomStroke.make(seed: seed, gentle: true)
            // The closing stamp on the last sample is the one allowed to come early.
            let stamps = stroke.stamps().dropLast()
            for (a, b) in zip(stamps, stamps.dropFirst()) {
                let expected = stepAfter(a, stroke.style)
                let ratio = distance(centre(a), centre(b)) / expected
                if !(0.9...1.1).contains(ratio) {
                    XCTFail("spacing ratio \(ratio) between \(a.point) and \(b.point); \(stroke)")
                    return
                }
            }
        }
    }

    func testNewestSampleIsCoveredAsSoonAsItIsAdded() {
        for seed in propertySeeds(300, salt: 3) {
            let stroke = RandomStroke.make(seed: seed, gentle: seed % 2 == 0)
            var builder = StrokeBuilder(style: stroke.style, fps: stroke.fps, seed: 7, strokeIndex: 0)
            for sample in stroke.samples {
                builder.add(sample)
                let covered = builder.stamps.contains { s in
                    let r = s.point.radius
                    return abs(s.point.x - sample.x) < r && abs(s.point.y - sample.y) < r
                }
                if !covered {
                    XCTFail("sample \(sample) not under any stamp after add; \(stroke)")
                    return
                }
            }
        }
    }

    func testSmoothingZeroStampsOnThePolyline() {
        for seed in propertySeeds(200, salt: 4) {
            var stroke = RandomStroke.make(seed: seed, gentle: false)
            stroke.style.smoothing = 0
            let polyline = stroke.distinctPositions
            for s in stroke.stamps() {
                let c = centre(s)
                let d = polyline.count == 1 ? distance(c, polyline[0])
                    : zip(polyline, polyline.dropFirst()).map { distance(c, toSegment: $0, $1) }.min()!
                if d >= 1e-3 {
                    XCTFail("stamp \(c) is \(d) px off the polyline; \(stroke)")
                    return
                }
            }
        }
    }

    func testIncrementalEqualsOneShotBitForBit() {
        for seed in propertySeeds(200, salt: 5) {
            let stroke = RandomStroke.make(seed: seed, gentle: false)
            var first = StrokeBuilder(style: stroke.style, fps: stroke.fps, seed: seed, strokeIndex: 3)
            var second = StrokeBuilder(style: stroke.style, fps: stroke.fps, seed: seed, strokeIndex: 3)
            var collected: [Stamp] = []
            for sample in stroke.samples {
                collected += first.add(sample)
                second.add(sample)
            }
            collected += first.end()
            second.end()
            let oneShot = stroke.stamps(seed: seed, strokeIndex: 3)
            XCTAssertEqual(bits(collected), bits(oneShot), "\(stroke)")
            XCTAssertEqual(bits(first.stamps), bits(oneShot), "\(stroke)")
            XCTAssertEqual(bits(second.stamps), bits(oneShot), "\(stroke)")
        }
    }

    func testBirthFramesFollowTheSamples() {
        for seed in propertySeeds(300, salt: 6) {
            let stroke = RandomStroke.make(seed: seed, gentle: seed % 2 == 0)
            let stamps = stroke.stamps()
            let births = stamps.map(birthFrame)
            XCTAssertEqual(births.first, frame(stroke.samples[0].t, fps: stroke.fps), "\(stroke)")
            XCTAssertEqual(births, births.sorted(), "births go back in time; \(stroke)")
            let last = frame(stroke.samples.last!.t, fps: stroke.fps)
            XCTAssertTrue(births.allSatisfy { $0 <= last }, "\(stroke)")
        }
    }

    /// A stroke that only moves right: the samples around a stamp are those either side of its x.
    func testBirthFrameLiesBetweenTheFramesOfTheSamplesAroundIt() {
        for seed in propertySeeds(200, salt: 7) {
            var rng = SplitMix64(seed: seed)
            var x: Float = 10, t = rng.nextUnitDouble()
            var samples: [TouchSample] = []
            for _ in 0..<Int(2 + rng.nextUnitDouble() * 20) {
                samples.append(TouchSample(x: x, y: 50, t: t, pressure: Float(rng.nextUnitDouble())))
                x += Float(1 + rng.nextUnitDouble() * 40)
                t += rng.nextUnitDouble() * 0.2
            }
            let style = StrokeStyle(color: .black, radius: 4)
            for s in StrokeBuilder.stamps(for: samples, style: style, fps: 30, seed: seed, strokeIndex: 0) {
                let after = samples.firstIndex { $0.x >= s.point.x - 1e-3 }!
                let before = samples.lastIndex { $0.x <= s.point.x + 1e-3 }!
                let low = frame(samples[min(before, after)].t, fps: 30)
                let high = frame(samples[max(before, after)].t, fps: 30)
                XCTAssertTrue((low...high).contains(birthFrame(s)),
                              "stamp at x \(s.point.x) born \(birthFrame(s)), samples say \(low)…\(high); seed \(seed)")
            }
        }
    }

    func testDissolveAnglesAreSeededAndInRange() {
        for seed in propertySeeds(50, salt: 8) {
            let stroke = RandomStroke.make(seed: seed, gentle: true)
            let a = stroke.stamps(seed: seed, strokeIndex: 0)
            let b = stroke.stamps(seed: seed, strokeIndex: 1)
            let c = stroke.stamps(seed: seed &+ 1, strokeIndex: 0)
            XCTAssertTrue(a.allSatisfy { (0...Float(2 * Double.pi)).contains($0.point.dissolveAngle) }, "\(stroke)")
            if a.count > 2 {
                XCTAssertNotEqual(a.map(\.point.dissolveAngle), b.map(\.point.dissolveAngle), "\(stroke)")
                XCTAssertNotEqual(a.map(\.point.dissolveAngle), c.map(\.point.dissolveAngle), "\(stroke)")
            }
            // Only the angles depend on the seed.
            XCTAssertEqual(a.map { [$0.point.x, $0.point.y, $0.point.radius, $0.point.age] },
                           b.map { [$0.point.x, $0.point.y, $0.point.radius, $0.point.age] }, "\(stroke)")
        }
    }

    func testArcLengthTableIsAccurate() {
        for seed in propertySeeds(40, salt: 9) {
            var rng = SplitMix64(seed: seed)
            func p() -> SIMD2<Double> { SIMD2(rng.nextUnitDouble() * 200, rng.nextUnitDouble() * 200) }
            let curve = CubicBezier(p(), p(), p(), p())
            let table = ArcLengthTable(curve)
            // Reference: the arc from 0 to t on a polyline 10 times finer than the table's.
            func referenceLength(to t: Double) -> Double {
                let n = 10_000
                var total = 0.0, previous = curve.p0
                for i in 1...n {
                    let q = curve.point(at: t * Double(i) / Double(n))
                    total += distance(previous, q)
                    previous = q
                }
                return total
            }
            let total = referenceLength(to: 1)
            XCTAssertEqual(table.totalLength, total, accuracy: 1e-3, "seed \(seed)")
            for k in 1..<8 {
                let s = total * Double(k) / 8
                // 5e-4 px is 1 % of the smallest step the stamper ever takes.
                XCTAssertEqual(referenceLength(to: table.parameter(atLength: s)), s, accuracy: 5e-4,
                               "seed \(seed), s \(s)")
            }
        }
    }

    private func stepAfter(_ s: Stamp, _ style: StrokeStyle) -> Double {
        max(Double(style.spacing) * 2 * Double(s.point.radius), StrokeStamper.minimumStep)
    }

    private func bits(_ stamps: [Stamp]) -> [[UInt32]] {
        stamps.map { $0.point.fields.map(\.bitPattern) + [$0.rotation.bitPattern] }
    }
}
