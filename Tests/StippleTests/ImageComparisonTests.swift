import XCTest
@testable import Stipple
@testable import StippleGolden

final class ImageComparisonTests: XCTestCase {
    /// A w×h image of one straight colour (8-bit channels).
    private func solid(_ w: Int, _ h: Int, _ px: (UInt8, UInt8, UInt8, UInt8)) -> Image {
        var bytes = [UInt8](repeating: 0, count: w * h * 4)
        for i in 0..<(w * h) { bytes[i * 4] = px.0; bytes[i * 4 + 1] = px.1; bytes[i * 4 + 2] = px.2; bytes[i * 4 + 3] = px.3 }
        return Image(width: w, height: h, pixels: bytes)
    }

    private func setting(_ image: Image, _ x: Int, _ y: Int, _ px: (UInt8, UInt8, UInt8, UInt8)) -> Image {
        var copy = image
        let i = (y * image.width + x) * 4
        copy.pixels[i] = px.0; copy.pixels[i + 1] = px.1; copy.pixels[i + 2] = px.2; copy.pixels[i + 3] = px.3
        return copy
    }

    private func rgb(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
        let p = image.pixel(x, y)
        return [p.r, p.g, p.b, p.a]
    }

    func testIdenticalImages() {
        let a = solid(7, 5, (10, 200, 30, 128))
        let c = ImageComparison.compare(expected: a, actual: a, maxChannelDifference: 0)
        XCTAssertTrue(c.sizesMatch)
        XCTAssertEqual(c.maxChannelDifference, 0)
        XCTAssertEqual(c.pixelsDiffering, 0)
        XCTAssertEqual(c.pixelsOverTolerance, 0)
        XCTAssertEqual(c.totalPixels, 35)
        XCTAssertEqual(c.tolerance.maxChannelDifference, 0)
        XCTAssertNil(c.worstPixel)
        XCTAssertTrue(c.passes(maxPixels: 0))
        XCTAssertEqual(c.summary, "max channel diff 0, 0 of 35 pixels over 0 (0.000%)")
    }

    func testOneChannelOffByKAndKPlusOne() {
        let k = 8
        let base = solid(10, 4, (100, 100, 100, 255))
        let withinK = setting(base, 3, 2, (100, 100, UInt8(100 + k), 255))
        let c1 = ImageComparison.compare(expected: base, actual: withinK, maxChannelDifference: k)
        XCTAssertEqual(c1.maxChannelDifference, k)
        XCTAssertEqual(c1.pixelsDiffering, 1)
        XCTAssertEqual(c1.pixelsOverTolerance, 0)
        XCTAssertEqual(c1.worstPixel, ImageComparison.Pixel(x: 3, y: 2))
        XCTAssertTrue(c1.passes(maxPixels: 0))

        let overK = setting(base, 3, 2, (100, UInt8(100 - k - 1), 100, 255))
        let c2 = ImageComparison.compare(expected: base, actual: overK, maxChannelDifference: k)
        XCTAssertEqual(c2.maxChannelDifference, k + 1)
        XCTAssertEqual(c2.pixelsDiffering, 1)
        XCTAssertEqual(c2.pixelsOverTolerance, 1)
        XCTAssertFalse(c2.passes(maxPixels: 0))
        XCTAssertTrue(c2.passes(maxPixels: 1))
        XCTAssertEqual(c2.summary, "max channel diff 9 at (3, 2), 1 of 40 pixels over 8 (2.500%)")
    }

    func testWorstPixelIsFirstInRowMajorOrder() {
        let base = solid(5, 5, (0, 0, 0, 255))
        var b = setting(base, 4, 1, (0, 0, 50, 255))
        b = setting(b, 1, 3, (50, 0, 0, 255))
        b = setting(b, 2, 0, (20, 0, 0, 255))
        let c = ImageComparison.compare(expected: base, actual: b, maxChannelDifference: 30)
        XCTAssertEqual(c.worstPixel, ImageComparison.Pixel(x: 4, y: 1))
        XCTAssertEqual(c.pixelsDiffering, 3)
        XCTAssertEqual(c.pixelsOverTolerance, 2)
    }

    func testAlphaDifferenceCounts() {
        let a = solid(2, 2, (255, 255, 255, 255))
        let b = setting(a, 1, 1, (255, 255, 255, 250))
        let c = ImageComparison.compare(expected: a, actual: b, maxChannelDifference: 0)
        XCTAssertEqual(c.maxChannelDifference, 5)
        XCTAssertEqual(c.pixelsOverTolerance, 1)
    }

    /// Nearly transparent pixels with wildly different straight colours are nearly equal.
    func testComparesPremultiplied() {
        let red = solid(3, 3, (255, 0, 0, 1))
        let green = solid(3, 3, (0, 255, 0, 1))
        let c = ImageComparison.compare(expected: red, actual: green, maxChannelDifference: 1)
        XCTAssertEqual(c.maxChannelDifference, 1)  // premultiplied (1,0,0,1) vs (0,1,0,1)
        XCTAssertEqual(c.pixelsOverTolerance, 0)
        XCTAssertTrue(c.passes(maxPixels: 0))
        // Fully transparent pixels compare equal whatever their straight colour.
        let c0 = ImageComparison.compare(expected: solid(2, 2, (9, 99, 199, 0)), actual: solid(2, 2, (0, 0, 0, 0)),
                                         maxChannelDifference: 0)
        XCTAssertEqual(c0.maxChannelDifference, 0)
        // Premultiplied like Image.premultiplied(): the comparison sees exactly those bytes.
        let p = solid(1, 1, (200, 100, 3, 77)), q = solid(1, 1, (201, 100, 3, 77))
        let pp = p.premultiplied(), qp = q.premultiplied()
        let expectedDiff = zip(pp, qp).map { abs(Int($0) - Int($1)) }.max()!
        XCTAssertEqual(ImageComparison.compare(expected: p, actual: q, maxChannelDifference: 0).maxChannelDifference,
                       expectedDiff)
    }

