/// A golden check of one image: the comparison under a `GoldenTolerance`, its verdict
/// and its diff image. Sizes that differ are a clear failing verdict, never a crash.
public struct GoldenComparison: Sendable {
    public let comparison: ImageComparison
    public let tolerance: GoldenTolerance
    /// Pixels allowed beyond the tolerance for this image.
    public let allowedPixels: Int

    public var passes: Bool { comparison.passes(maxPixels: allowedPixels) }
    public var figures: ComparisonFigures { ComparisonFigures(comparison, allowed: allowedPixels) }

    /// One line: the figures and the verdict's reason.
    public var summary: String {
        comparison.summary + "; allowed \(allowedPixels) over (\(tolerance.summary))"
    }

    public static func compare(expected: Image, actual: Image, tolerance: GoldenTolerance) -> GoldenComparison {
        // Ignored regions are made equal in both images before comparing.
        let (e, a) = tolerance.ignoreRegions.isEmpty ? (expected, actual)
            : (blank(expected, tolerance.ignoreRegions), blank(actual, tolerance.ignoreRegions))
        let c = ImageComparison.compare(expected: e, actual: a, maxChannelDifference: tolerance.maxChannelDifference)
        return GoldenComparison(comparison: c, tolerance: tolerance,
                                allowedPixels: tolerance.allowedPixels(of: max(expected.width * expected.height, 1)))
    }

    /// The diff image (see `DiffImage`), ignored regions left as they are in the expected image.
    public static func diffImage(expected: Image, actual: Image, tolerance: GoldenTolerance) -> Image {
        let (e, a) = tolerance.ignoreRegions.isEmpty ? (expected, actual)
            : (blank(expected, tolerance.ignoreRegions), blank(actual, tolerance.ignoreRegions))
        return DiffImage.make(expected: e, actual: a, maxChannelDifference: tolerance.maxChannelDifference)
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
