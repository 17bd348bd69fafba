import ArgumentParser
import StippleGolden

/// The tolerance options `compare` and `bisect` share: K or a perceptual threshold (YIQ or
/// OKLab), P as a count or a share, anti-aliasing forgiven, a window P is counted in.
struct ToleranceOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "K: the largest per-channel difference that still counts as equal (0-255).")
    var maxChannelDiff: Int = 0

    @Option(parsing: .unconditional, help: "P: how many pixels may differ by more than K, as a count (32), a share of the image (0.1%), or both (32+0.1%).")
    var maxPixels: PixelAllowance = PixelAllowance(.count(0))

    @Option(parsing: .unconditional, help: "Compare by perceptual colour distance with this threshold from 0 to 1 (0.1 is typical) instead of K.")
    var perceptual: Double?

    @Option(help: "The perceptual distance: yiq (pixelmatch 6, the default) or oklab (pixelmatch 7: OKLab lightness with toe correction, HyAB).")
    var metric: GoldenTolerance.PerceptualMetric?

    @Flag(inversion: .prefixedNo, help: "With --metric oklab: composite semi-transparent pixels over pixelmatch's checkerboard (the default), or over white.")
    var checkerboard = true

    @Option(parsing: .unconditional, help: "Hold P against the most differing pixels in any N×N window instead of the whole image (pixelmatch's windowSize).")
    var window: Int?

    @Flag(help: "Forgive pixels beyond the tolerance that look like anti-aliased edges in either image (counted apart).")
    var antialiasing = false

    func validate() throws {
        if !(0...255).contains(maxChannelDiff) { throw ValidationError("Please give --max-channel-diff from 0 to 255.") }
        if let perceptual, !(0...1).contains(perceptual) {
            throw ValidationError("Please give --perceptual from 0 to 1 (0.1 is typical).")
        }
        if metric != nil && perceptual == nil { throw ValidationError("--metric needs --perceptual THRESHOLD.") }
        if !checkerboard && metric != .oklab { throw ValidationError("--no-checkerboard applies to --metric oklab only.") }
        if let window, window < 1 { throw ValidationError("Please give --window as a whole number of pixels, 1 or more.") }
    }

    var tolerance: GoldenTolerance {
        var t = GoldenTolerance(maxChannelDifference: maxChannelDiff, perceptualThreshold: perceptual,
                                ignoreAntialiasing: antialiasing, metric: metric,
                                checkerboard: checkerboard ? nil : false, windowSize: window)
        t.setMaxPixels(maxPixels.limit)
        return t
    }
}

extension GoldenTolerance.PerceptualMetric: ExpressibleByArgument {}

/// --max-pixels: `GoldenTolerance.PixelLimit` (a count, a share written with `%`, or both
/// joined by `+`) as an argument.
struct PixelAllowance: ExpressibleByArgument {
    var limit: GoldenTolerance.PixelLimit

    init(_ limit: GoldenTolerance.PixelLimit) { self.limit = limit }

    init?(argument: String) {
        guard let limit = GoldenTolerance.PixelLimit(argument) else { return nil }
        self.limit = limit
    }

    var defaultValueDescription: String { limit.description }
}
