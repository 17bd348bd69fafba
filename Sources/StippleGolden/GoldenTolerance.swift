import Stipple
import Foundation
/// How far an image may stray from its golden and still pass (the WPT `fuzzy` idea):
/// at most `maxPixels` pixels may differ by more than `maxChannelDifference` in any
/// premultiplied channel. Optionally perceptual (YIQ distance, as pixelmatch), with
/// anti-aliased edge pixels forgiven, and with regions ignored.
public struct GoldenTolerance: Sendable, Equatable, Codable {
    /// K: the largest per-channel difference (premultiplied, 0…255) that still counts as equal.
    public var maxChannelDifference: Int
    /// P: pixels allowed beyond K, as a count.
    public var maxPixels: Int
    /// P as a share of the image's pixels (0…100 %), added to `maxPixels`.
    public var maxPixelsPercent: Double
    /// Compare by perceptual colour distance (0…1 threshold, pixelmatch's `threshold`) instead
    /// of per-channel difference. nil: per-channel.
    public var perceptualThreshold: Double?
    /// The perceptual distance: pixelmatch 6's YIQ (nil, the default) or pixelmatch 7's OKLab.
    public var metric: PerceptualMetric?
    /// OKLab only: composite semi-transparent pixels over pixelmatch's checkerboard (nil or
    /// true, the default) or over white (false).
    public var checkerboard: Bool?
    /// When set, P is held against the most pixels beyond the tolerance in any N×N window
    /// (pixelmatch's `windowSize`) instead of the image's total: a cluster fails, scattered
    /// noise passes.
    public var windowSize: Int?
    /// Forgive pixels that look like anti-aliased edges in either image (pixelmatch's rule).
    public var ignoreAntialiasing: Bool
    /// Rectangles (x, y, width, height, canvas pixels) left out of the comparison.
    public var ignoreRegions: [Region]
    /// A mask PNG (white: compare; black or transparent: ignore), relative to the folder of
    /// the script or settings file that names it. Pixels beyond the mask's size are compared.
    /// Load it with `loadMask(relativeTo:)` and pass it to `ImageComparison.compare`.
    public var maskPath: String?

    /// Which perceptual distance `perceptualThreshold` is measured in.
    public enum PerceptualMetric: String, Sendable, Equatable, Codable, CaseIterable {
        /// pixelmatch 6: squared YIQ distance of premultiplied pixels over white, normalised.
        case yiq
        /// pixelmatch 7: HyAB distance in OKLab with toe-corrected lightness; black↔white = 1.
        case oklab
    }

    /// The metric in effect (YIQ unless OKLab is asked for).
    public var effectiveMetric: PerceptualMetric { metric ?? .yiq }

    /// A rectangle of canvas pixels left out of the comparison.
    public struct Region: Sendable, Equatable, Codable {
        /// Its top-left pixel and size, canvas pixels.
        public var x: Int, y: Int, width: Int, height: Int
        /// The rectangle at (`x`, `y`) of `width` × `height` pixels.
        public init(x: Int, y: Int, width: Int, height: Int) { self.x = x; self.y = y; self.width = width; self.height = height }
    }

    /// A tolerance of K = `maxChannelDifference` and P = `maxPixels` plus `maxPixelsPercent`
    /// % of the image; perceptual instead of K with `perceptualThreshold` (in `metric`), with
    /// anti-aliasing forgiven, regions or a mask ignored, and P counted in a window when asked.
    public init(maxChannelDifference: Int = 0, maxPixels: Int = 0, maxPixelsPercent: Double = 0,
                perceptualThreshold: Double? = nil, ignoreAntialiasing: Bool = false, ignoreRegions: [Region] = [],
                maskPath: String? = nil, metric: PerceptualMetric? = nil, checkerboard: Bool? = nil,
                windowSize: Int? = nil) {
        self.metric = metric; self.checkerboard = checkerboard; self.windowSize = windowSize
        self.maxChannelDifference = maxChannelDifference; self.maxPixels = maxPixels
        self.maxPixelsPercent = maxPixelsPercent; self.perceptualThreshold = perceptualThreshold
        self.ignoreAntialiasing = ignoreAntialiasing; self.ignoreRegions = ignoreRegions
        self.maskPath = maskPath
    }

