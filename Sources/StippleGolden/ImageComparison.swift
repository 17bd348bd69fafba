import Stipple
/// Compares two images the way golden checks need (SPEC §7): premultiplied, with a
/// tolerance given as the largest per-channel difference K and a pixel budget.
///
/// Premultiplied, because the straight colour of a nearly transparent pixel is noise:
/// (255, 0, 0, 1) and (0, 255, 0, 1) are both "almost nothing" and compare within 1.
///
/// When the sizes differ the verdict is always "fail" (`passes` is false), and the
/// statistics describe the union of the two rectangles, both anchored at the top-left:
/// the overlap is compared pixel by pixel, and every pixel that exists in only one image
/// counts as differing by 255 and as over any tolerance.
public struct ImageComparison: Sendable, Equatable {
    public struct Size: Sendable, Equatable, Hashable, CustomStringConvertible {
        public var width: Int
        public var height: Int
        public init(width: Int, height: Int) { self.width = width; self.height = height }
        public var pixelCount: Int { width * height }
        public var description: String { "\(width)×\(height)" }
    }

    public struct Pixel: Sendable, Equatable, Hashable, CustomStringConvertible {
        public var x: Int
        public var y: Int
        public init(x: Int, y: Int) { self.x = x; self.y = y }
        public var description: String { "(\(x), \(y))" }
    }

    public let expectedSize: Size
    public let actualSize: Size
    public var sizesMatch: Bool { expectedSize == actualSize }
    /// Largest |premultiplied channel difference| over all pixels and channels, 0...255.
    public let maxChannelDifference: Int
    /// Pixels with any channel difference > 0.
    public let pixelsDiffering: Int
    /// Pixels with any channel difference > `tolerance`.
    public let pixelsOverTolerance: Int
    /// The K the comparison was made with.
    public let tolerance: Int
    /// Pixels compared: the image's area, or the union's when the sizes differ.
    public let totalPixels: Int
    /// The first pixel (row-major) with the largest difference; nil when none differ.
    public let worstPixel: Pixel?

    public init(expectedSize: Size, actualSize: Size, maxChannelDifference: Int, pixelsDiffering: Int,
                pixelsOverTolerance: Int, tolerance: Int, totalPixels: Int, worstPixel: Pixel?) {
        self.expectedSize = expectedSize; self.actualSize = actualSize
        self.maxChannelDifference = maxChannelDifference
        self.pixelsDiffering = pixelsDiffering; self.pixelsOverTolerance = pixelsOverTolerance
        self.tolerance = tolerance; self.totalPixels = totalPixels; self.worstPixel = worstPixel
    }

    /// Compares `actual` against `expected` with per-channel tolerance `k` (0 means exact).
    public static func compare(expected: Image, actual: Image, maxChannelDifference k: Int) -> ImageComparison {
        precondition(k >= 0, "ImageComparison: a tolerance cannot be negative")
        let es = Size(width: expected.width, height: expected.height)
        let as_ = Size(width: actual.width, height: actual.height)
        let uw = max(es.width, as_.width), uh = max(es.height, as_.height)
        let ow = min(es.width, as_.width), oh = min(es.height, as_.height)

        var maxDiff = 0, differing = 0, over = 0
        var worst: Pixel?
        PixelDifference.forEachOverlapRow(expected, actual, width: ow, height: oh) { y, row in
            for x in 0..<ow {
                let d = Int(row[x])
                guard d > 0 else { continue }
                differing += 1
                if d > k { over += 1 }
                if d > maxDiff { maxDiff = d; worst = Pixel(x: x, y: y) }
            }
        }
        // Pixels present in one image only: maximally different, over any tolerance.
        let missing = uw * uh - ow * oh
        if missing > 0 {
            differing += missing; over += missing
            // The first missing pixel in row-major order of the union.
            let firstMissing = ow < uw && oh > 0 ? Pixel(x: ow, y: 0) : Pixel(x: 0, y: oh)
            if maxDiff < 255 {
                maxDiff = 255; worst = firstMissing
            } else if let w = worst, firstMissing.y * uw + firstMissing.x < w.y * uw + w.x {
                worst = firstMissing
            }
        }
        return ImageComparison(expectedSize: es, actualSize: as_, maxChannelDifference: maxDiff,
                               pixelsDiffering: differing, pixelsOverTolerance: over, tolerance: k,
                               totalPixels: uw * uh, worstPixel: worst)
    }

    /// True when the sizes match and at most `maxPixels` pixels differ by more than K.
    public func passes(maxPixels: Int) -> Bool {
        sizesMatch && pixelsOverTolerance <= maxPixels
    }

    /// One human line, e.g. "max channel diff 12 at (3, 4), 37 of 181760 pixels over 8 (0.020%)".
    public var summary: String {
        if !sizesMatch {
            return "sizes differ: expected \(expectedSize), actual \(actualSize)"
        }
        let at = worstPixel.map { " at \($0)" } ?? ""
        return "max channel diff \(maxChannelDifference)\(at), \(pixelsOverTolerance) of \(totalPixels) pixels over \(tolerance) (\(Self.percent(pixelsOverTolerance, of: totalPixels)))"
    }

