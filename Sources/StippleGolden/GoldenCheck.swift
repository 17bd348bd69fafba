import Stipple
import Foundation

/// Checks one rendered image against its golden and decides the verdict: the rules the
/// command line (`stipple test`) and the test API (`assertGolden`) share.
///
/// - This driver's golden is compared with the case's tolerance (`.exact` by default).
/// - For quads, another driver's golden stands in, with `.crossDriver` tolerance by default.
/// - For points, other drivers' goldens cannot stand in (they place points differently,
///   SPEC §7): the verdict says so plainly, and `record` adds this driver's.
/// - No golden at all: recorded, unless `isCI` (then it fails and nothing is written).
/// - `record` rewrites a golden only when the image fails it: an unchanged golden's file
///   is left alone.
/// - A failure writes `OUTPUT/NAME/expected.png, actual.png, diff.png` (`keepDiffs`: for
///   passing cases too) and names them in the result.
public struct GoldenCheck: Sendable {
    public var store: GoldenStore
    /// Failure images go to `outputDirectory/NAME/`.
    public var outputDirectory: String
    public var driver: DriverIdentity
    public var record: Bool
    public var isCI: Bool
    public var keepDiffs: Bool

    public init(store: GoldenStore, outputDirectory: String, driver: DriverIdentity, record: Bool = false,
                isCI: Bool = false, keepDiffs: Bool = false) {
        self.store = store; self.outputDirectory = outputDirectory; self.driver = driver
        self.record = record; self.isCI = isCI; self.keepDiffs = keepDiffs
    }

    /// True when the environment says this is a CI run (`CI=true`, or `CI=1`).
    public static func isCI(_ environment: [String: String]) -> Bool {
        guard let v = environment["CI"]?.lowercased() else { return false }
        return v == "true" || v == "1" || v == "yes"
    }

    public func check(_ c: GoldenCase, image: Image, started: Date = Date()) -> GoldenCaseResult {
        let me = driver.shortName
        let own = store.path(name: c.name, driver: me, primitive: c.primitive)
        var result = GoldenCaseResult(name: c.name, script: c.scriptPath, frame: c.frame, primitive: c.primitive.rawValue,
                                      verdict: .passed, message: "", tolerance: c.effectiveTolerance(crossDriver: false),
                                      driver: driver)
        clearArtifacts(c.name)
        do {
            switch store.lookup(name: c.name, driver: me, primitive: c.primitive) {
            case .none:
                if isCI && !record {
                    result.verdict = .missing
                    result.actual = try writeArtifact(image, c.name, "actual.png")
                    result.message = "no golden \(own); CI=true, so it is not recorded (run with --record to add it)"
                } else {
                    try writeGolden(image, to: own)
                    result.verdict = .recorded; result.golden = own
                    result.message = "recorded (no golden existed) → \(own)"
                }
            case let .onlyOtherDrivers(others):
                let list = others.joined(separator: ", "), p = c.primitive.rawValue
                if record {
                    try writeGolden(image, to: own)
                    result.verdict = .recorded; result.golden = own
                    result.message = "recorded \(me)'s \(p) golden (goldens exist for \(list)) → \(own)"
                } else {
                    result.verdict = .noGoldenForDriver
                    result.actual = try writeArtifact(image, c.name, "actual.png")
                    result.message = "no \(p) golden for \(me); goldens exist for \(list); run with --record to add \(me)'s"
                }
            case let .own(path):
                try compare(c, image, golden: path, from: nil, ownPath: own, into: &result)
            case let .otherDriver(path, other):
                try compare(c, image, golden: path, from: other, ownPath: own, into: &result)
            }
        } catch {
            result.verdict = .error
            result.message = "\(error)"
        }
        result.seconds = Date().timeIntervalSince(started)
        return result
    }

    private func compare(_ c: GoldenCase, _ image: Image, golden path: String, from other: String?, ownPath: String,
                         into result: inout GoldenCaseResult) throws {
        let expected = try PNGFile.read(path: path).image
        let tolerance = c.effectiveTolerance(crossDriver: other != nil)
        let cmp = ImageComparison.compare(expected: expected, actual: image, tolerance: tolerance)
        result.tolerance = tolerance
        result.golden = path
        result.goldenDriver = other ?? driver.shortName
        result.comparison = ComparisonFigures(cmp)
        let against = other.map { ", against \($0)'s golden, \(tolerance.summary)" } ?? ""
        let sizes = expected.width == image.width && expected.height == image.height
        let why = sizes ? cmp.summaryWithTolerance
            : "size \(image.width)×\(image.height), golden \(expected.width)×\(expected.height)"
        if cmp.passes {
            result.verdict = .passed
            result.message = "max diff \(cmp.maxChannelDifference)\(against)"
            if keepDiffs { try writeAll(c, expected: expected, goldenPath: path, actual: image, tolerance, &result) }
        } else if record {
            try writeGolden(image, to: ownPath)
            result.verdict = .recorded; result.golden = ownPath; result.goldenDriver = driver.shortName
            result.message = "recorded (golden changed: \(why)\(against)) → \(ownPath)"
        } else {
            result.verdict = .failed
            result.message = why + against
            try writeAll(c, expected: expected, goldenPath: path, actual: image, tolerance, &result)
        }
    }

    /// expected.png (the golden's own bytes), actual.png and diff.png in OUTPUT/NAME/.
    private func writeAll(_ c: GoldenCase, expected: Image, goldenPath: String, actual: Image,
                          _ tolerance: GoldenTolerance, _ result: inout GoldenCaseResult) throws {
        let dir = try artifactFolder(c.name)
        let e = FileSystem.resolve("expected.png", against: dir)
        try AtomicFile.write(try FileSystem.readBytes(path: goldenPath), to: e)
        result.golden = e
        result.actual = try writeArtifact(actual, c.name, "actual.png")
        result.diff = try writeArtifact(ImageComparison.diffImage(expected: expected, actual: actual, tolerance: tolerance),
                                        c.name, "diff.png")
    }

    private func writeArtifact(_ image: Image, _ name: String, _ file: String) throws -> String {
        let path = FileSystem.resolve(file, against: try artifactFolder(name))
        try PNGFile.write(image, to: path)
        return path
    }

    private func artifactFolder(_ name: String) throws -> String {
        let dir = FileSystem.resolve(name, against: outputDirectory)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Removes a previous run's images of this case (only the three files we write), so
    /// that stale diffs never sit beside a pass.
    private func clearArtifacts(_ name: String) {
        let dir = FileSystem.resolve(name, against: outputDirectory)
        guard FileSystem.entry(at: dir) == .folder else { return }
        for f in ["expected.png", "actual.png", "diff.png"] {
            try? FileManager.default.removeItem(atPath: FileSystem.resolve(f, against: dir))
        }
        _ = rmdir(dir) // only when empty: anything else a user put there stays
    }

    /// Goldens live in repositories: written small (zlib 9, adaptive filters), not fast.
    private func writeGolden(_ image: Image, to path: String) throws {
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
        try PNGFile.write(image, to: path, compression: 9)
    }
}
