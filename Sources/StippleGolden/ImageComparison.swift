import Stipple
/// Stipple's one image comparison: premultiplied, under a `GoldenTolerance` (per-channel K
/// or perceptual, anti-aliasing forgiven or not, regions and a mask ignored, P pixels
/// allowed beyond it). `stipple compare`, `stipple test` and `assertGolden` all use it.
///
/// Premultiplied, because the straight colour of a nearly transparent pixel is noise:
/// (255, 0, 0, 1) and (0, 255, 0, 1) are both "almost nothing" and compare within 1.
///
/// When the sizes differ the verdict is always "fail", and the figures describe the union
/// of the two rectangles, both anchored at the top-left: the overlap is compared pixel by
/// pixel, and every pixel that exists in only one image counts as differing by 255 and as
/// over any tolerance.
public struct ImageComparison: Sendable, Equatable {
    /// An image's size in pixels.
    public struct Size: Sendable, Equatable, Hashable, CustomStringConvertible {
        /// Pixels across.
        public var width: Int
        /// Pixels down.
        public var height: Int
        /// A size of `width` × `height` pixels.
        public init(width: Int, height: Int) { self.width = width; self.height = height }
        /// width × height.
        public var pixelCount: Int { width * height }
        /// "W×H".
        public var description: String { "\(width)×\(height)" }
    }

    /// A pixel's position: column and row, from the top-left.
    public struct Pixel: Sendable, Equatable, Hashable, CustomStringConvertible {
        /// The column.
        public var x: Int
        /// The row, from the top.
        public var y: Int
        /// The pixel at column `x`, row `y`.
        public init(x: Int, y: Int) { self.x = x; self.y = y }
        /// "(x, y)".
        public var description: String { "(\(x), \(y))" }
    }

    /// The expected (golden) image's size.
    public let expectedSize: Size
    /// The actual image's size.
    public let actualSize: Size
    /// True when the sizes are equal (otherwise the comparison fails).
    public var sizesMatch: Bool { expectedSize == actualSize }
    /// Largest |premultiplied channel difference| over the pixels compared, 0...255.
    public let maxChannelDifference: Int
    /// Pixels compared with any channel difference > 0.
    public let pixelsDiffering: Int
    /// Pixels beyond the tolerance and held against P (not forgiven, not ignored).
    public let pixelsOverTolerance: Int
    /// With a window (`GoldenTolerance.windowSize`): the most pixels beyond the tolerance in
    /// any N×N window, which is what P is held against; nil without one.
    public let pixelsInWorstWindow: Int?
    /// The count P is held against: `pixelsInWorstWindow` with a window, else `pixelsOverTolerance`.
    public var pixelsHeldAgainstP: Int { pixelsInWorstWindow ?? pixelsOverTolerance }
    /// Pixels beyond the tolerance forgiven as anti-aliased edges.
    public let pixelsAntialiased: Int
    /// Pixels left out by ignored regions or the mask.
    public let pixelsIgnored: Int
    /// Pixels compared: the image's area, or the union's when the sizes differ.
    public let totalPixels: Int
    /// The first pixel (row-major) with the largest difference; nil when none differ.
    public let worstPixel: Pixel?
    /// The tolerance the comparison was made with.
    public let tolerance: GoldenTolerance
    /// P for this image: pixels allowed beyond the tolerance.
    public let allowedPixels: Int
    /// What this comparison needed: the smallest K (per-channel mode) or perceptual
    /// threshold (perceptual mode) under which at most `allowedPixels` pixels are beyond it.
    /// With `pixelsOverTolerance` (the P needed at the configured K), the tight tolerance.
    public let neededChannelDifference: Int
    /// Perceptual mode: the smallest threshold (to 0.001) under which at most P pixels are beyond it.
    public let neededPerceptualThreshold: Double?

    /// True when the sizes match and at most `allowedPixels` pixels are beyond the tolerance.
    public var passes: Bool { passes(maxPixels: allowedPixels) }

    /// True when the sizes match and at most `maxPixels` pixels are beyond the tolerance.
    public func passes(maxPixels: Int) -> Bool { sizesMatch && pixelsHeldAgainstP <= maxPixels }

    init(expectedSize: Size, actualSize: Size, k: PixelClassification, tolerance: GoldenTolerance, allowed: Int) {
        self.expectedSize = expectedSize; self.actualSize = actualSize
        maxChannelDifference = k.maxChannelDifference; pixelsDiffering = k.pixelsDiffering
        pixelsOverTolerance = k.pixelsOver
        pixelsInWorstWindow = tolerance.windowSize.map { expectedSize == actualSize ? k.maxWindowCount($0) : k.pixelsOver }
        pixelsAntialiased = k.pixelsAntialiased; pixelsIgnored = k.pixelsIgnored
        totalPixels = max(expectedSize.width, actualSize.width) * max(expectedSize.height, actualSize.height)
        worstPixel = k.worstPixel; self.tolerance = tolerance; allowedPixels = allowed
        neededChannelDifference = k.neededChannelDifference(allowed: allowed)
        neededPerceptualThreshold = tolerance.perceptualThreshold == nil ? nil : k.neededPerceptualThreshold(allowed: allowed)
    }

