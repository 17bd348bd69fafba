import XCTest
@testable import Stipple

/// The one-pass extent of a batch's stamps (`StampExtent`, C's `stp_stamp_extent_of`)
/// against the stamp-by-stamp definitions it replaces: `StampBounds.add` for the bounds,
/// and every stamp's own age for "all live". Values include NaN, both infinities and both
/// zeros, in arrays of every length up to past the four-stamp unrolled loop's remainder.
final class StampExtentTests: XCTestCase {
    private static let pool: [Float] = [.nan, .infinity, -.infinity, 0, -0.0, 1, -1, 0.5, 9.5, 10, 109.99, 110, 300,
                                        -300, .leastNonzeroMagnitude, .greatestFiniteMagnitude]

    private func randomStamps(_ n: Int, _ rng: inout SystemRandomNumberGenerator) -> [SketchPoint] {
        func value() -> Float {
            Bool.random(using: &rng) ? Self.pool.randomElement(using: &rng)! : Float.random(in: -50...500, using: &rng)
        }
        return (0..<n).map { _ in
            SketchPoint(x: value(), y: value(), radius: value(), age: value(), dissolveAngle: .nan,
                        red: 1, green: 1, blue: 1, alpha: 1)
        }
    }

    /// Equal as the planner compares them (either zero stands for the other).
    private func same(_ a: Float, _ b: Float) -> Bool { a == b || (a.isNaN && b.isNaN) }

    func testExtentMatchesTheStampByStampBounds() {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<4000 {
            let stamps = randomStamps(round % 41, &rng)
            var expected = StampBounds()
            for p in stamps { expected.add(p) }
            let ages = stamps.map(\.age).filter { !$0.isNaN }
            let e = stamps.withUnsafeBufferPointer { StampExtent($0) }
            let got = e.bounds
            let message = "\(stamps.map { ($0.x, $0.y, $0.radius, $0.age) })"
            XCTAssertTrue(same(got.minX, expected.minX) && same(got.maxX, expected.maxX), message)
            XCTAssertTrue(same(got.minY, expected.minY) && same(got.maxY, expected.maxY), message)
            XCTAssertTrue(same(got.maxRadius, expected.maxRadius), message)
            XCTAssertEqual(got.isEmpty, expected.isEmpty, message)
            XCTAssertEqual(e.nanAge, stamps.contains { $0.age.isNaN }, message)
            XCTAssertTrue(same(e.minAge, ages.min() ?? .infinity) && same(e.maxAge, ages.max() ?? -.infinity), message)
            XCTAssertEqual(e.count, stamps.count)
            if round > 200 && testRun?.failureCount ?? 0 > 0 { return }
        }
    }

    func testAllLiveAgreesWithEveryStampsOwnAge() {
        var rng = SystemRandomNumberGenerator()
        let offsets: [Float] = [0, -1, 0.5, 9.5, 100, 109.99, 200, -.infinity, .infinity, .nan]
        for round in 0..<3000 {
            // Mostly plain ages, so that "all live" is often true.
            var stamps = randomStamps(round % 37, &rng)
            if round % 3 != 0 { for i in stamps.indices { stamps[i].age = Float.random(in: 0..<120, using: &rng) } }
            let e = stamps.withUnsafeBufferPointer { StampExtent($0) }
            for maxAge: Float in [0, 10, 110] {
                let effects = AgeEffects(maxAge: maxAge, dissolveDistance: 6, pointScale: 1)
                for offset in offsets {
                    let expected = stamps.allSatisfy { effects.isLive(age: $0.age + offset) }
                    XCTAssertEqual(LiveStamps.allLive(e, offset: offset, effects: effects), expected,
                                   "M \(maxAge), offset \(offset), ages \(stamps.map(\.age))")
                }
            }
            if round > 200 && testRun?.failureCount ?? 0 > 0 { return }
        }
    }
}
