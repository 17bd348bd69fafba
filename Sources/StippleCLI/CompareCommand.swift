import ArgumentParser
import Foundation
import Stipple
import StippleGolden

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two PNGs premultiplied, with a tolerance (SPEC §7).",
        discussion: """
            Passes (exit 0) when at most P pixels differ by more than K in any premultiplied channel; \
            exit 1 otherwise (also when the sizes differ). Prints the largest channel difference and \
            the pixels over K. The diff image shows the expected image faded, pixels over K in red, \
            pixels that differ by K or less in yellow.
            """)

    @Argument(help: "The expected (golden) PNG.")
    var expected: String

    @Argument(help: "The actual PNG.")
    var actual: String

    @Option(help: "K: the largest per-channel difference that still counts as equal (0-255).")
    var maxChannelDiff: Int = 0

    @Option(help: "P: how many pixels may differ by more than K, as a count (32) or a share of the image (0.1%).")
    var maxPixels: PixelAllowance = PixelAllowance(count: 0)

    @Option(help: "Write an image showing which pixels differ.")
    var diff: String?

    func validate() throws {
        if !(0...255).contains(maxChannelDiff) { throw ValidationError("Please give --max-channel-diff from 0 to 255.") }
    }

    func run() throws {
        if let diff { try checkOutput(diff, notAnyOf: [expected, actual], inputsAre: "an image being compared") }
        let e = try PNGFile.read(path: expected).image
        let a = try PNGFile.read(path: actual).image
        let result = ImageComparison.compare(expected: e, actual: a, maxChannelDifference: maxChannelDiff)
        let allowed = maxPixels.pixels(of: max(e.width * e.height, 1))
        if let diff {
            try PNGFile.write(DiffImage.make(expected: e, actual: a, maxChannelDifference: maxChannelDiff), to: diff)
        }
        let verdict = result.passes(maxPixels: allowed) ? "same" : "DIFFERENT"
        print("\(verdict): \(result.summary); allowed \(allowed) pixels over \(maxChannelDiff)")
        if !result.passes(maxPixels: allowed) { throw ExitCode(ExitStatus.differs) }
    }
}

/// A number of pixels, or a share of the image's pixels written with a `%`.
struct PixelAllowance: ExpressibleByArgument {
    var count: Int?
    var percent: Double?

    init(count: Int) { self.count = count }

    init?(argument: String) {
        if argument.hasSuffix("%"), let p = Double(argument.dropLast()), p >= 0, p <= 100 {
            percent = p
        } else if let n = Int(argument), n >= 0 {
            count = n
        } else {
            return nil
        }
    }

    func pixels(of total: Int) -> Int {
        if let count { return count }
        return Int((Double(total) * (percent ?? 0) / 100).rounded(.down))
    }

    var defaultValueDescription: String { count.map(String.init) ?? "\(percent ?? 0)%" }
}
