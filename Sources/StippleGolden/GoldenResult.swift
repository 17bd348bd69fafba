import Stipple
/// The driver that drew an image: named in every report and failure, so that a change of
/// driver is visible at once.
public struct DriverIdentity: Sendable, Equatable, Codable {
    /// The EGL platform: "surfaceless", "device" or "gbm".
    public var platform: String
    /// The GL vendor string.
    public var vendor: String
    /// The GL renderer string.
    public var renderer: String
    /// A short, file-name-safe name: "llvmpipe", "softpipe", or the renderer's first word.
    public var shortName: String

    /// A driver described by its EGL platform and GL vendor and renderer strings.
    public init(platform: String, vendor: String, renderer: String) {
        self.platform = platform; self.vendor = vendor; self.renderer = renderer
        shortName = DriverIdentity.shortName(of: renderer)
    }

    /// The driver a renderer runs on.
    public init(_ info: RendererInfo) {
        self.init(platform: info.platform.rawValue, vendor: info.glVendor, renderer: info.glRenderer)
    }

    /// "llvmpipe (LLVM 15.0.6, 256 bits)" → "llvmpipe"; "Mesa Intel(R) UHD 620" → "mesa-intel".
    public static func shortName(of renderer: String) -> String {
        let lower = renderer.lowercased()
        for known in ["llvmpipe", "softpipe", "zink", "swiftshader"] where lower.contains(known) { return known }
        let kept = lower.prefix { $0 != "(" }.map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let collapsed = String(kept).split(separator: "-", omittingEmptySubsequences: true).joined(separator: "-")
        return collapsed.isEmpty ? "unknown" : String(collapsed.prefix(40))
    }
}

/// What happened to one golden case (one script at one frame).
public struct GoldenCaseResult: Sendable, Equatable, Codable {
    /// What a case came to.
    public enum Verdict: String, Sendable, Codable {
        case passed
        case failed
        /// No golden at all; in CI this fails, elsewhere it is recorded (and says so).
        case missing
        /// Written by --record (or on a first run outside CI).
        case recorded
        /// Point goldens exist for other drivers but not this one (docs/reference.md §7): said plainly.
        case noGoldenForDriver = "no-golden-for-driver"
        /// The script or a file could not be read, or rendering failed.
        case error
        /// The image failed, and a second render of the case differed from the first: a
        /// determinism bug, reported apart from `failed` and never recorded.
        case flaky
    }

    /// "NAME" or "NAME@frame-NNNN".
    public var name: String
    /// The script's path.
    public var script: String
    /// The frame compared.
    public var frame: Int
    /// "points" or "quads".
    public var primitive: String
    /// What the case came to.
    public var verdict: Verdict
    /// One line a person reads.
    public var message: String
    /// The golden compared with, or written.
    public var golden: String?
    /// The actual image kept (failures, or every case with `keepDiffs`).
    public var actual: String?
    /// The kept actual image's content (`Image.contentDigest`): `--accept` takes the file
    /// only while it is still this image.
    public var actualDigest: String?
    /// The diff image kept.
    public var diff: String?
    /// The figures of the comparison that decided the verdict.
    public var comparison: ComparisonFigures?
    /// The tolerance applied.
    public var tolerance: GoldenTolerance
    /// The driver that drew the image.
    public var driver: DriverIdentity
    /// The driver the golden was made with, when known.
    public var goldenDriver: String?
    /// Seconds the case took: render and comparison.
    public var seconds: Double
    /// The golden in the golden folder this case was decided by (the one it matched, or
    /// the closest it failed), or the one a record or an accept would write.
    public var goldenPath: String?
    /// How to accept this case's image as its golden (failed, missing, no golden for driver).
    public var acceptCommand: String?
    /// For `flaky`: the second render, and the figures of render 1 against render 2.
    public var secondActual: String?
    /// For `flaky`: the first render against the second.
    public var renderDifference: ComparisonFigures?
    /// Set when the case passed with a configured tolerance looser than it needed: the
    /// tightest one it would have passed with, e.g. "K 3, or P 0 at the configured threshold".
    public var tightTolerance: String?

