import Stipple
import Foundation

/// Checks one rendered image against its goldens and decides the verdict: the rules the
/// command line (`stipple test`) and the test API (`assertGolden`) share.
///
/// - This driver's goldens are compared with the case's tolerance (`.exact` by default);
///   the case passes when it matches any of them (`NAME…png`, `~2`, `~3`…), and says which.
/// - For quads, another driver's goldens stand in, with `.crossDriver` tolerance by default.
/// - For points, other drivers' goldens cannot stand in (they place points differently):
///   the verdict says so plainly.
/// - A failing image is rendered a second time: if the two renders differ the verdict is
///   `flaky` (a determinism bug), and nothing is recorded.
/// - What is written follows `record` (`GoldenRecordMode`); an unchanged golden's file is
///   never rewritten.
/// - A failure writes `OUTPUT/NAME/expected.png, actual.png, diff.png` (`keepDiffs`: for
///   passing cases too; `flaky`: actual.png, actual-2.png and their diff.png).
public struct GoldenCheck: Sendable {
    /// The goldens.
    public var store: GoldenStore
    /// Failure images go to `outputDirectory/NAME/`.
    public var outputDirectory: String
    /// The driver rendering now: whose goldens are this driver's own.
    public var driver: DriverIdentity
    /// When goldens are written.
    public var record: GoldenRecordMode
    /// Write expected, actual and diff images for passing cases too.
    public var keepDiffs: Bool
    /// How a person accepts one case's image: set on failing results' `acceptCommand`.
    public var acceptCommand: (@Sendable (GoldenCaseResult) -> String?)?

    /// A check against `store`, failure images under `outputDirectory`.
    public init(store: GoldenStore, outputDirectory: String, driver: DriverIdentity, record: GoldenRecordMode = .missing,
                keepDiffs: Bool = false, acceptCommand: (@Sendable (GoldenCaseResult) -> String?)? = nil) {
        self.store = store; self.outputDirectory = outputDirectory; self.driver = driver
        self.record = record; self.keepDiffs = keepDiffs; self.acceptCommand = acceptCommand
    }

    /// True when the environment says this is a CI run (`CI=true`, or `CI=1`).
    public static func isCI(_ environment: [String: String]) -> Bool {
        guard let v = environment["CI"]?.lowercased() else { return false }
        return v == "true" || v == "1" || v == "yes"
    }

    /// Renders (with `render`, again when the first image fails), checks and records.
    public func check(_ c: GoldenCase, started: Date = Date(), render: () async throws -> Image) async -> GoldenCaseResult {
        let me = driver.shortName
        let own = store.path(name: c.name, driver: me, primitive: c.primitive)
        var result = GoldenCaseResult(name: c.name, script: c.scriptPath, frame: c.frame, primitive: c.primitive.rawValue,
                                      verdict: .passed, message: "", tolerance: c.effectiveTolerance(crossDriver: false),
                                      driver: driver)
        result.goldenPath = own
        clearArtifacts(c.name)
        do {
            let image = GoldenTestHooks.afterRender(c.name, try await render())
            let p = c.primitive.rawValue
            switch store.lookup(name: c.name, driver: me, primitive: c.primitive) {
            case .none:
                if record == .never {
                    result.verdict = .missing
                    try keepActual(image, c.name, &result)
                    result.message = "no golden \(own); record mode \"never\" (CI=true, or asked), so nothing was written"
                } else {
                    try writeGolden(image, to: own)
                    result.verdict = .recorded; result.golden = own
                    result.message = "recorded (no golden existed) → \(own)"
                }
            case let .onlyOtherDrivers(others):
                let list = others.joined(separator: ", ")
                if record == .failed || record == .all {
                    try writeGolden(image, to: own)
                    result.verdict = .recorded; result.golden = own
                    result.message = "recorded \(me)'s \(p) golden (goldens exist for \(list)) → \(own)"
                } else {
                    result.verdict = .noGoldenForDriver
                    try keepActual(image, c.name, &result)
                    result.message = "no \(p) golden for \(me); goldens exist for \(list)"
                        + (c.primitive == .points ? " (each driver places points its own way, so points goldens are "
                           + "per driver; quads goldens are shared across drivers: --primitive quads, or \"primitive\": "
                           + "\"quads\" in stipple-test.json)" : "")
                }
            case let .own(paths):
                try await compare(c, image, goldens: paths, from: nil, ownPath: own, render: render, into: &result)
            case let .otherDriver(paths, other):
                try await compare(c, image, goldens: paths, from: other, ownPath: own, render: render, into: &result)
            }
        } catch {
            result.verdict = .error
            result.message = OutputFile.describe(error)
        }
        if [.failed, .missing, .noGoldenForDriver].contains(result.verdict) {
            result.acceptCommand = acceptCommand?(result)
        }
        result.seconds = Date().timeIntervalSince(started)
        return result
    }

