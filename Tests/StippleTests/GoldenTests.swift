import XCTest
@testable import Stipple
@testable import StippleGolden

/// Every fixture script (Fixtures/scripts/*.json) against its golden image, and the
/// determinism docs/reference.md §7 promises: the same script on the same driver gives the same bytes,
/// run after run, in any renderer, on any thread.
///
/// Goldens are recorded on llvmpipe with point sprites (`make goldens`):
/// Fixtures/golden/NAME.llvmpipe.points.png. On llvmpipe the check is bit-identical,
/// K = 0 and P = 0: docs/reference.md §7 allows a tolerance across drivers, never within one, and
/// llvmpipe is deterministic (also across thread counts: docs/golden-comparison.md). On any other
/// driver there is no golden to compare with, and the golden check is skipped.
///
/// A failure leaves expected.png, actual.png and diff.png in .build/golden-failures/NAME/.
final class GoldenTests: XCTestCase {
    /// Bit-identical on the driver the goldens were made with.
    static let k = 0
    static let maxPixels = 0

    /// The project's own goldens go through `stipple test`'s runner (GoldenSuite, GoldenRunner),
    /// as CI would run them: a missing golden fails instead of being recorded.
    func testFixturesMatchTheirGoldens() async throws {
        let renderer = try Renderer()
        let driver = GoldenFixtures.driverName(renderer.info.glRenderer)
        try XCTSkipUnless(driver == "llvmpipe",
                          "no goldens exist for the driver \"\(renderer.info.glRenderer)\": they are recorded on llvmpipe")
        let suite = try GoldenSuite.discover(directory: GoldenFixtures.scriptsFolder.path)
        let output = GoldenFixtures.failuresFolder.path
        let runner = GoldenRunner(options: .init(goldenDirectory: GoldenFixtures.goldenFolder.path, outputDirectory: output,
                                                 jobs: 2, record: .never, keepDiffs: false, isCI: true))
        let report = try await runner.run(suite.cases)
        XCTAssertGreaterThanOrEqual(report.cases.count, 20)
        let failures = report.cases.filter { $0.verdict != .passed }.map { c in
            "\(c.name): \(c.verdict.rawValue): \(c.message)"
                + [c.golden, c.actual, c.diff].compactMap { $0 }.map { "\n    \($0)" }.joined()
        }
        XCTAssert(failures.isEmpty, "golden mismatches (llvmpipe, points, K = 0, P = 0):\n" + failures.joined(separator: "\n"))
    }

    /// Every golden belongs to a fixture: a renamed script must not leave a stale golden behind.
    func testEveryGoldenHasAScript() throws {
        let names = Set(try GoldenFixtures.all().map(\.name))
        let goldens = try FileManager.default.contentsOfDirectory(atPath: GoldenFixtures.goldenFolder.path)
            .filter { $0.hasSuffix(".png") }
        for file in goldens {
            let name = String(file.prefix { $0 != "." && $0 != "@" })
            XCTAssert(names.contains(name), "golden \(file) has no script Fixtures/scripts/\(name).json")
        }
    }

    /// The same renderer, twice in a row: the same bytes (state left by one frame must not
    /// leak into the next).
    func testFixturesRenderIdenticallyTwiceOnOneRenderer() async throws {
        let renderer = try Renderer()
        for primitive in Primitive.allCases {
            for fixture in try GoldenFixtures.all() {
                let first = try await GoldenFixtures.render(fixture, on: renderer, primitive: primitive)
                let second = try await GoldenFixtures.render(fixture, on: renderer, primitive: primitive)
                if first.pixels != second.pixels {
                    let result = ImageComparison.compare(expected: first, actual: second, maxChannelDifference: 0)
                    XCTFail(GoldenFixtures.keepFailure(
                        "\(fixture.name)-repeat-\(primitive)", expected: first, actual: second, result: result,
                        k: 0, allowed: 0, what: "second render on one renderer differs from the first"))
                }
            }
        }
    }

    /// Two renderers drawing at the same time on their own threads and contexts: the same
    /// bytes as each other and as one renderer alone.
    func testFixturesRenderIdenticallyOnTwoRenderersAtOnce() async throws {
        let alone = try Renderer()
        let a = try Renderer(), b = try Renderer()
        for fixture in try GoldenFixtures.all() {
            let reference = try await GoldenFixtures.render(fixture, on: alone)
            async let first = GoldenFixtures.render(fixture, on: a)
            async let second = GoldenFixtures.render(fixture, on: b)
            let (x, y) = try await (first, second)
            for (label, image) in [("renderer A", x), ("renderer B", y)] where image.pixels != reference.pixels {
                let result = ImageComparison.compare(expected: reference, actual: image, maxChannelDifference: 0)
                XCTFail(GoldenFixtures.keepFailure(
                    "\(fixture.name)-concurrent", expected: reference, actual: image, result: result, k: 0,
                    allowed: 0, what: "\(label), rendering concurrently, differs from a renderer alone"))
            }
        }
    }
}
