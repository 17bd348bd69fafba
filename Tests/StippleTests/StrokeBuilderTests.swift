import XCTest
@testable import Stipple

final class StrokeBuilderTests: XCTestCase {
    private let style = StrokeStyle(color: Color(red: 1, green: 0.5, blue: 0.25, alpha: 0.8), radius: 6)

    func testSingleTapIsExactlyOneStampAtTheSample() {
        var builder = StrokeBuilder(style: style, fps: 30, seed: 7, strokeIndex: 0)
        let stamps = builder.add(TouchSample(x: 10.25, y: 20.5, t: 0.5))
        XCTAssertEqual(stamps.count, 1)
        XCTAssertEqual(builder.end(), [])
        let p = builder.stamps[0].point
        XCTAssertEqual([p.x, p.y, p.radius, p.age], [10.25, 20.5, 6, -15])
        XCTAssertEqual([p.red, p.green, p.blue, p.alpha], [1, 0.5, 0.25, 0.8])
        XCTAssertEqual(builder.stamps.count, 1)
    }

    func testNoSamplesNoStamps() {
        XCTAssertEqual(StrokeBuilder.stamps(for: [], style: style, fps: 30, seed: 1, strokeIndex: 0), [])
    }

    func testSlowAndFastStrokesGiveTheSameStamps() {
        // The same straight line, drawn with 201 samples and with 5.
        let slow = (0...200).map { TouchSample(x: Float($0), y: 40, t: Double($0) / 200) }
        let fast = stride(from: 0, through: 200, by: 50).map { TouchSample(x: Float($0), y: 40, t: Double($0) / 200) }
        let a = StrokeBuilder.stamps(for: slow, style: style, fps: 30, seed: 3, strokeIndex: 0)
        let b = StrokeBuilder.stamps(for: fast, style: style, fps: 30, seed: 3, strokeIndex: 0)
        XCTAssertEqual(a.count, b.count)
        for (s, f) in zip(a, b) {
            XCTAssertEqual(s.point.x, f.point.x, accuracy: 1e-3)
            XCTAssertEqual(s.point.y, 40)
            XCTAssertEqual(s.point.age, f.point.age)
        }
        // 0.15 × 12 px = 1.8 px apart.
        XCTAssertEqual(a[1].point.x - a[0].point.x, 1.8, accuracy: 1e-4)
        XCTAssertEqual(a.last?.point.x, 200, "the closing stamp sits on the last sample")
    }

    func testEndPlacesAClosingStampOnTheLastSample() {
        var builder = StrokeBuilder(style: style, fps: 30, seed: 7, strokeIndex: 0)
        builder.add(TouchSample(x: 0, y: 0, t: 0))
        let live = builder.add(TouchSample(x: 10, y: 0, t: 0.1))
        XCTAssertEqual(live.last?.point.x ?? 0, 9, accuracy: 1e-4) // 5 steps of 1.8 px
        let closing = builder.end()
        XCTAssertEqual(closing.map(\.point.x), [10])
        XCTAssertEqual(builder.stamps.count, 7)
    }

    func testEndAddsNothingWhenTheLastStampIsOnTheLastSample() {
        var builder = StrokeBuilder(style: style, fps: 30, seed: 7, strokeIndex: 0)
        builder.add(TouchSample(x: 0, y: 0, t: 0))
        // The last stamp lands at 9 px, less than `minimumStep` before the sample.
        builder.add(TouchSample(x: 9.02, y: 0, t: 0.1))
        XCTAssertEqual(builder.stamps.last?.point.x ?? 0, 9, accuracy: 1e-4)
        XCTAssertEqual(builder.end(), [])
    }

    func testRestingSampleAddsNoStampsButChangesPressure() {
        var builder = StrokeBuilder(style: style, fps: 30, seed: 7, strokeIndex: 0)
        builder.add(TouchSample(x: 0, y: 0, t: 0, pressure: 0))
        XCTAssertEqual(builder.add(TouchSample(x: 0, y: 0, t: 0.5, pressure: 1)), [])
        let next = builder.add(TouchSample(x: 30, y: 0, t: 1, pressure: 1))
        // The next segment starts at the resting pressure (full radius) and time.
        XCTAssertEqual(next.first?.point.radius ?? 0, 6, accuracy: 1e-5)
        XCTAssertEqual(next.first?.point.age, -15)
        XCTAssertEqual(builder.stamps[0].point.radius, 6 * 0.35, accuracy: 1e-6)
    }

    func testBirthFrameIsTheFrameOfTheTouchTime() {
        var builder = StrokeBuilder(style: style, fps: 30, seed: 7, strokeIndex: 0)
        // 0.1 s × 30 is 2.9999999999999996 in Double: still frame 3.
        XCTAssertEqual(builder.add(TouchSample(x: 0, y: 0, t: 0.1)).first?.point.age, -3)
        let stamps = builder.add(TouchSample(x: 100, y: 0, t: 1.1))
        // Linear in arc length: the stamp at x = 50 is born at 0.6 s, frame 18.
        let middle = stamps.first { abs($0.point.x - 50.4) < 0.01 }!
        XCTAssertEqual(middle.point.age, -Float((0.1 + 50.4 / 100 * 1.0) * 30).rounded(.down))
        XCTAssertEqual(builder.stamps.first?.point.age.sign, .minus)
    }

