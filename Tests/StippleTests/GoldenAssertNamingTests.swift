import Foundation
import Stipple
@testable import StippleGolden
@testable import StippleTesting
import Testing

/// Names that never collide: `test.1`, `test.2`, one golden per argument of a parameterized
/// test, and two calls resolving to one golden refused with both call sites named. Goldens
/// go to __Goldens__/GoldenAssertNamingTests/ (recorded on a first run, `never` in CI).
@Suite(.serialized) struct GoldenAssertNamingTests {
    static let canvas = Canvas(width: 32, height: 24, background: .color(.transparent))

    static func dot(_ x: Float, _ g: Float = 0.5) -> [SketchPoint] {
        [SketchPoint(x: x, y: 12, radius: 6, age: 0, dissolveAngle: 0, red: 0.9, green: g, blue: 0.2, alpha: 1)]
    }

    static var goldenFolder: String { GoldenAssertion.goldenDirectory(#filePath) }

    @Test func twoCallsInOneTestGetTwoGoldens() async throws {
        let first = await assertGolden(stamps: Self.dot(10), canvas: Self.canvas)
        let second = await assertGolden(stamps: Self.dot(20), canvas: Self.canvas)
        #expect(first?.name == "twoCallsInOneTestGetTwoGoldens.1")
        #expect(second?.name == "twoCallsInOneTestGetTwoGoldens.2")
        #expect(first?.goldenPath?.hasPrefix(Self.goldenFolder + "/twoCallsInOneTestGetTwoGoldens.1.") == true)
        #expect(Self.goldenFolder.hasSuffix("__Goldens__/GoldenAssertNamingTests"))
        #expect(first?.isFailure == false && second?.isFailure == false)
    }

    @Test(arguments: [8, 16]) func oneGoldenPerArgument(x: Int) async throws {
        let r = await assertGolden(stamps: Self.dot(Float(x)), canvas: Self.canvas)
        #expect(r?.name == "oneGoldenPerArgument-\(x).1")
        #expect(r?.isFailure == false)
    }

    @Test func aDuplicateNameIsAnErrorNamingBothCallsAndWritesNothing() async throws {
        let name = "duplicate-\(UUID().uuidString.prefix(8))"
        let first = await assertGolden(stamps: Self.dot(10), canvas: Self.canvas, named: name, record: .missing)
        #expect(first?.verdict == .recorded)
        let golden = try #require(first?.goldenPath)
        let before = try Data(contentsOf: URL(fileURLWithPath: golden))
        var second: GoldenCaseResult? = .none
        await withKnownIssue {
            second = await assertGolden(stamps: Self.dot(20), canvas: Self.canvas, named: name, record: .all)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("two checks resolve to one golden") && text.contains("GoldenAssertNamingTests.swift:37")
                && text.contains("GoldenAssertNamingTests.swift:43") && text.contains("nothing was written")
        }
        #expect(second == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: golden)) == before, "the first golden is not overwritten")
        try? FileManager.default.removeItem(atPath: golden)
    }

    @Test func recordModes() async throws {
        let name = "modes-\(UUID().uuidString.prefix(8))"
        defer {
            for f in (try? FileManager.default.contentsOfDirectory(atPath: Self.goldenFolder)) ?? [] where f.hasPrefix(name) {
                try? FileManager.default.removeItem(atPath: Self.goldenFolder + "/" + f)
            }
        }
        // never: a missing golden fails and nothing is written.
        var r: GoldenCaseResult? = .none
        await withKnownIssue { r = await assertGolden(stamps: Self.dot(10), canvas: Self.canvas, named: name + "-a", record: .never) }
        #expect(r?.verdict == .missing)
        #expect(!FileManager.default.fileExists(atPath: try #require(r?.goldenPath)))
        // missing: recorded.
        r = await assertGolden(stamps: Self.dot(10), canvas: Self.canvas, named: name + "-b", record: .missing)
        #expect(r?.verdict == .recorded)
        #expect(GoldenAssertion.recordMode(nil, caseName: "x", ["STIPPLE_RECORD": "failed", "STIPPLE_RECORD_FILTER": "y*"]) == .missing)
        #expect(GoldenAssertion.recordMode(nil, caseName: "yes", ["STIPPLE_RECORD": "all", "STIPPLE_RECORD_FILTER": "y*"]) == .all)
        #expect(GoldenAssertion.recordMode(nil, caseName: "x", ["STIPPLE_RECORD": "1"]) == .failed)
        #expect(GoldenAssertion.recordMode(nil, caseName: "x", ["CI": "true"]) == .never)
        #expect(GoldenAssertion.recordMode(.all, caseName: "x", ["CI": "true"]) == .all)
    }
}