    func testSizeMismatchIsAClearVerdict() {
        let a = solid(320, 568, (1, 2, 3, 255))
        let b = solid(320, 567, (1, 2, 3, 255))
        let c = ImageComparison.compare(expected: a, actual: b, maxChannelDifference: 255)
        XCTAssertFalse(c.sizesMatch)
        XCTAssertFalse(c.passes(maxPixels: Int.max))
        XCTAssertEqual(c.expectedSize, ImageComparison.Size(width: 320, height: 568))
        XCTAssertEqual(c.actualSize, ImageComparison.Size(width: 320, height: 567))
        XCTAssertEqual(c.summary, "sizes differ: expected 320×568, actual 320×567")
        // The missing row counts as over any tolerance; the overlap is identical.
        XCTAssertEqual(c.totalPixels, 320 * 568)
        XCTAssertEqual(c.pixelsOverTolerance, 320)
        XCTAssertEqual(c.maxChannelDifference, 255)
        XCTAssertEqual(c.worstPixel, ImageComparison.Pixel(x: 0, y: 567))

        // Wider and shorter: the union is 4×3, the first missing pixel is (3, 0).
        let d = ImageComparison.compare(expected: solid(3, 3, (0, 0, 0, 255)), actual: solid(4, 2, (0, 0, 0, 255)),
                                        maxChannelDifference: 0)
        XCTAssertEqual(d.totalPixels, 12)
        XCTAssertEqual(d.pixelsOverTolerance, 12 - 6)
        XCTAssertEqual(d.worstPixel, ImageComparison.Pixel(x: 3, y: 0))

        // Empty images do not crash either.
        let e = ImageComparison.compare(expected: Image(width: 0, height: 0, pixels: []), actual: solid(1, 1, (0, 0, 0, 0)),
                                        maxChannelDifference: 0)
        XCTAssertFalse(e.passes(maxPixels: 10))
    }

    func testDiffImageColours() {
        let k = 4
        let expected = solid(4, 2, (0, 0, 0, 255))
        var actual = setting(expected, 0, 0, (0, 0, UInt8(k), 255))       // within K: yellow
        actual = setting(actual, 1, 0, (UInt8(k + 1), 0, 0, 255))         // over K: red
        let diff = DiffImage.make(expected: expected, actual: actual, maxChannelDifference: k)
        XCTAssertEqual(diff.width, 4); XCTAssertEqual(diff.height, 2)
        XCTAssertEqual(rgb(diff, 0, 0), [255, 200, 0, 255])
        XCTAssertEqual(rgb(diff, 1, 0), [255, 0, 0, 255])
        // Opaque black faded to 10% contrast: 255 - round(25.5) = 229.
        XCTAssertEqual(rgb(diff, 2, 0), [229, 229, 229, 255])

        // White and transparent both fade to white; mid grey to 255 - round(12.7) = 242.
        let bg = Image(width: 3, height: 1, pixels: [255, 255, 255, 255, 0, 0, 0, 0, 128, 128, 128, 255])
        let same = DiffImage.make(expected: bg, actual: bg, maxChannelDifference: 0)
        XCTAssertEqual(same.pixels, [255, 255, 255, 255, 255, 255, 255, 255, 242, 242, 242, 255])
    }

    func testDiffImageOfDifferentSizesIsTheUnionWithMagenta() {
        let a = solid(3, 2, (255, 255, 255, 255))
        let b = solid(2, 3, (255, 255, 255, 255))
        let diff = DiffImage.make(expected: a, actual: b, maxChannelDifference: 0)
        XCTAssertEqual(diff.width, 3); XCTAssertEqual(diff.height, 3)
        for y in 0..<3 {
            for x in 0..<3 {
                let inBoth = x < 2 && y < 2
                XCTAssertEqual(rgb(diff, x, y), inBoth ? [255, 255, 255, 255] : [255, 0, 255, 255], "(\(x), \(y))")
            }
        }
    }

    func testLargeImageIsFast() {
        // Debug builds are far slower than release; this only guards against pathologies.
        let w = 1920, h = 1080
        var px = [UInt8](repeating: 0, count: w * h * 4)
        for i in 0..<px.count { px[i] = i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: i &* 31 &+ i >> 7) }
        let a = Image(width: w, height: h, pixels: px)
        px[12345] &+= 9  // a colour channel of an opaque pixel
        let b = Image(width: w, height: h, pixels: px)
        let start = ContinuousClock.now
        let c = ImageComparison.compare(expected: a, actual: b, maxChannelDifference: 2)
        let d = DiffImage.make(expected: a, actual: b, maxChannelDifference: 2)
        let elapsed = ContinuousClock.now - start
        XCTAssertEqual(c.pixelsDiffering, 1)
        XCTAssertEqual(d.width, w)
        XCTAssertLessThan(elapsed, .seconds(5))
    }
}