    func testFrameZeroStampsHaveAgeZeroNotMinusZero() {
        let stamps = StrokeBuilder.stamps(for: [TouchSample(x: 0, y: 0, t: 0)], style: style, fps: 30, seed: 1, strokeIndex: 0)
        XCTAssertEqual(stamps[0].point.age.bitPattern, Float(0).bitPattern)
    }

    func testDissolveAnglesDependOnSeedAndStrokeIndexOnly() {
        let samples = [TouchSample(x: 0, y: 0, t: 0), TouchSample(x: 50, y: 10, t: 0.2)]
        let a = StrokeBuilder.stamps(for: samples, style: style, fps: 30, seed: 42, strokeIndex: 2)
        let b = StrokeBuilder.stamps(for: samples, style: style, fps: 30, seed: 42, strokeIndex: 2)
        let c = StrokeBuilder.stamps(for: samples, style: style, fps: 60, seed: 42, strokeIndex: 2)
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.map(\.point.dissolveAngle), c.map(\.point.dissolveAngle))
        XCTAssertEqual(Set(a.map(\.point.dissolveAngle)).count, a.count, "angles repeat")
    }

    func testOpacityMultipliesColourAlphaStyleOpacityAndPressure() {
        var s = style
        s.opacity = 0.5
        s.pressure = PressureMapping(radius: 1...1, opacity: 0.2...1.0)
        let stamps = StrokeBuilder.stamps(for: [TouchSample(x: 0, y: 0, t: 0, pressure: 0.5)], style: s,
                                          fps: 30, seed: 1, strokeIndex: 0)
        XCTAssertEqual(stamps[0].point.alpha, 0.8 * 0.5 * 0.6, accuracy: 1e-6)
    }

    func testRotationFollowsTheStroke() {
        var s = style
        s.rotation = .followStroke
        s.smoothing = 0
        let samples = [TouchSample(x: 0, y: 0, t: 0), TouchSample(x: 20, y: 0, t: 0.1),
                       TouchSample(x: 20, y: 20, t: 0.2)]
        let stamps = StrokeBuilder.stamps(for: samples, style: s, fps: 30, seed: 1, strokeIndex: 0)
        XCTAssertEqual(stamps[0].rotation, 0, "the first stamp knows no direction yet")
        let right = stamps.filter { $0.point.y == 0 && $0.point.x > 0 && $0.point.x < 20 }
        let down = stamps.filter { $0.point.x == 20 && $0.point.y > 0 }
        XCTAssertFalse(right.isEmpty); XCTAssertFalse(down.isEmpty)
        XCTAssertTrue(right.allSatisfy { $0.rotation == 0 })
        // y points down on the canvas: going down is +π/2.
        XCTAssertTrue(down.allSatisfy { abs($0.rotation - .pi / 2) < 1e-5 }, "\(down.map(\.rotation))")

        s.rotation = .fixed(0.75)
        XCTAssertTrue(StrokeBuilder.stamps(for: samples, style: s, fps: 30, seed: 1, strokeIndex: 0)
            .allSatisfy { $0.rotation == 0.75 })
    }

    func testPressureInterpolatesRadiusAlongTheSegment() {
        let samples = [TouchSample(x: 0, y: 0, t: 0, pressure: 0), TouchSample(x: 100, y: 0, t: 1, pressure: 1)]
        let stamps = StrokeBuilder.stamps(for: samples, style: style, fps: 30, seed: 1, strokeIndex: 0)
        for s in stamps {
            let expected = 6 * (0.35 + 0.65 * s.point.x / 100)
            XCTAssertEqual(s.point.radius, expected, accuracy: 1e-4)
        }
        XCTAssertEqual(stamps.last?.point.radius, 6)
    }

    func testFastStrokesThinOutWithSpeedMapping() {
        var s = style
        s.speed = SpeedMapping()
        let slow = StrokeBuilder.stamps(for: [TouchSample(x: 0, y: 0, t: 0), TouchSample(x: 100, y: 0, t: 10)],
                                        style: s, fps: 30, seed: 1, strokeIndex: 0)
        let fast = StrokeBuilder.stamps(for: [TouchSample(x: 0, y: 0, t: 0), TouchSample(x: 100, y: 0, t: 0.01)],
                                        style: s, fps: 30, seed: 1, strokeIndex: 0)
        XCTAssertEqual(slow.last?.point.radius, 6)
        XCTAssertEqual(fast.last?.point.radius ?? 0, 6 * 0.4, accuracy: 1e-5)
        XCTAssertGreaterThan(fast.count, slow.count, "thinner stamps sit closer together")
    }
}
