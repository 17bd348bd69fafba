import Foundation
import XCTest

/// StippleTesting as a user meets it, through a separate SwiftPM package that depends on Stipple by path
/// (Fixtures/consumer-package), built and tested with `swift test` as a user would: two calls
/// in one test, a parameterized test, a duplicate name, the record modes, two accepted goldens,
/// a nondeterministic case, an over-loose tolerance, the three PNG attachments of a failure
/// in Swift Testing (`swift test --attachments-path`), and ink read, rendered and made into a dataset
/// through the public ink API (ConsumerInkTests.swift).
///
/// The package is copied to .build-consumer/package (two folders below the root, so its
/// "../.." is Stipple) and built in .build-consumer/scratch, kept between runs: the first
/// `swift test` ever builds Stipple once more (about 100 s on two cores), later ones only
/// check it (about 15 s). The first step runs `swift test`, as a user would; the others run
/// the test bundle it built directly (`--testing-library swift-testing`), each in a second.
/// Skipped when `swift` is not on PATH, or with STIPPLE_SKIP_CONSUMER_PACKAGE=1.
final class ConsumerPackageTests: XCTestCase {
    let root = TestSupport.packageRoot
    private var builtOnce = false
    var work: URL { root.appendingPathComponent(".build-consumer") }
    var package: URL { work.appendingPathComponent("package") }
    var goldens: URL { package.appendingPathComponent("Tests/ConsumerTests/__Goldens__/ConsumerGoldenTests") }

