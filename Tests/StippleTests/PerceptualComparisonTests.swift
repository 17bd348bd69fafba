import Foundation
import XCTest
@testable import Stipple
@testable import StippleGolden

final class PerceptualComparisonTests: XCTestCase {
    typealias RGBA = (UInt8, UInt8, UInt8, UInt8)
    static let black: RGBA = (0, 0, 0, 255), white: RGBA = (255, 255, 255, 255), grey: RGBA = (128, 128, 128, 255)

    private func image(_ w: Int, _ h: Int, _ colour: (Int, Int) -> RGBA) -> Image {
        var px = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let c = colour(x, y), i = (y * w + x) * 4
                px[i] = c.0; px[i + 1] = c.1; px[i + 2] = c.2; px[i + 3] = c.3
            }
        }
        return Image(width: w, height: h, pixels: px)
    }

    private func rgb(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
        let p = image.pixel(x, y)
        return [p.r, p.g, p.b]
    }

    /// Black left of column `edge`, one grey (anti-aliased) column at `edge`, white after.
    private func softEdge(at edge: Int) -> Image {
        image(20, 12) { x, _ in x < edge ? Self.black : x == edge ? Self.grey : Self.white }
    }

    // MARK: YIQ distance

    func testYIQDeltaAgainstHandComputedValues() {
        // Black/white: Y differs by 255 (the Y weights sum to 1), I and Q weights sum to 0,
        // so 0.5053 × 255² = 32857.13.
        XCTAssertEqual(PerceptualDifference.delta((0, 0, 0, 255), (255, 255, 255, 255)), 32857.13, accuracy: 0.01)
        // Red/black: y = 255·0.29889531 = 76.218, i = 255·0.59597799 = 151.974, q = 255·0.21147017 = 53.925;
        // 0.5053·76.218² + 0.299·151.974² + 0.1957·53.925² = 2935.40 + 6905.77 + 569.07.
        XCTAssertEqual(PerceptualDifference.delta((255, 0, 0, 255), (0, 0, 0, 255)), 10410.25, accuracy: 0.01)
        // Half-transparent black over white is 127 grey: 0.5053 × 128² = 8278.84.
        XCTAssertEqual(PerceptualDifference.delta((0, 0, 0, 128), (255, 255, 255, 255)), 8278.84, accuracy: 0.01)
        // Transparent is white once composited, whatever its straight colour (premultiplied).
        XCTAssertEqual(PerceptualDifference.delta((0, 0, 0, 0), (255, 255, 255, 255)), 0)
        XCTAssertEqual(PerceptualDifference.delta((255, 0, 0, 0), (0, 255, 0, 0)), 0)
        XCTAssertEqual(PerceptualDifference.delta((10, 20, 30, 255), (10, 20, 30, 255)), 0)
        // Symmetric.
        XCTAssertEqual(PerceptualDifference.delta((0, 0, 255, 255), (255, 0, 0, 255)),
                       PerceptualDifference.delta((255, 0, 0, 255), (0, 0, 255, 255)))
        XCTAssertEqual(PerceptualDifference.brightness((255, 255, 255, 255)), 255, accuracy: 0.001)
    }

    func testThresholdIsSquaredShareOfMaxDelta() {
        XCTAssertEqual(PerceptualDifference.deltaLimit(threshold: 0.1), 352.15, accuracy: 1e-9)
        // Black against white: 32857 is over 0.9² × 35215 = 28524, under 0.97² × 35215 = 33134.
        let a = image(1, 1) { _, _ in Self.black }, b = image(1, 1) { _, _ in Self.white }
        XCTAssertFalse(ImageComparison.compare(expected: a, actual: b, tolerance: .init(perceptualThreshold: 0.9)).passes)
        XCTAssertTrue(ImageComparison.compare(expected: a, actual: b, tolerance: .init(perceptualThreshold: 0.97)).passes)
    }

    func testSmallShadeChangePassesPerceptuallyNotExactly() {
        let a = image(8, 8) { _, _ in (200, 200, 200, 255) }
        let b = image(8, 8) { x, y in x == 3 && y == 3 ? (203, 200, 200, 255) : (200, 200, 200, 255) }
        let p = ImageComparison.compare(expected: a, actual: b, tolerance: .init(perceptualThreshold: 0.1))
        XCTAssertTrue(p.passes, p.summary)
        XCTAssertEqual(p.pixelsDiffering, 1)
        XCTAssertEqual(p.maxChannelDifference, 3)
        XCTAssertTrue(p.summary.contains("over perceptual 0.1"), p.summary)
        XCTAssertFalse(ImageComparison.compare(expected: a, actual: b, tolerance: .exact).passes)
    }

    // MARK: Anti-aliasing

    func testOnePixelAntialiasedEdgeShiftIsForgivenOnlyWithAAOn() {
        let expected = softEdge(at: 10), actual = softEdge(at: 11)
        for base in [GoldenTolerance(maxChannelDifference: 8), GoldenTolerance(perceptualThreshold: 0.1)] {
            let strict = ImageComparison.compare(expected: expected, actual: actual, tolerance: base)
            XCTAssertFalse(strict.passes)
            XCTAssertEqual(strict.pixelsOverTolerance, 24, strict.summary)  // columns 10 and 11
            XCTAssertEqual(strict.pixelsAntialiased, 0)

            var aa = base; aa.ignoreAntialiasing = true
            let lenient = ImageComparison.compare(expected: expected, actual: actual, tolerance: aa)
            XCTAssertTrue(lenient.passes, lenient.summary)
            XCTAssertEqual(lenient.pixelsOverTolerance, 0)
            XCTAssertEqual(lenient.pixelsAntialiased, 24)
            XCTAssertEqual(ComparisonFigures(lenient).pixelsAntialiased, 24)
            XCTAssertTrue(lenient.summary.contains("24 anti-aliased forgiven"), lenient.summary)

            // The diff marks forgiven pixels yellow, pixelmatch's colour.
            let diff = ImageComparison.diffImage(expected: expected, actual: actual, tolerance: aa)
            XCTAssertEqual(rgb(diff, 10, 5), [255, 255, 0])
            XCTAssertEqual(rgb(diff, 11, 5), [255, 255, 0])
        }
    }

    func testHardEdgeShiftIsNotAntialiasing() {
        // No grey column: a 1 px shift of a hard edge is a real change, AA or not.
        let a = image(20, 12) { x, _ in x < 10 ? Self.black : Self.white }
        let b = image(20, 12) { x, _ in x < 11 ? Self.black : Self.white }
        let c = ImageComparison.compare(expected: a, actual: b,
                                         tolerance: .init(maxChannelDifference: 8, ignoreAntialiasing: true))
        XCTAssertFalse(c.passes)
        XCTAssertEqual(c.pixelsOverTolerance, 12)
        XCTAssertEqual(c.pixelsAntialiased, 0)
    }

    func testRealColourChangeIsCaughtWithAAOn() {
        let a = image(16, 16) { _, _ in (200, 30, 30, 255) }
        let b = image(16, 16) { x, y in (4..<8).contains(x) && (4..<8).contains(y) ? (30, 30, 200, 255) : (200, 30, 30, 255) }
        for tolerance in [GoldenTolerance(maxChannelDifference: 8, ignoreAntialiasing: true),
                          GoldenTolerance(perceptualThreshold: 0.1, ignoreAntialiasing: true)] {
            let (c, diff) = ImageComparison.compareWithDiff(expected: a, actual: b, tolerance: tolerance)
            XCTAssertFalse(c.passes)
            XCTAssertEqual(c.pixelsOverTolerance, 16, c.summary)
            XCTAssertEqual(c.pixelsAntialiased, 0)
            XCTAssertEqual(rgb(diff, 5, 5), [255, 0, 0])
            XCTAssertEqual(ComparisonFigures(c).pixelsOverTolerance, 16)
        }
    }

    // MARK: Ignored regions and masks

    func testRegionsAndMaskAreIgnored() {
        let a = image(16, 16) { _, _ in Self.white }
        let b = image(16, 16) { x, y in (4..<8).contains(x) && (4..<8).contains(y) ? Self.black : Self.white }
        for perceptual in [nil, 0.1] {
            let region = GoldenTolerance(perceptualThreshold: perceptual, ignoreRegions: [.init(x: 3, y: 3, width: 6, height: 6)])
            let r = ImageComparison.compare(expected: a, actual: b, tolerance: region)
            XCTAssertTrue(r.passes, r.summary)
            XCTAssertEqual(r.pixelsIgnored, 36)
            XCTAssertEqual(r.pixelsDiffering, 0)

            // White compares, black ignores; transparent ignores too.
            for hole in [Self.black, (255, 255, 255, 0)] as [RGBA] {
                let mask = image(16, 16) { x, y in (4..<8).contains(x) && (4..<8).contains(y) ? hole : Self.white }
                let m = ImageComparison.compare(expected: a, actual: b, tolerance: .init(perceptualThreshold: perceptual), mask: mask)
                XCTAssertTrue(m.passes, m.summary)
                XCTAssertEqual(m.pixelsIgnored, 16)
                XCTAssertEqual(ComparisonFigures(m).pixelsIgnored, 16)
            }
            // A mask that leaves the change uncovered does not hide it.
            let elsewhere = image(16, 16) { x, _ in x > 12 ? Self.black : Self.white }
            XCTAssertFalse(ImageComparison.compare(expected: a, actual: b, tolerance: .init(perceptualThreshold: perceptual),
                                                    mask: elsewhere).passes)
        }
        // The diff image hatches ignored pixels blue.
        let diff = ImageComparison.diffImage(expected: a, actual: b,
                                              tolerance: .init(ignoreRegions: [.init(x: 3, y: 3, width: 6, height: 6)]))
        let blues: Set<[UInt8]> = [[96, 128, 230], [200, 214, 255]]
        XCTAssertTrue(blues.contains(rgb(diff, 5, 5)))
        XCTAssertTrue(blues.contains(rgb(diff, 5, 6)))
        XCTAssertEqual(rgb(diff, 0, 0), [255, 255, 255])
    }

    func testMaskLoadsFromToleranceAndSizesDifferingStillFail() throws {
        let dir = try TestSupport.temporaryDirectory(self, "mask")
        let mask = image(4, 4) { x, _ in x < 2 ? Self.black : Self.white }
        try PNGFile.write(mask, to: dir.appendingPathComponent("m.png").path)
        let t = GoldenTolerance(maskPath: "m.png")
        XCTAssertEqual(try t.loadMask(relativeTo: dir.path), mask)
        XCTAssertNil(try GoldenTolerance().loadMask(relativeTo: dir.path))
        XCTAssertThrowsError(try GoldenTolerance(maskPath: "nope.png").loadMask(relativeTo: dir.path))
        XCTAssertTrue(t.summary.contains("mask m.png"))

        let small = image(4, 4) { _, _ in Self.white }, big = image(5, 4) { _, _ in Self.white }
        let c = ImageComparison.compare(expected: small, actual: big,
                                         tolerance: .init(perceptualThreshold: 0.1, ignoreAntialiasing: true), mask: mask)
        XCTAssertFalse(c.passes)
        XCTAssertTrue(c.summary.contains("sizes differ"), c.summary)
    }

    func testFiguresDecodeWithoutNewCounts() throws {
        let json = """
        {"expectedWidth":1,"expectedHeight":1,"actualWidth":1,"actualHeight":1,"maxChannelDifference":0,
         "pixelsDiffering":0,"pixelsOverTolerance":0,"pixelsAllowed":0,"totalPixels":1,"summary":"s"}
        """
        let f = try JSONDecoder().decode(ComparisonFigures.self, from: Data(json.utf8))
        XCTAssertEqual(f.pixelsAntialiased, 0)
        XCTAssertEqual(f.pixelsIgnored, 0)
        let t = try JSONDecoder().decode(GoldenTolerance.self, from: JSONEncoder().encode(GoldenTolerance(maskPath: "m.png")))
        XCTAssertEqual(t.maskPath, "m.png")
    }

    func testLargePerceptualComparisonIsFast() {
        // 1280×720 with a noisy picture and many differing pixels; debug builds are slow, this
        // only guards against pathologies (release timing is in the helper's note).
        let w = 1280, h = 720
        var px = [UInt8](repeating: 255, count: w * h * 4)
        for i in 0..<px.count where i % 4 != 3 { px[i] = UInt8(truncatingIfNeeded: (i / 4 % w) / 8 * 37 + (i / 4 / w) / 8 * 11) }
        let a = Image(width: w, height: h, pixels: px)
        for i in stride(from: 0, to: px.count, by: 4 * 97) { px[i] &+= 60 }
        let b = Image(width: w, height: h, pixels: px)
        let start = ContinuousClock.now
        let (c, d) = ImageComparison.compareWithDiff(expected: a, actual: b,
                                                      tolerance: .init(perceptualThreshold: 0.1, ignoreAntialiasing: true))
        let elapsed = ContinuousClock.now - start
        XCTAssertGreaterThan(c.pixelsDiffering, 9000)
        XCTAssertEqual(d.width, w)
        XCTAssertLessThan(elapsed, .seconds(5))
    }
}