    /// True when the case fails a run: failed, flaky, an error, missing, or no golden for this driver.
    public var isFailure: Bool {
        verdict == .failed || verdict == .error || verdict == .missing || verdict == .noGoldenForDriver || verdict == .flaky
    }

    /// A result; the optional images, figures and drivers as the verdict has them.
    public init(name: String, script: String, frame: Int, primitive: String, verdict: Verdict, message: String,
                golden: String? = nil, actual: String? = nil, diff: String? = nil, comparison: ComparisonFigures? = nil,
                tolerance: GoldenTolerance, driver: DriverIdentity, goldenDriver: String? = nil, seconds: Double = 0) {
        self.name = name; self.script = script; self.frame = frame; self.primitive = primitive
        self.verdict = verdict; self.message = message; self.golden = golden; self.actual = actual; self.diff = diff
        self.comparison = comparison; self.tolerance = tolerance; self.driver = driver
        self.goldenDriver = goldenDriver; self.seconds = seconds
    }
}

/// The figures of one comparison, for reports.
public struct ComparisonFigures: Sendable, Equatable, Codable {
    /// The golden's size, pixels.
    public var expectedWidth: Int, expectedHeight: Int
    /// The rendered image's size, pixels.
    public var actualWidth: Int, actualHeight: Int
    /// The largest premultiplied channel difference, 0…255.
    public var maxChannelDifference: Int
    /// Pixels with any channel difference.
    public var pixelsDiffering: Int
    /// Pixels beyond the tolerance, held against P.
    public var pixelsOverTolerance: Int
    /// P for this image.
    public var pixelsAllowed: Int
    /// Pixels compared.
    public var totalPixels: Int
    /// Pixels beyond the tolerance forgiven as anti-aliased edges (`ignoreAntialiasing`).
    public var pixelsAntialiased: Int = 0
    /// Pixels left out by ignored regions or the mask.
    public var pixelsIgnored: Int = 0
    /// The pixel of the largest difference (first in row-major order), when any differs.
    public var worstX: Int?
    /// The row of the pixel of the largest difference.
    public var worstY: Int?
    /// The comparison's one-line summary.
    public var summary: String

    /// The figures of `c`, P as the comparison's tolerance gives it.
    public init(_ c: ImageComparison) { self.init(c, allowed: c.allowedPixels) }

    /// The figures of `c`, with P = `allowed`.
    public init(_ c: ImageComparison, allowed: Int) {
        expectedWidth = c.expectedSize.width; expectedHeight = c.expectedSize.height
        actualWidth = c.actualSize.width; actualHeight = c.actualSize.height
        maxChannelDifference = c.maxChannelDifference; pixelsDiffering = c.pixelsDiffering
        pixelsOverTolerance = c.pixelsOverTolerance; pixelsAllowed = allowed; totalPixels = c.totalPixels
        pixelsAntialiased = c.pixelsAntialiased; pixelsIgnored = c.pixelsIgnored
        worstX = c.worstPixel?.x; worstY = c.worstPixel?.y
        summary = c.summary
    }

    enum CodingKeys: String, CodingKey {
        case expectedWidth, expectedHeight, actualWidth, actualHeight, maxChannelDifference, pixelsDiffering
        case pixelsOverTolerance, pixelsAllowed, totalPixels, pixelsAntialiased, pixelsIgnored, worstX, worstY, summary
    }

    /// Reports written before the anti-aliasing and ignored counts existed still decode.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        expectedWidth = try c.decode(Int.self, forKey: .expectedWidth)
        expectedHeight = try c.decode(Int.self, forKey: .expectedHeight)
        actualWidth = try c.decode(Int.self, forKey: .actualWidth)
        actualHeight = try c.decode(Int.self, forKey: .actualHeight)
        maxChannelDifference = try c.decode(Int.self, forKey: .maxChannelDifference)
        pixelsDiffering = try c.decode(Int.self, forKey: .pixelsDiffering)
        pixelsOverTolerance = try c.decode(Int.self, forKey: .pixelsOverTolerance)
        pixelsAllowed = try c.decode(Int.self, forKey: .pixelsAllowed)
        totalPixels = try c.decode(Int.self, forKey: .totalPixels)
        pixelsAntialiased = try c.decodeIfPresent(Int.self, forKey: .pixelsAntialiased) ?? 0
        pixelsIgnored = try c.decodeIfPresent(Int.self, forKey: .pixelsIgnored) ?? 0
        worstX = try c.decodeIfPresent(Int.self, forKey: .worstX)
        worstY = try c.decodeIfPresent(Int.self, forKey: .worstY)
        summary = try c.decode(String.self, forKey: .summary)
    }
}