    func testConsumerPackageGoldens() throws {
        if ProcessInfo.processInfo.environment["STIPPLE_SKIP_CONSUMER_PACKAGE"] == "1" {
            throw XCTSkip("STIPPLE_SKIP_CONSUMER_PACKAGE=1")
        }
        guard let swift = Self.onPath("swift") else {
            throw XCTSkip("`swift` is not on PATH: the consumer package (Fixtures/consumer-package) cannot be built")
        }
        try prepare()
        let started = Date()

        // 1. Fresh: every golden recorded, named after the test and the call's order, one per argument.
        var run = try swiftTest(swift, [:])
        XCTAssertEqual(run.status, 0, String(run.stdout.suffix(4000)) + String(run.stderr.suffix(2000)))
        assertNoWarningsOfStipple(run)
        XCTAssertTrue((run.stdout + run.stderr).contains("Test inkFromSwift() passed"), "the ink API from a user's package: "
                      + String((run.stdout + run.stderr).suffix(3000)))
        XCTAssertTrue((run.stdout + run.stderr).contains("Test viewsFromSwift() passed"), "views from a user's package: "
                      + String((run.stdout + run.stderr).suffix(3000)))
        print(String(format: "consumer package: first swift test (build included) %.1f s", Date().timeIntervalSince(started)))
        let names = ["flaky-case", "look", "loose", "sizes-4.1", "sizes-7.1", "twoCalls.1", "twoCalls.2"]
        let d = try driver()
        XCTAssertEqual(try files(), names.map { "\($0).\(d).points.png" }.sorted(), "under __Goldens__/ConsumerGoldenTests/")
        let recorded = try bytes()

        // 2. never, with a duplicate name and a nondeterministic case: both refused, nothing rewritten.
        let t2 = Date()
        run = try swiftTest(swift, ["STIPPLE_RECORD": "never", "CONSUMER_DUPLICATE": "1",
                                    "STIPPLE_TEST_NONDETERMINISTIC": "flaky-case"])
        print(String(format: "consumer package: a later run of the built tests %.1f s", Date().timeIntervalSince(t2)))
        let out = run.stdout + run.stderr
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(out.contains("two checks resolve to one golden"), out)
        XCTAssertTrue(out.contains("the first at ConsumerGoldenTests.swift:47:23 in duplicate(), this one at "
                                   + "ConsumerGoldenTests.swift:49:23 in duplicate()"), out)
        XCTAssertTrue(out.contains("FLAKY flaky-case: two renders of the case differ"), out)
        XCTAssertTrue(out.contains("tolerance K 60, P 20 is looser than this run needed; tight: K 0"), out)
        var now = try bytes()
        XCTAssertEqual(now["same.\(d).points.png"], recorded["twoCalls.1.\(d).points.png"],
                       "the first call's image (x 8) was kept; the duplicate (x 20, record all) wrote nothing")
        now["same.\(d).points.png"] = nil
        XCTAssertEqual(now, recorded, "never rewrites nothing")

        // 3. A failure in Swift Testing, run as `swift test --attachments-path DIR`: the expected,
        // actual and diff images are the test's three PNG attachments, named for the golden.
        let attachments = work.appendingPathComponent("attachments")
        try? FileManager.default.removeItem(at: attachments)
        try FileManager.default.createDirectory(at: attachments, withIntermediateDirectories: true)
        run = try swiftTest(swift, ["CONSUMER_SHIFT": "1", "STIPPLE_RECORD": "never"], filter: "look",
                            extra: ["--attachments-path", attachments.path], build: true)
        XCTAssertNotEqual(run.status, 0, "the shifted look fails")
        assertNoWarningsOfStipple(run)
        try assertAttachments(in: attachments, named: "look", run)

        // 4. failed, for one golden by name: only it is rewritten; the others fail, saying how to accept each.
        run = try swiftTest(swift, ["CONSUMER_SHIFT": "1", "STIPPLE_RECORD": "failed", "STIPPLE_RECORD_FILTER": "twoCalls.1"])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue((run.stdout + run.stderr).contains("RECORDED twoCalls.1: recorded (golden changed"), run.stdout)
        XCTAssertTrue((run.stdout + run.stderr).contains("STIPPLE_RECORD=failed STIPPLE_RECORD_FILTER='twoCalls.2'"), run.stdout)
        now = try bytes()
        for (file, data) in recorded {
            XCTAssertEqual(now[file] != data, file.hasPrefix("twoCalls.1."), file)
        }

        // 5. all: every image that changed is written; then the run passes.
        run = try swiftTest(swift, ["CONSUMER_SHIFT": "1", "STIPPLE_RECORD": "all"])
        XCTAssertEqual(run.status, 0, String(run.stdout.suffix(3000)))
        now = try bytes()
        for file in recorded.keys { XCTAssertNotEqual(now[file], recorded[file], file) }

        // 6. Two accepted goldens: the unshifted look back as the first, the shifted one as ~2; either passes.
        let first = goldens.appendingPathComponent("look.\(d).points.png")
        try FileManager.default.moveItem(at: first, to: goldens.appendingPathComponent("look.\(d).points~2.png"))
        try recorded["look.\(d).points.png"]!.write(to: first)
        for shift in ["0", "1"] {
            run = try swiftTest(swift, ["CONSUMER_SHIFT": shift, "STIPPLE_RECORD": "never"], filter: "look")
            XCTAssertEqual(run.status, 0, "shift \(shift): " + String(run.stdout.suffix(3000)))
        }
        print(String(format: "consumer package: swift test and 6 runs of its tests, %.1f s in all", Date().timeIntervalSince(started)))
    }

    // MARK: Helpers

    /// A user's build shows no warning of Stipple's: none from its sources or headers (when
    /// they compile), none about the package layout the docs give.
    private func assertNoWarningsOfStipple(_ run: TestSupport.Run, file: StaticString = #filePath, line: UInt = #line) {
        let warnings = (run.stdout + run.stderr).split(separator: "\n")
            .filter { $0.contains("warning:") && ($0.contains(root.appendingPathComponent("Sources").path) || $0.contains("Invalid Exclude")) }
        XCTAssertEqual(warnings, [], file: file, line: line)
    }

