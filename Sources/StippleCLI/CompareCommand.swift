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

    @OptionGroup var limits: ToleranceOptions

    @Flag(help: "Print the figures as one JSON object on stdout instead of a line.")
    var json = false

    @Option(help: "Write an image showing which pixels differ.")
    var diff: String?

    func run() throws {
        if let diff { try checkOutput(diff, notAnyOf: [expected, actual], inputsAre: "an image being compared") }
        let e = try PNGFile.read(path: expected).image
        let a = try PNGFile.read(path: actual).image
        let (result, diffImage) = ImageComparison.compareWithDiff(expected: e, actual: a, tolerance: limits.tolerance)
        if let diff { try PNGFile.write(diffImage, to: diff) }
        if json {
            print(try ComparisonJSON.object(result))
        } else {
            let over = limits.perceptual.map { "perceptual \($0)" } ?? "\(limits.maxChannelDiff)"
            print("\(result.passes ? "same" : "DIFFERENT"): \(result.summary); allowed \(counted(result.allowedPixels, "pixel")) over \(over)")
        }
        if !result.passes { throw ExitCode(ExitStatus.differs) }
    }
}