/// A whole `stipple test` run (or one shard of it).
public struct GoldenRunReport: Sendable, Equatable, Codable {
    /// The driver the run drew with.
    public var driver: DriverIdentity
    /// "K/N" when this run was one shard.
    public var shard: String?
    /// Every case's result, in case order.
    public var cases: [GoldenCaseResult]
    /// The golden folder and the output folder of the run, as given: `--accept` finds the
    /// goldens to write and the actual images with them.
    public var goldenDirectory: String?
    /// Where the run wrote its actual and diff images.
    public var outputDirectory: String?
    /// Set when the run was stopped (by a signal, "SIGINT" or "SIGTERM") before every case
    /// had run: `cases` holds those that had, `notRun` counts the others.
    public var interrupted: String?
    /// Cases selected for the run that it did not get to (interrupted).
    public var notRun: Int?

    /// A report of `cases` drawn on `driver`.
    public init(driver: DriverIdentity, shard: String? = nil, cases: [GoldenCaseResult],
                goldenDirectory: String? = nil, outputDirectory: String? = nil) {
        self.driver = driver; self.shard = shard; self.cases = cases
        self.goldenDirectory = goldenDirectory; self.outputDirectory = outputDirectory
    }

    /// How many cases came to each verdict: the one count the console, JSON, JUnit and HTML
    /// all show.
    public struct Counts: Sendable, Equatable, Codable {
        public var passed = 0, failed = 0, missing = 0, noGoldenForDriver = 0, errors = 0, flaky = 0, recorded = 0

        /// Cases that fail the run without being errors: failed, missing, no golden for this
        /// driver, flaky (JUnit's failures).
        public var failures: Int { failed + missing + noGoldenForDriver + flaky }

        /// "3 passed, 1 failed", then ", 2 missing", ", 7 no golden for this driver",
        /// ", 3 errors", ", 1 flaky", ", 5 recorded" where there are any.
        public var summary: String {
            var s = "\(passed) passed, \(failed) failed"
            if missing > 0 { s += ", \(missing) missing" }
            if noGoldenForDriver > 0 { s += ", \(noGoldenForDriver) no golden for this driver" }
            if errors > 0 { s += ", " + counted(errors, "error") }
            if flaky > 0 { s += ", \(flaky) flaky" }
            if recorded > 0 { s += ", \(recorded) recorded" }
            return s
        }
    }

    /// The cases by verdict.
    public var counts: Counts {
        var c = Counts()
        for r in cases {
            switch r.verdict {
            case .passed: c.passed += 1
            case .failed: c.failed += 1
            case .missing: c.missing += 1
            case .noGoldenForDriver: c.noGoldenForDriver += 1
            case .error: c.errors += 1
            case .flaky: c.flaky += 1
            case .recorded: c.recorded += 1
            }
        }
        return c
    }

    /// The cases that fail the run.
    public var failures: [GoldenCaseResult] { cases.filter(\.isFailure) }
    /// Cases that passed.
    public var passed: Int { cases.filter { $0.verdict == .passed }.count }
    /// Cases whose golden was written.
    public var recorded: Int { cases.filter { $0.verdict == .recorded }.count }
    /// Cases whose two renders differed.
    public var flaky: Int { cases.filter { $0.verdict == .flaky }.count }
    /// Cases that passed with a configured tolerance looser than they needed.
    public var staleTolerances: [GoldenCaseResult] { cases.filter { $0.tightTolerance != nil } }
}