    /// Copies the package's files where they differ (unchanged sources keep their build), and
    /// removes goldens a previous run left.
    private func prepare() throws {
        let fm = FileManager.default
        let source = root.appendingPathComponent("Fixtures/consumer-package")
        let goldenFolder = package.appendingPathComponent("Tests/ConsumerTests/__Goldens__")
        try? fm.removeItem(at: goldenFolder)
        // As the docs tell users: the excluded folder exists from the start (a hidden file
        // keeps it in git), so SwiftPM never warns that it is missing.
        try fm.createDirectory(at: goldenFolder, withIntermediateDirectories: true)
        try Data().write(to: goldenFolder.appendingPathComponent(".gitkeep"))
        for rel in ["Package.swift", "Tests/ConsumerTests/ConsumerGoldenTests.swift", "Tests/ConsumerTests/ConsumerInkTests.swift",
                    "Tests/ConsumerTests/ConsumerViewTests.swift"] {
            let from = source.appendingPathComponent(rel), to = package.appendingPathComponent(rel)
            let data = try Data(contentsOf: from)
            if (try? Data(contentsOf: to)) != data {
                try fm.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: to)
            }
        }
        // The same pins as Stipple's own build, so nothing needs resolving anew.
        let resolved = root.appendingPathComponent("Package.resolved")
        if fm.fileExists(atPath: resolved.path), !fm.fileExists(atPath: package.appendingPathComponent("Package.resolved").path) {
            try fm.copyItem(at: resolved, to: package.appendingPathComponent("Package.resolved"))
        }
    }

    /// `swift test` the first time; then the test bundle that built, run directly.
    /// `build: true` goes through `swift test` again (a check of the build, then the run), as
    /// a user who adds `extra` options to it would.
    private func swiftTest(_ swift: String, _ env: [String: String], filter: String? = nil, extra: [String] = [],
                           build: Bool = false) throws -> TestSupport.Run {
        let process = Process()
        let scratch = work.appendingPathComponent("scratch")
        let bundle = scratch.appendingPathComponent("debug/StippleConsumerPackageTests.xctest")
        if builtOnce && !build && FileManager.default.isExecutableFile(atPath: bundle.path) {
            process.executableURL = bundle
            process.arguments = ["--testing-library", "swift-testing"] + (filter.map { ["--filter", $0] } ?? []) + extra
            process.currentDirectoryURL = package
        } else {
            process.executableURL = URL(fileURLWithPath: swift)
            // No cached build manifest: a source file added to Stipple since the last run of this
            // test (the scratch folder persists) would otherwise be left out of the build.
            process.arguments = ["test", "--package-path", package.path, "--scratch-path", scratch.path,
                                 "--disable-build-manifest-caching"]
                + (filter.map { ["--filter", $0] } ?? []) + extra
            builtOnce = true
        }
        var environment = ProcessInfo.processInfo.environment
        for k in ["STIPPLE_RECORD", "STIPPLE_RECORD_FILTER", "STIPPLE_TEST_NONDETERMINISTIC", "CONSUMER_SHIFT", "CONSUMER_DUPLICATE"] {
            environment[k] = nil
        }
        environment["CI"] = "false"
        environment["NO_COLOR"] = "1"
        environment["STIPPLE_TEST_OUTPUT"] = work.appendingPathComponent("out").path
        for (k, v) in env { environment[k] = v }
        process.environment = environment
        let outURL = work.appendingPathComponent("swift-test.out"), errURL = work.appendingPathComponent("swift-test.err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(1200)
        while process.isRunning && Date() < deadline { usleep(100_000) }
        if process.isRunning { process.terminate(); process.waitUntilExit(); XCTFail("swift test took over 20 minutes") }
        return TestSupport.Run(status: process.terminationStatus,
                               stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                               stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }

    /// One PNG file for each of the golden's expected, actual and diff images, and no others.
    private func assertAttachments(in directory: URL, named name: String, _ run: TestSupport.Run) throws {
        let found = (FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? []).sorted()
        let context = "attachments: \(found)\n" + String((run.stdout + run.stderr).suffix(3000))
        XCTAssertEqual(found.filter { $0.hasSuffix(".png") }.count, 3, context)
        for role in ["expected", "actual", "diff"] {
            let matches = found.filter { $0.hasSuffix("\(name).\(role).png") }
            XCTAssertEqual(matches.count, 1, "\(role): " + context)
            guard let file = matches.first else { continue }
            let data = try Data(contentsOf: directory.appendingPathComponent(file))
            XCTAssertEqual(Array(data.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "\(file) is a PNG")
        }
    }

    private func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: goldens.path).sorted() }

    private func bytes() throws -> [String: Data] {
        var out: [String: Data] = [:]
        for f in try files() { out[f] = try Data(contentsOf: goldens.appendingPathComponent(f)) }
        return out
    }

    /// The driver the goldens are named for (llvmpipe here; whatever EGL gives elsewhere).
    private func driver() throws -> String {
        try XCTUnwrap(files().first?.split(separator: ".").dropLast(2).last.map(String.init))
    }

    static func onPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
