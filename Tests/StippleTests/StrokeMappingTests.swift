import XCTest
@testable import Stipple

final class StrokeMappingTests: XCTestCase {
    func testPressureMappingDefaults() {
        let m = PressureMapping()
        XCTAssertEqual(m.factors(pressure: nil).radius, 1, "no pressure draws at the base radius")
        XCTAssertEqual(m.factors(pressure: 0).radius, 0.35)
        XCTAssertEqual(m.factors(pressure: 1).radius, 1)
        XCTAssertEqual(m.factors(pressure: 0.5).radius, 0.675, accuracy: 1e-6)
        XCTAssertEqual(m.factors(pressure: 0.3).opacity, 1)
        XCTAssertEqual(m.factors(pressure: 1.4).radius, 1, "pressure is clamped")
    }

    func testMissingPressureCanBeChosen() {
        let m = PressureMapping(missingPressure: 0)
        XCTAssertEqual(m.factors(pressure: nil).radius, 0.35)
    }

    func testSpeedMapping() {
        let m = SpeedMapping()
        XCTAssertEqual(m.radiusFactor(speed: 0), 1)
        XCTAssertEqual(m.radiusFactor(speed: 100), 1)
        XCTAssertEqual(m.radiusFactor(speed: 1050), 0.7, accuracy: 1e-6)
        XCTAssertEqual(m.radiusFactor(speed: 1e9), 0.4)
    }

    func testSplitMix64KnownValues() {
        // Reference values of SplitMix64 seeded with 1234567.
        var rng = SplitMix64(seed: 1234567)
        XCTAssertEqual(rng.next(), 6457827717110365317)
        XCTAssertEqual(rng.next(), 3203168211198807973)
    }
}