    private func compare(_ c: GoldenCase, _ image: Image, goldens paths: [String], from other: String?, ownPath: String,
                         render: () async throws -> Image, into result: inout GoldenCaseResult) async throws {
        let tolerance = c.effectiveTolerance(crossDriver: other != nil)
        result.tolerance = tolerance
        result.goldenDriver = other ?? driver.shortName
        // The first golden the image matches; else the closest (fewest pixels beyond the tolerance).
        var best: (path: String, expected: Image, cmp: ImageComparison)?
        var unreadable: [(path: String, error: Error)] = []
        for path in paths {
            let expected: Image
            do { expected = try PNGFile.read(path: path).image } catch {
                unreadable.append((path, error))
                continue
            }
            let cmp = ImageComparison.compare(expected: expected, actual: image, tolerance: tolerance)
            if best == nil || (cmp.passes && !best!.cmp.passes)
                || (!best!.cmp.passes && cmp.pixelsOverTolerance < best!.cmp.pixelsOverTolerance) {
                best = (path, expected, cmp)
            }
            if cmp.passes { break }
        }
        if let bad = unreadable.first, best?.cmp.passes != true {
            // A golden that cannot be read (cut short, not a PNG) is this driver's to replace.
            if other == nil, record == .failed || record == .all {
                try writeGolden(image, to: ownPath)
                for u in unreadable where u.path != ownPath { try FileManager.default.removeItem(atPath: u.path) }
                result.verdict = .recorded; result.golden = ownPath; result.goldenPath = ownPath
                result.message = "recorded (replacing the unreadable golden \(OutputFile.describe(bad.error))) → \(ownPath)"
                return
            }
            let hint = "; " + (other == nil ? "to replace it with this run's image, run the case with --record failed "
                                + "(or delete the file and record it)"
                                : "it is \(other!)'s golden: replace it on \(other!), or record \(driver.shortName)'s own "
                                + "with --record failed")
            if let e = bad.error as? InputError { throw InputError(file: e.file, location: e.location, e.message + hint) }
            throw InputError(file: bad.path, OutputFile.describe(bad.error) + hint)
        }
        let (path, expected, cmp) = best!
        result.golden = path; result.goldenPath = path
        result.comparison = ComparisonFigures(cmp)
        let against = other.map { ", against \($0)'s golden, \(tolerance.summary)" } ?? ""
        let which = paths.count > 1 ? " (matched \(URL(fileURLWithPath: path).lastPathComponent), \(paths.count) accepted)" : ""
        if cmp.passes {
            if record == .all && !(path == ownPath && expected == image) {
                try writeGolden(image, to: ownPath)
                result.verdict = .recorded; result.golden = ownPath; result.goldenPath = ownPath; result.goldenDriver = driver.shortName
                result.message = "recorded (record mode \"all\"; the image passed, within tolerance) → \(ownPath)"
                return
            }
            result.verdict = .passed
            result.message = "max diff \(cmp.maxChannelDifference)\(against)\(which)"
            if c.tolerance != nil { result.tightTolerance = cmp.looserThanNeeded }
            if keepDiffs { try writeAll(c, expected: expected, goldenPath: path, actual: image, tolerance, &result) }
            return
        }
        // Failed: is it the image, or the renderer? A second render must be identical.
        let second = GoldenTestHooks.afterRender(c.name, try await render())
        if second != image {
            let (d, diff) = ImageComparison.compareWithDiff(expected: image, actual: second, tolerance: .exact)
            result.verdict = .flaky
            result.renderDifference = ComparisonFigures(d)
            try keepActual(image, c.name, &result)
            result.secondActual = try writeArtifact(second, c.name, "actual-2.png")
            result.diff = try writeArtifact(diff, c.name, "diff.png")
            result.message = "two renders of the case differ (\(d.summary)): nondeterministic rendering, "
                + "a determinism bug; nothing recorded; against its golden: \(cmp.summaryWithTolerance)"
            return
        }
        let sizes = expected.width == image.width && expected.height == image.height
        let why = sizes ? cmp.summaryWithTolerance
            : "size \(image.width)×\(image.height), golden \(expected.width)×\(expected.height)"
        if record == .failed || record == .all {
            try writeGolden(image, to: ownPath)
            result.verdict = .recorded; result.golden = ownPath; result.goldenPath = ownPath; result.goldenDriver = driver.shortName
            result.message = "recorded (golden changed: \(why)\(against)) → \(ownPath)"
        } else {
            result.verdict = .failed
            result.message = why + against + (paths.count > 1 ? " (closest of \(paths.count) accepted goldens: "
                                                  + URL(fileURLWithPath: path).lastPathComponent + ")" : "")
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
        try keepActual(actual, c.name, &result)
        result.diff = try writeArtifact(ImageComparison.diffImage(expected: expected, actual: actual, tolerance: tolerance),
                                        c.name, "diff.png")
    }

    /// Writes the actual image and records where, and its content digest (what `--accept`
    /// checks before taking it).
    private func keepActual(_ image: Image, _ name: String, _ result: inout GoldenCaseResult) throws {
        result.actual = try writeArtifact(image, name, "actual.png")
        result.actualDigest = image.contentDigest
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

    /// Removes a previous run's images of this case (only the files we write), so that
    /// stale diffs never sit beside a pass.
    private func clearArtifacts(_ name: String) {
        let dir = FileSystem.resolve(name, against: outputDirectory)
        guard FileSystem.entry(at: dir) == .folder else { return }
        for f in ["expected.png", "actual.png", "actual-2.png", "diff.png"] {
            try? FileManager.default.removeItem(atPath: FileSystem.resolve(f, against: dir))
        }
        _ = rmdir(dir) // only when empty: anything else a user put there stays
    }

    /// Goldens live in repositories: written small (zlib 9, adaptive filters), not fast.
    func writeGolden(_ image: Image, to path: String) throws {
        try GoldenCheck.writeGolden(image, to: path)
    }

    /// Writes `image` as a golden at `path` (folders made as needed), small: zlib level 9.
    public static func writeGolden(_ image: Image, to path: String) throws {
        try FileManager.default.createDirectory(atPath: FileSystem.folder(of: path), withIntermediateDirectories: true)
        try PNGFile.write(image, to: path, compression: 9)
    }
}