    /// The mask image named by `maskPath`, resolved against `directory` when relative; nil
    /// when there is none. Errors name the file.
    public func loadMask(relativeTo directory: String?) throws -> Image? {
        guard let maskPath else { return nil }
        let path = maskPath.hasPrefix("/") || directory == nil ? maskPath : directory! + "/" + maskPath
        return try PNGFile.read(path: path).image
    }

    /// Bit for bit: the same driver must reproduce its own goldens exactly (docs/reference.md §7).
    public static let exact = GoldenTolerance()

    /// Across drivers for quads (docs/reference.md §7): K = 8, P = 0.1 % of the canvas + 32 pixels,
    /// measured between llvmpipe and softpipe on the fixtures (docs/golden-comparison.md).
    public static let crossDriver = GoldenTolerance(maxChannelDifference: 8, maxPixels: 32, maxPixelsPercent: 0.1)

    /// Pixels allowed beyond K for an image of `total` pixels.
    public func allowedPixels(of total: Int) -> Int {
        maxPixels + Int((Double(total) * maxPixelsPercent / 100).rounded(.down))
    }

    /// P as written on the command line and in `stipple-test.json`: a count ("32"), a share
    /// of the image's pixels ("0.1%", 0…100), or both added ("32+0.1%", as the cross-driver
    /// tolerance has it). The one parser of P.
    public enum PixelLimit: Sendable, Equatable {
        case count(Int)
        case percent(Double)
        /// A count and a share, added.
        case sum(Int, Double)
        /// nil when `text` is none of a whole count ≥ 0, a share from 0 to 100 followed by
        /// "%", or a count "+" a share.
        public init?(_ text: String) {
            let t = text.trimmingCharacters(in: .whitespaces)
            let parts = t.split(separator: "+", omittingEmptySubsequences: false)
            if parts.count == 2 {
                guard case let .count(n)? = PixelLimit(String(parts[0])), case let .percent(p)? = PixelLimit(String(parts[1]))
                else { return nil }
                self = .sum(n, p)
            } else if t.hasSuffix("%") {
                guard let p = Double(t.dropLast().trimmingCharacters(in: .whitespaces)), p >= 0, p <= 100 else { return nil }
                self = .percent(p)
            } else {
                guard let n = Int(t), n >= 0 else { return nil }
                self = .count(n)
            }
        }

        /// P as written: "32", "0.1%" or "32+0.1%".
        public var description: String {
            switch self {
            case let .count(n): return String(n)
            case let .percent(p): return "\(p)%"
            case let .sum(n, p): return "\(n)+\(p)%"
            }
        }
    }

    /// Sets P from a `PixelLimit` (a part it does not give goes to 0).
    public mutating func setMaxPixels(_ limit: PixelLimit) {
        switch limit {
        case let .count(n): maxPixels = n; maxPixelsPercent = 0
        case let .percent(p): maxPixels = 0; maxPixelsPercent = p
        case let .sum(n, p): maxPixels = n; maxPixelsPercent = p
        }
    }

    /// P as a `PixelLimit`: what `--max-pixels` takes to give this tolerance's P again.
    public var pixelLimit: PixelLimit {
        if maxPixelsPercent > 0 { return maxPixels > 0 ? .sum(maxPixels, maxPixelsPercent) : .percent(maxPixelsPercent) }
        return .count(maxPixels)
    }

    /// "K 8, P 32 + 0.1 %", for reports.
    public var summary: String {
        var s = perceptualThreshold.map { "perceptual \($0)" + (effectiveMetric == .oklab ? " (OKLab)" : "") }
            ?? "K \(maxChannelDifference)"
        s += ", P \(maxPixels)"
        if maxPixelsPercent > 0 { s += " + \(maxPixelsPercent) %" }
        if let windowSize { s += " in any \(windowSize)×\(windowSize) window" }
        if checkerboard == false && effectiveMetric == .oklab { s += ", over white" }
        if ignoreAntialiasing { s += ", anti-aliasing ignored" }
        if !ignoreRegions.isEmpty { s += ", \(ignoreRegions.count) region(s) ignored" }
        if let maskPath { s += ", mask \(maskPath)" }
        return s
    }
}
