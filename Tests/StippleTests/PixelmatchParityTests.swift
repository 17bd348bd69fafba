import Foundation
import XCTest
@testable import Stipple
@testable import StippleGolden

/// The OKLab metric against pixelmatch 7's own test table: its image pairs, thresholds
/// and expected counts, and its single-pixel cases. The image pairs are pixelmatch's
/// (`test/fixtures/`, ISC licence), read from `../shared/peers/pixelmatch/` beside the
/// package root; the tests that need them are skipped when that folder is absent.
/// pixelmatch's `includeAA: false` (its default) is Stipple's `ignoreAntialiasing`.
final class PixelmatchParityTests: XCTestCase {
    /// pixelmatch's test images, with its LICENSE and COMMIT, outside the package.
    static let imagesFolder = TestSupport.thirdParty("peers/pixelmatch")

    /// The images' folder, or a skip that says where they were looked for.
    private func images() throws -> URL {
        let folder = Self.imagesFolder
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("1a.png").path) else {
            throw XCTSkip("pixelmatch's test images are not at \(folder.standardizedFileURL.path) "
                          + "(put mapbox/pixelmatch's test/fixtures/*.png there to run this test)")
        }
        return folder
    }

    private func image(_ name: String) throws -> Image {
        try PNGFile.read(path: try images().appendingPathComponent("\(name).png").path).image
    }

    private func oklab(_ threshold: Double, window: Int? = nil, antialiasing: Bool = true,
                       checkerboard: Bool? = nil) -> GoldenTolerance {
        GoldenTolerance(perceptualThreshold: threshold, ignoreAntialiasing: antialiasing, metric: .oklab,
                        checkerboard: checkerboard, windowSize: window)
    }

    private func count(_ a: Image, _ b: Image, _ t: GoldenTolerance) -> Int {
        let c = ImageComparison.compare(expected: a, actual: b, tolerance: t)
        return c.pixelsHeldAgainstP
    }

    func testPixelmatchsFixtureTable() throws {
        // (a, b, threshold, pixelmatch's count), from pixelmatch's test/test.js.
        let table: [(String, String, Double, Int)] = [
            ("1a", "1b", 0.05, 154), ("1a", "1b", 0.1, 120), ("1a", "1a", 0, 0), ("2a", "2b", 0.05, 12821),
            ("3a", "3b", 0.05, 220), ("4a", "4b", 0.05, 36563), ("5a", "5b", 0.05, 0), ("6a", "6b", 0.05, 51),
            ("6a", "6a", 0, 0), ("7a", "7b", 0.1, 2440), ("8a", "5b", 0.05, 32896),
        ]
        // Without the images the test skips here, once (a skip thrown inside an assertion's
        // argument would count as an error instead).
        _ = try images()
        for (a, b, threshold, expected) in table {
            let first = try image(a), second = try image(b)
            XCTAssertEqual(count(first, second, oklab(threshold)), expected, "\(a) against \(b) at \(threshold)")
        }
    }

    func testWindowCountsOnTheFixture() throws {
        let a = try image("6a"), b = try image("6b")
        for (window, expected) in [(256, 51), (100_000, 51), (32, 29), (8, 6)] {
            XCTAssertEqual(count(a, b, oklab(0.05, window: window)), expected, "window \(window)")
        }
    }

    private func pixel(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) -> Image {
        Image(width: 1, height: 1, pixels: [r, g, b, a])
    }

    func testToeCorrectionNearBlack() {
        XCTAssertEqual(count(pixel(0, 0, 0), pixel(13, 13, 13), oklab(0.1)), 0)
        XCTAssertEqual(count(pixel(0, 0, 0), pixel(23, 23, 23), oklab(0.1)), 1)
    }

    func testColourPairsYIQScoredAlike() {
        XCTAssertEqual(count(pixel(41, 56, 157), pixel(41, 56, 0), oklab(0.1)), 1, "very different")
        XCTAssertEqual(count(pixel(39, 44, 92), pixel(39, 44, 14), oklab(0.1)), 1, "clearly different")
        XCTAssertEqual(count(pixel(0, 254, 252), pixel(94, 254, 252), oklab(0.1)), 0, "nearly identical")
        XCTAssertEqual(count(pixel(0, 254, 252), pixel(47, 254, 252), oklab(0.1)), 0, "imperceptible")
    }

    func testCheckerboardOrWhite() {
        let half = pixel(0, 0, 0, 128), grey = pixel(127, 127, 127)
        XCTAssertEqual(count(half, grey, oklab(0.1, checkerboard: false)), 0)
        XCTAssertEqual(count(half, grey, oklab(0.1)), 1)
    }

    func testWindowOnABlock() {
        var pixels = [UInt8](repeating: 255, count: 10 * 10 * 4)
        let white = Image(width: 10, height: 10, pixels: pixels)
        for y in 2..<5 { for x in 2..<5 { for c in 0..<3 { pixels[(y * 10 + x) * 4 + c] = 0 } } }
        let block = Image(width: 10, height: 10, pixels: pixels)
        XCTAssertEqual(count(white, block, oklab(0.1, antialiasing: false)), 9)
        XCTAssertEqual(count(white, block, oklab(0.1, window: 3, antialiasing: false)), 9)
        XCTAssertEqual(count(white, block, oklab(0.1, window: 2, antialiasing: false)), 4)
        XCTAssertEqual(count(white, block, oklab(0.1, window: 100, antialiasing: false)), 9)
        XCTAssertEqual(count(white, white, oklab(0.1, window: 3)), 0)
        // P is held against the window's count: 4 in any 2×2 window passes P = 4, not P = 3.
        var t = oklab(0.1, window: 2, antialiasing: false)
        t.maxPixels = 4
        XCTAssertTrue(ImageComparison.compare(expected: white, actual: block, tolerance: t).passes)
        t.maxPixels = 3
        XCTAssertFalse(ImageComparison.compare(expected: white, actual: block, tolerance: t).passes)
    }

    func testCompareCommandPrintsPixelmatchsCountAsJSON() throws {
        let dir = try images().path
        let run = try TestSupport.stipple(["compare", dir + "/6a.png", dir + "/6b.png", "--perceptual", "0.05",
                                       "--metric", "oklab", "--antialiasing", "--window", "32", "--max-pixels", "100", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["differentPixels"] as? Int, 51)
        XCTAssertEqual(object["windowPixels"] as? Int, 29)
        XCTAssertEqual(object["passes"] as? Bool, true)
        XCTAssertGreaterThan(object["antialiasedPixels"] as? Int ?? 0, 0)
    }
}

