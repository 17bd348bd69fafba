import Foundation
import Stipple
@testable import StippleGolden
import StippleTesting
import Testing
import XCTest

/// `assertGolden` from XCTest; goldens in __Goldens__ beside this file.
final class GoldenAssertXCTests: XCTestCase {
    func testAssertGoldenFromXCTest() async throws {
        let stamps = [SketchPoint(x: 20, y: 20, radius: 8, age: 0, dissolveAngle: 0, red: 1, green: 0.3, blue: 0.1, alpha: 1),
                      SketchPoint(x: 40, y: 28, radius: 6, age: 0, dissolveAngle: 0, red: 0.2, green: 0.5, blue: 1, alpha: 0.8)]
        let canvas = Canvas(width: 64, height: 48, background: .color(try XCTUnwrap(Color(hex: "#101014"))))
        let result = await assertGolden(stamps: stamps, brush: .builtin(.hardRound, size: 32), canvas: canvas,
                                        named: "xctest-two-stamps")
        XCTAssertNotNil(result)
        XCTAssertTrue(result?.verdict == .passed || result?.verdict == .recorded, result?.message ?? "")
    }
}

/// `assertGolden` from Swift Testing: a pass, and a mismatch recorded as an issue there.
@Suite(.serialized) struct GoldenAssertSwiftTests {
    static let canvas = Canvas(width: 64, height: 48, background: .color(.transparent))

    static func stamps(x: Float) -> [SketchPoint] {
        [SketchPoint(x: x, y: 24, radius: 10, age: 0, dissolveAngle: 0, red: 0.1, green: 0.9, blue: 0.4, alpha: 1)]
    }

    @Test func assertGoldenFromSwiftTesting() async throws {
        let result = await assertGolden(stamps: Self.stamps(x: 30), canvas: Self.canvas, named: "swift-testing-stamp",
                                        primitive: .quads)
        #expect(result?.isFailure == false)
    }

    @Test func aShiftedStampIsAnIssueWithItsImages() async throws {
        // swift-testing-shifted's golden is a copy of swift-testing-stamp's: x 30, shifted here by 1 px.
        // (Checking swift-testing-stamp a second time would be a duplicate: an error of its own.)
        var result: GoldenCaseResult?
        await withKnownIssue {
            result = await assertGolden(stamps: Self.stamps(x: 31), canvas: Self.canvas, named: "swift-testing-shifted",
                                        primitive: .quads, record: .never)
        }
        #expect(result?.verdict == .failed)
        #expect(result?.diff.map { FileManager.default.fileExists(atPath: $0) } == true)
        #expect(result?.acceptCommand?.contains("STIPPLE_RECORD=failed STIPPLE_RECORD_FILTER='swift-testing-shifted'") == true)
        #expect(result?.acceptCommand?.hasPrefix("cp ") == true)
    }
}