    // MARK: The engine

    /// Compares `actual` against `expected` under `tolerance`. `mask`: white compares, black
    /// or transparent is ignored (see `IgnoreMap.masksOut`); load it with `GoldenTolerance.loadMask`.
    public static func compare(expected: Image, actual: Image, tolerance: GoldenTolerance,
                               mask: Image? = nil) -> ImageComparison {
        run(expected: expected, actual: actual, tolerance: tolerance, mask: mask, wantDiff: false).0
    }

    /// Per-channel only: K = `k` (0 means exact), nothing ignored, P = 0.
    public static func compare(expected: Image, actual: Image, maxChannelDifference k: Int) -> ImageComparison {
        precondition(k >= 0, "ImageComparison: a tolerance cannot be negative")
        return compare(expected: expected, actual: actual, tolerance: GoldenTolerance(maxChannelDifference: k))
    }

    /// The diff image (see `DiffImage`).
    public static func diffImage(expected: Image, actual: Image, tolerance: GoldenTolerance, mask: Image? = nil) -> Image {
        run(expected: expected, actual: actual, tolerance: tolerance, mask: mask, wantDiff: true).1!
    }

    /// Both in one pass.
    public static func compareWithDiff(expected: Image, actual: Image, tolerance: GoldenTolerance,
                                       mask: Image? = nil) -> (comparison: ImageComparison, diff: Image) {
        let (c, d) = run(expected: expected, actual: actual, tolerance: tolerance, mask: mask, wantDiff: true)
        return (c, d!)
    }

    static func run(expected: Image, actual: Image, tolerance: GoldenTolerance, mask: Image?,
                    wantDiff: Bool) -> (ImageComparison, Image?) {
        let es = Size(width: expected.width, height: expected.height)
        let as_ = Size(width: actual.width, height: actual.height)
        let ow = min(es.width, as_.width), oh = min(es.height, as_.height)
        let ignore = IgnoreMap.make(width: ow, height: oh, regions: tolerance.ignoreRegions, mask: mask)
        var k = PixelClassification.classify(expected: expected, actual: actual, tolerance: tolerance, ignore: ignore)
        k.addMissing(union: Size(width: max(es.width, as_.width), height: max(es.height, as_.height)))
        let allowed = tolerance.allowedPixels(of: max(es.pixelCount, 1))
        let c = ImageComparison(expectedSize: es, actualSize: as_, k: k, tolerance: tolerance, allowed: allowed)
        return (c, wantDiff ? DiffImage.make(expected: expected, actual: actual, classification: k) : nil)
    }

    // MARK: Words

    /// One human line, e.g. "max channel diff 12 at (3, 4), 37 of 181760 pixels over 8 (0.020%)".
    public var summary: String {
        if !sizesMatch { return "sizes differ: expected \(expectedSize), actual \(actualSize)" }
        let at = worstPixel.map { " at \($0)" } ?? ""
        let over = tolerance.perceptualThreshold.map { "perceptual \($0)" } ?? "\(tolerance.maxChannelDifference)"
        var s = "max channel diff \(maxChannelDifference)\(at), \(pixelsOverTolerance) of \(counted(totalPixels, "pixel")) over \(over)"
            + " (\(Self.percent(pixelsOverTolerance, of: totalPixels)))"
        if let n = tolerance.windowSize, let w = pixelsInWorstWindow { s += ", at most \(w) in any \(n)×\(n) window" }
        if pixelsAntialiased > 0 { s += ", \(pixelsAntialiased) anti-aliased forgiven" }
        if pixelsIgnored > 0 { s += ", \(pixelsIgnored) ignored" }
        return s
    }

    /// The figures and the verdict's reason: "…; allowed 32 over (K 8, P 32)".
    public var summaryWithTolerance: String { summary + "; allowed \(allowedPixels) over (\(tolerance.summary))" }

    /// The tightest tolerance this image would have passed with, as "K 3, P 0" — nil when
    /// the configured one is already that tight, or when the image failed.
    public var looserThanNeeded: String? {
        guard passes else { return nil }
        let t = tolerance
        var tight: [String] = []
        if let p = t.perceptualThreshold, let n = neededPerceptualThreshold, n < p {
            tight.append("perceptual \(n)")
        } else if t.perceptualThreshold == nil, neededChannelDifference < t.maxChannelDifference {
            tight.append("K \(neededChannelDifference)")
        }
        if pixelsHeldAgainstP < allowedPixels {
            tight.append("P \(pixelsHeldAgainstP)\(tight.isEmpty ? "" : " at the configured threshold")")
        }
        return tight.isEmpty ? nil : tight.joined(separator: ", or ")
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