/// stipple-test.json takes the metric, the checkerboard and the window, strictly.
final class PixelmatchConfigTests: XCTestCase {
    private func load(_ json: String) throws -> GoldenConfig {
        let dir = try TestSupport.temporaryDirectory(self, "pixelmatch-config")
        let path = dir.appendingPathComponent(GoldenConfig.fileName).path
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return try GoldenConfig.load(path: path, scriptNames: [])
    }

    func testTheKeysReachTheTolerance() throws {
        let c = try load(#"{ "tolerance": { "perceptual": 0.05, "metric": "oklab", "checkerboard": false, "window": 16, "maxPixels": 4 } }"#)
        let t = try XCTUnwrap(c.tolerance)
        XCTAssertEqual(t.metric, .oklab)
        XCTAssertEqual(t.checkerboard, false)
        XCTAssertEqual(t.windowSize, 16)
        XCTAssertEqual(t.perceptualThreshold, 0.05)
    }

    func testBadValuesNameTheirPlace() {
        for (json, message) in [
            (#"{ "tolerance": { "perceptual": 0.1, "metric": "lab" } }"#, #"metric is "yiq" (pixelmatch 6) or "oklab""#),
            (#"{ "tolerance": { "metric": "oklab" } }"#, "give \"perceptual\""),
            (#"{ "tolerance": { "maxChannelDiff": 2, "checkerboard": true } }"#, "checkerboard applies to"),
            (#"{ "tolerance": { "window": 0 } }"#, "window (the side of the square"),
        ] {
            XCTAssertThrowsError(try load(json), json) { error in
                XCTAssertTrue("\(error)".contains(message), "\(error)")
                XCTAssertTrue("\(error)".contains("stipple-test.json:1:"), "\(error)")
            }
        }
    }
}
