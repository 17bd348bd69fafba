import XCTest
@testable import Stipple

final class StrokeSmootherTests: XCTestCase {
    private let zigzag: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(40, 10), SIMD2(60, 50), SIMD2(20, 70), SIMD2(25, 71)]

    func testCurvePassesExactlyThroughEverySampleAtOnce() {
        var smoother = CurveSmoother(smoothing: 0.7)
        XCTAssertNil(smoother.add(zigzag[0]))
        for (previous, p) in zip(zigzag, zigzag.dropFirst()) {
            let segment = smoother.add(p)!
            XCTAssertEqual(segment.p0, previous)
            XCTAssertEqual(segment.p3, p, "the newest segment reaches the newest sample")
            XCTAssertEqual(segment.point(at: 1), p)
        }
    }

    func testJointsAreTangentContinuous() {
        let segments = CurveSmoother.segments(through: zigzag, smoothing: 0.5)
        for (a, b) in zip(segments, segments.dropFirst()) {
            let incoming = a.direction(at: 1), outgoing = b.direction(at: 0)
            XCTAssertEqual(incoming.x, outgoing.x, accuracy: 1e-9)
            XCTAssertEqual(incoming.y, outgoing.y, accuracy: 1e-9)
        }
    }

    func testSmoothingZeroGivesStraightSegments() {
        for segment in CurveSmoother.segments(through: zigzag, smoothing: 0) {
            XCTAssertEqual(segment.p1, segment.p0)
            XCTAssertEqual(segment.p2, segment.p3)
        }
    }

    func testControlPointsFollowShemanarevsLengths() {
        // A right angle with equal legs: B − M has length L·√2/4.
        let segments = CurveSmoother.segments(through: [SIMD2(0, 0), SIMD2(100, 0), SIMD2(100, 100)], smoothing: 1)
        XCTAssertEqual(segments[0].p1, SIMD2(50, 0))       // k·L/2 along the chord
        XCTAssertEqual(segments[0].p2, SIMD2(50, 0))
        XCTAssertEqual(segments[1].p1.x, 100 + 100 * 2.squareRoot() / 4, accuracy: 1e-9)
        XCTAssertEqual(segments[1].p1.y, 0, accuracy: 1e-9) // along the committed tangent
        XCTAssertEqual(segments[1].p2, SIMD2(100, 50))
    }

    func testReversalBecomesACuspNotALoop() {
        let segments = CurveSmoother.segments(through: [SIMD2(0, 0), SIMD2(50, 0), SIMD2(0, 0)], smoothing: 1)
        XCTAssertEqual(segments[1].p1, segments[1].p0)
    }

    func testRestingSamplesAddNoSegment() {
        var smoother = CurveSmoother(smoothing: 0.5)
        _ = smoother.add(SIMD2(1, 1))
        XCTAssertNil(smoother.add(SIMD2(1, 1)))
        XCTAssertNil(smoother.add(SIMD2(1.0005, 1)))
        XCTAssertNotNil(smoother.add(SIMD2(5, 1)))
    }
}