    /// A percentage with three decimals, without Foundation's formatters.
    static func percent(_ n: Int, of total: Int) -> String {
        guard total > 0 else { return "0.000%" }
        // Thousandths of a percent, rounded half up.
        let milli = (n * 100_000 * 2 + total) / (2 * total)
        let whole = milli / 1000, frac = milli % 1000
        let fracString = String(frac)
        return "\(whole).\(String(repeating: "0", count: 3 - fracString.count))\(fracString)%"
    }
}

/// A picture of where two images differ, in the manner of pixelmatch: the expected image
/// faded to a light grey, pixels over K in red, pixels that differ within K in yellow.
/// When the sizes differ it covers the union, with the area outside either image magenta.
public enum DiffImage {
    public static let overTolerance: (UInt8, UInt8, UInt8) = (255, 0, 0)
    public static let withinTolerance: (UInt8, UInt8, UInt8) = (255, 200, 0)
    public static let outside: (UInt8, UInt8, UInt8) = (255, 0, 255)

    /// Opaque RGBA, the size of the union of the two images.
    public static func make(expected: Image, actual: Image, maxChannelDifference k: Int) -> Image {
        precondition(k >= 0, "DiffImage: a tolerance cannot be negative")
        let uw = max(expected.width, actual.width), uh = max(expected.height, actual.height)
        let ow = min(expected.width, actual.width), oh = min(expected.height, actual.height)
        var out = [UInt8](repeating: 255, count: uw * uh * 4)
        out.withUnsafeMutableBufferPointer { o in
            // Magenta everywhere first; the overlap is overwritten below.
            if ow < uw || oh < uh {
                for i in 0..<(uw * uh) { o[i * 4] = outside.0; o[i * 4 + 1] = outside.1; o[i * 4 + 2] = outside.2 }
            }
            expected.pixels.withUnsafeBufferPointer { e in
                PixelDifference.forEachOverlapRow(expected, actual, width: ow, height: oh) { y, row in
                    for x in 0..<ow {
                        let d = Int(row[x])
                        let oi = (y * uw + x) * 4
                        if d > k {
                            o[oi] = overTolerance.0; o[oi + 1] = overTolerance.1; o[oi + 2] = overTolerance.2
                        } else if d > 0 {
                            o[oi] = withinTolerance.0; o[oi + 1] = withinTolerance.1; o[oi + 2] = withinTolerance.2
                        } else {
                            let g = fadedGrey(e, at: (y * expected.width + x) * 4)
                            o[oi] = g; o[oi + 1] = g; o[oi + 2] = g
                        }
                    }
                }
            }
        }
        return Image(width: uw, height: uh, pixels: out)
    }

    /// Luma of the straight pixel composited over white, at 10% contrast towards white:
    /// 255 - 0.1 * (255 - Y), so the picture stays recognisable but never competes with
    /// the red and yellow marks.
    @inline(__always)
    static func fadedGrey(_ px: UnsafeBufferPointer<UInt8>, at i: Int) -> UInt8 {
        let a = Int(px[i + 3])
        // Premultiplied over white: c * a / 255 + (255 - a), kept in thousandths via luma weights.
        let r = Int(px[i]) * a, g = Int(px[i + 1]) * a, b = Int(px[i + 2]) * a
        // y1000 = 1000 * luma of (premultiplied + 255 - a), premultiplied scaled by 255.
        let y1000 = (299 * r + 587 * g + 114 * b) / 255 + 1000 * (255 - a)
        // 255 - round((255000 - y1000) / 10000)
        return UInt8(255 - (255_000 - y1000 + 5000) / 10_000)
    }
}

/// The per-pixel largest premultiplied channel difference, one row at a time.
enum PixelDifference {
    /// Calls `body(y, row)` for each row of the top-left `width`×`height` overlap, where
    /// `row[x]` is max over channels of |premul(expected) - premul(actual)| at (x, y).
    static func forEachOverlapRow(_ expected: Image, _ actual: Image, width: Int, height: Int,
                                  _ body: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        guard width > 0, height > 0 else { return }
        var rowBuffer = [UInt8](repeating: 0, count: width)
        expected.pixels.withUnsafeBufferPointer { e in
            actual.pixels.withUnsafeBufferPointer { a in
                rowBuffer.withUnsafeMutableBufferPointer { row in
                    for y in 0..<height {
                        var ei = y * expected.width * 4, ai = y * actual.width * 4
                        for x in 0..<width {
                            let ea = UInt32(e[ei + 3]), aa = UInt32(a[ai + 3])
                            var d = ea > aa ? ea - aa : aa - ea
                            for c in 0..<3 {
                                // Same rounding as Image.premultiplied(): round(c * a / 255).
                                let pe = (UInt32(e[ei + c]) * ea + 127) / 255
                                let pa = (UInt32(a[ai + c]) * aa + 127) / 255
                                d = max(d, pe > pa ? pe - pa : pa - pe)
                            }
                            row[x] = UInt8(truncatingIfNeeded: d)
                            ei += 4; ai += 4
                        }
                        body(y, UnsafeBufferPointer(row))
                    }
                }
            }
        }
    }
}
