import Stipple
/// A golden check of one image: the comparison under a `GoldenTolerance`, its verdict
/// and its diff image. Sizes that differ are a clear failing verdict, never a crash.
///
/// Per-channel (K) by default; perceptual (YIQ, as pixelmatch) when the tolerance has a
/// `perceptualThreshold`. With `ignoreAntialiasing`, in either mode, a pixel beyond the
/// tolerance that looks anti-aliased in either image is forgiven and counted apart
/// (`pixelsAntialiased`). Ignored regions and the mask leave pixels out altogether.
public struct GoldenComparison: Sendable {
    /// The figures; `pixelsOverTolerance` counts only the pixels held against P (neither
    /// forgiven as anti-aliasing nor ignored).
    public let comparison: ImageComparison
    public let tolerance: GoldenTolerance
    /// Pixels allowed beyond the tolerance for this image.
    public let allowedPixels: Int
    /// Pixels beyond the tolerance forgiven as anti-aliased edges.
    public var pixelsAntialiased: Int = 0
    /// Pixels left out by `ignoreRegions` or the mask.
    public var pixelsIgnored: Int = 0

    public var passes: Bool { comparison.passes(maxPixels: allowedPixels) }
    public var figures: ComparisonFigures {
        var f = ComparisonFigures(comparison, allowed: allowedPixels)
        f.pixelsAntialiased = pixelsAntialiased
        f.pixelsIgnored = pixelsIgnored
        f.summary = comparisonSummary
        return f
    }

    /// One line: the figures and the verdict's reason.
    public var summary: String {
        comparisonSummary + "; allowed \(allowedPixels) over (\(tolerance.summary))"
    }

    /// The figures alone, in the mode's own words.
    var comparisonSummary: String {
        var s = comparison.summary
        if let t = tolerance.perceptualThreshold, comparison.sizesMatch {
            let c = comparison
            let at = c.worstPixel.map { " at \($0)" } ?? ""
            s = "max channel diff \(c.maxChannelDifference)\(at), \(c.pixelsOverTolerance) of \(c.totalPixels) pixels"
                + " over perceptual \(t) (\(ImageComparison.percent(c.pixelsOverTolerance, of: c.totalPixels)))"
        }
        if pixelsAntialiased > 0 { s += ", \(pixelsAntialiased) anti-aliased forgiven" }
        if pixelsIgnored > 0 { s += ", \(pixelsIgnored) ignored" }
        return s
    }

    /// `mask`: white compares, black or transparent is ignored (see `IgnoreMap.masksOut`);
    /// the runner loads it from `tolerance.maskPath` (`GoldenTolerance.loadMask`).
    public static func compare(expected: Image, actual: Image, tolerance: GoldenTolerance,
                               mask: Image? = nil) -> GoldenComparison {
        run(expected: expected, actual: actual, tolerance: tolerance, mask: mask, wantDiff: false).0
    }

    /// The diff image: the expected image faded to grey; red beyond the tolerance, amber
    /// within it, yellow anti-aliasing forgiven, ignored pixels hatched blue, magenta where
    /// only one image has pixels (sizes differ).
    public static func diffImage(expected: Image, actual: Image, tolerance: GoldenTolerance,
                                 mask: Image? = nil) -> Image {
        run(expected: expected, actual: actual, tolerance: tolerance, mask: mask, wantDiff: true).1!
    }

    /// Both in one pass.
    public static func compareWithDiff(expected: Image, actual: Image, tolerance: GoldenTolerance,
                                       mask: Image? = nil) -> (comparison: GoldenComparison, diff: Image) {
        let (c, d) = run(expected: expected, actual: actual, tolerance: tolerance, mask: mask, wantDiff: true)
        return (c, d!)
    }

    static func run(expected: Image, actual: Image, tolerance: GoldenTolerance, mask: Image?,
                    wantDiff: Bool) -> (GoldenComparison, Image?) {
        let allowed = tolerance.allowedPixels(of: max(expected.width * expected.height, 1))
        let plain = tolerance.perceptualThreshold == nil && !tolerance.ignoreAntialiasing
            && tolerance.ignoreRegions.isEmpty && mask == nil
        let sameSize = expected.width == actual.width && expected.height == actual.height
        if plain || !sameSize {
            // The per-channel comparison as it always was; sizes that differ fail whatever the mode.
            let (e, a) = tolerance.ignoreRegions.isEmpty ? (expected, actual)
                : (blank(expected, tolerance.ignoreRegions), blank(actual, tolerance.ignoreRegions))
            let c = ImageComparison.compare(expected: e, actual: a, maxChannelDifference: tolerance.maxChannelDifference)
            let d = wantDiff ? DiffImage.make(expected: e, actual: a, maxChannelDifference: tolerance.maxChannelDifference) : nil
            return (GoldenComparison(comparison: c, tolerance: tolerance, allowedPixels: allowed), d)
        }
        let ignore = IgnoreMap.make(width: expected.width, height: expected.height,
                                    regions: tolerance.ignoreRegions, mask: mask)
        let k = PixelClassification.classify(expected: expected, actual: actual, tolerance: tolerance, ignore: ignore)
        let size = ImageComparison.Size(width: expected.width, height: expected.height)
        let c = ImageComparison(expectedSize: size, actualSize: size, maxChannelDifference: k.maxChannelDifference,
                                pixelsDiffering: k.pixelsDiffering, pixelsOverTolerance: k.pixelsOver,
                                tolerance: max(0, tolerance.maxChannelDifference), totalPixels: size.pixelCount,
                                worstPixel: k.worstPixel)
        let g = GoldenComparison(comparison: c, tolerance: tolerance, allowedPixels: allowed,
                                 pixelsAntialiased: k.pixelsAntialiased, pixelsIgnored: k.pixelsIgnored)
        return (g, wantDiff ? DiffImage.make(expected: expected, classification: k) : nil)
    }

    static func blank(_ image: Image, _ regions: [GoldenTolerance.Region]) -> Image {
        var px = image.pixels
        for r in regions {
            let x0 = max(0, r.x), y0 = max(0, r.y)
            let x1 = min(image.width, r.x + r.width), y1 = min(image.height, r.y + r.height)
            guard x0 < x1, y0 < y1 else { continue }
            for y in y0..<y1 {
                for i in ((y * image.width + x0) * 4)..<((y * image.width + x1) * 4) { px[i] = 0 }
            }
        }
        return Image(width: image.width, height: image.height, pixels: px)
    }
}
