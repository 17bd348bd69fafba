import ArgumentParser
import Foundation
import Stipple
import StippleGolden

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two PNGs premultiplied, with a tolerance (docs/golden-comparison.md).",
        discussion: """
            Passes (exit 0) when at most P pixels differ by more than K in any premultiplied channel \
            (or, with --perceptual, by more than the perceptual threshold); exit 1 otherwise (also when \
            the sizes differ). Prints the largest channel difference and the pixels over the tolerance. \
            The diff image shows the expected image faded, pixels over the tolerance in red, pixels that \
            differ within it in amber, anti-aliased pixels forgiven in yellow. `stipple test` compares \
            with the same engine and the same tolerance.
            """)

    @Argument(help: "The expected (golden) PNG.")
    var expected: String

    @Argument(help: "The actual PNG.")
    var actual: String

    @Option(parsing: .unconditional, help: "K: the largest per-channel difference that still counts as equal (0-255).")
    var maxChannelDiff: Int = 0

    @Option(parsing: .unconditional, help: "P: how many pixels may differ by more than K, as a count (32) or a share of the image (0.1%).")
    var maxPixels: PixelAllowance = PixelAllowance(.count(0))

    @Option(parsing: .unconditional, help: "Compare by perceptual colour distance with this threshold from 0 to 1 (0.1 is typical) instead of K.")
    var perceptual: Double?

    @Option(help: "The perceptual distance: yiq (pixelmatch 6, the default) or oklab (pixelmatch 7: OKLab lightness with toe correction, HyAB).")
    var metric: GoldenTolerance.PerceptualMetric?

    @Flag(inversion: .prefixedNo, help: "With --metric oklab: composite semi-transparent pixels over pixelmatch's checkerboard (the default), or over white.")
    var checkerboard = true

    @Option(parsing: .unconditional, help: "Hold P against the most differing pixels in any N×N window instead of the whole image (pixelmatch's windowSize).")
    var window: Int?

    @Flag(help: "Print the figures as one JSON object on stdout instead of a line.")
    var json = false

    @Flag(help: "Forgive pixels beyond the tolerance that look like anti-aliased edges in either image (counted apart).")
    var antialiasing = false

    @Option(help: "Write an image showing which pixels differ.")
    var diff: String?

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

    func run() throws {
        if let diff { try checkOutput(diff, notAnyOf: [expected, actual], inputsAre: "an image being compared") }
        let e = try PNGFile.read(path: expected).image
        let a = try PNGFile.read(path: actual).image
        let (result, diffImage) = ImageComparison.compareWithDiff(expected: e, actual: a, tolerance: tolerance)
        if let diff { try PNGFile.write(diffImage, to: diff) }
        if json {
            print(try ComparisonJSON.object(result))
        } else {
            let over = perceptual.map { "perceptual \($0)" } ?? "\(maxChannelDiff)"
            print("\(result.passes ? "same" : "DIFFERENT"): \(result.summary); allowed \(result.allowedPixels) pixels over \(over)")
        }
        if !result.passes { throw ExitCode(ExitStatus.differs) }
    }
}

/// --max-pixels: `GoldenTolerance.PixelLimit` (a count, or a share written with `%`) as an argument.
struct PixelAllowance: ExpressibleByArgument {
    var limit: GoldenTolerance.PixelLimit

    init(_ limit: GoldenTolerance.PixelLimit) { self.limit = limit }

    init?(argument: String) {
        guard let limit = GoldenTolerance.PixelLimit(argument) else { return nil }
        self.limit = limit
    }

    var defaultValueDescription: String { limit.description }
}

extension GoldenTolerance.PerceptualMetric: ExpressibleByArgument {}
