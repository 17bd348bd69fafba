import Foundation
import Stipple
@testable import StippleGolden
import XCTest

/// Through the real `stipple test`: record modes, accepting from a failed run's
/// report, several accepted goldens, flaky cases, stale tolerances, nothing selected.
final class GoldenTeamTests: XCTestCase {
    private func goldenBytes(_ f: GoldenTestFolder) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: f.golden.path) {
            out[name] = try Data(contentsOf: f.golden.appendingPathComponent(name))
        }
        return out
    }

    func testRecordModes() throws {
        let f = try GoldenTestFolder(self)
        // never: nothing is written, missing goldens fail.
        var run = try f.test(["--record", "never"])
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        XCTAssertEqual(GoldenTestFolder.lines(run).filter { $0.hasPrefix("MISSING ") }.count, 5, run.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: f.golden.path), "never writes nothing")
        // missing (the default): recorded, and counted as recorded.
        run = try f.test(["--record", "missing"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(GoldenTestFolder.lines(run).last, "0 passed, 0 failed, 5 recorded")
        let driver = try f.recordedDriver()
        try f.breakCases(driver: driver)
        let before = try goldenBytes(f)
        run = try f.test(["--record", "never"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(try goldenBytes(f), before, "never rewrites nothing")
        // missing leaves failing goldens alone and writes the missing one.
        run = try f.test()
        XCTAssertEqual(GoldenTestFolder.lines(run).last, "1 passed, 3 failed, 1 recorded")
        // failed, selective by name: only the shifted case is run and rewritten.
        let colour = try Data(contentsOf: f.golden.appendingPathComponent("colour.\(driver).points.png"))
        run = try f.test(["--filter", "shift*", "--record", "failed"])
        XCTAssertEqual(run.status, 0, run.stdout)
        XCTAssertTrue(run.stdout.contains("running 1 case of 5"), run.stdout)
        XCTAssertTrue(try XCTUnwrap(GoldenTestFolder.line(run, "RECORDED shifted")).contains("golden changed"))
        XCTAssertEqual(GoldenTestFolder.lines(run).last, "0 passed, 0 failed, 1 recorded, 4 not run (in other shards, or left out by --filter)")
        XCTAssertEqual(try Data(contentsOf: f.golden.appendingPathComponent("colour.\(driver).points.png")), colour)
        // all: every image that differs from its golden is written; identical ones stay as they are.
        let pass = try Data(contentsOf: f.golden.appendingPathComponent("pass.\(driver).points.png"))
        run = try f.test(["--record", "all"])
        XCTAssertEqual(run.status, 0, run.stdout)
        XCTAssertNotNil(GoldenTestFolder.line(run, "RECORDED colour"), run.stdout)
        XCTAssertNotNil(GoldenTestFolder.line(run, "RECORDED flipped"), run.stdout)
        XCTAssertNotNil(GoldenTestFolder.line(run, "PASS pass"), run.stdout)
        XCTAssertEqual(try Data(contentsOf: f.golden.appendingPathComponent("pass.\(driver).points.png")), pass)
        // --record with no mode, even just before the folder, still means failed.
        try f.write("colour", stamps: "[[32, 24, 10, 0, 0, 0.9, 0.6, 0.1, 1]]")
        run = try TestSupport.stipple(["test", "--output", f.output.path, "--record", f.scripts.path])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertNotNil(GoldenTestFolder.line(run, "RECORDED colour"), run.stdout)
        run = try f.test(["--record", "never"])
        XCTAssertEqual(GoldenTestFolder.lines(run).last, "5 passed, 0 failed", run.stdout)
        // CI=true: missing behaves as never unless a mode is asked for.
        try FileManager.default.removeItem(at: f.golden.appendingPathComponent("pass.\(driver).points.png"))
        XCTAssertEqual(try f.test(ci: true).status, 1)
        XCTAssertEqual(try f.test(["--record", "missing"], ci: true).status, 0)
    }

    func testAcceptFromAFailedRunsReport() throws {
        let f = try GoldenTestFolder(self)
        XCTAssertEqual(try f.test().status, 0)
        let driver = try f.recordedDriver()
        try f.breakCases(driver: driver)
        let report = f.root.appendingPathComponent("ci.json")
        var run = try f.test(["--json", report.path], ci: true)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("\(report.path): JSON report of 5 cases\n"), "a line for each file written: \(run.stderr)")
        // What CI keeps as an artifact: the report and the output folder, unpacked elsewhere.
        let artifact = f.root.appendingPathComponent("artifact")
        try FileManager.default.createDirectory(at: artifact, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: report, to: artifact.appendingPathComponent("ci.json"))
        try FileManager.default.copyItem(at: f.output, to: artifact.appendingPathComponent("out"))
        let fail = try XCTUnwrap(GoldenTestFolder.line(run, "FAIL shifted: "))
        XCTAssertTrue(fail.contains("; to accept: stipple test --accept \(report.path) --output \(f.output.path) shifted; "), fail)

        // One case, by name: the accepted golden then passes; the others still fail.
        run = try TestSupport.stipple(["test", "--accept", report.path, "shifted"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(GoldenTestFolder.lines(run).first,
                       "ACCEPTED shifted: \(f.output.path)/shifted/actual.png → \(f.golden.path)/shifted.\(driver).points.png")
        run = try f.test(ci: true)
        XCTAssertNotNil(GoldenTestFolder.line(run, "PASS shifted"), run.stdout)
        XCTAssertEqual(GoldenTestFolder.lines(run).last, "2 passed, 2 failed, 1 missing", run.stdout)

        // A report made on another driver is refused: its images are not this golden's driver's.
        var other = try GoldenRunReport.load(path: report.path)
        let softpipe = DriverIdentity(platform: "surfaceless", vendor: "Mesa", renderer: driver == "softpipe" ? "llvmpipe" : "softpipe")
        other.driver = softpipe
        for i in other.cases.indices { other.cases[i].driver = softpipe }
        let otherPath = f.root.appendingPathComponent("other.json")
        try other.writeJSON(to: otherPath.path)
        let before = try goldenBytes(f)
        run = try TestSupport.stipple(["test", "--accept", otherPath.path, "colour"])
        XCTAssertEqual(run.status, 2, run.stdout)
        XCTAssertTrue(run.stderr.contains("case colour: the report's images were drawn by \(softpipe.shortName), but the golden "
                                          + "it was compared with, colour.\(driver).points.png, is \(driver)'s"), run.stderr)
        XCTAssertEqual(try goldenBytes(f), before, "nothing written")
        // A case that passed, or is unknown, is refused too.
        run = try TestSupport.stipple(["test", "--accept", report.path, "pass"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("case pass passed; nothing to accept"), run.stderr)
        run = try TestSupport.stipple(["test", "--accept", report.path, "nosuch"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("no case nosuch in this report"), run.stderr)
        // A broken report is a located error.
        let broken = f.root.appendingPathComponent("broken.json")
        try #"{ "driver": 3, "cases": [] }"#.write(to: broken, atomically: true, encoding: .utf8)
        run = try TestSupport.stipple(["test", "--accept", broken.path])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("broken.json:1:13: not a stipple test report (--json): expected "), run.stderr)

        // No names: every failed case of the report, from the artifact (the actual images are
        // found beside the report: the run's own output folder has moved on since).
        run = try TestSupport.stipple(["test", "--accept", artifact.appendingPathComponent("ci.json").path, "--golden", f.golden.path])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(GoldenTestFolder.lines(run).filter { $0.hasPrefix("ACCEPTED") }.count, 4, run.stdout)
        XCTAssertEqual(GoldenTestFolder.lines(run).last, "accepted 4 goldens for \(driver)")
        run = try f.test(ci: true)
        XCTAssertEqual(GoldenTestFolder.lines(run).last, "5 passed, 0 failed", run.stdout)
    }

    /// A later run on the same output folder (here: the case changed again) writes over the
    /// images a report points at: accepting that report refuses, naming the file, and writes
    /// nothing; the run's artifact, kept apart, is still accepted.
    func testAcceptTakesOnlyTheImageTheReportSaw() throws {
        let f = try GoldenTestFolder(self)
        XCTAssertEqual(try f.test().status, 0)
        let driver = try f.recordedDriver()
        try f.write("colour", stamps: "[[32, 24, 10, 0, 0, 0.9, 0.55, 0.1, 1]]")
        let report = f.root.appendingPathComponent("A.json")
        XCTAssertEqual(try f.test(["--json", report.path], ci: true).status, 1)
        let kept = f.root.appendingPathComponent("kept")
        try FileManager.default.copyItem(at: f.output, to: kept)
        try f.write("colour", stamps: "[[32, 24, 10, 0, 0, 0.2, 0.55, 0.9, 1]]")
        XCTAssertEqual(try f.test(ci: true).status, 1)
        let before = try goldenBytes(f)
        var run = try TestSupport.stipple(["test", "--accept", report.path, "colour"])
        XCTAssertEqual(run.status, 2, run.stdout)
        XCTAssertTrue(run.stderr.contains("case colour: \(f.output.path)/colour/actual.png is no longer the image this report "
                                          + "saw (a later run wrote over it); nothing was accepted."), run.stderr)
        XCTAssertEqual(try goldenBytes(f), before, "nothing written")
        run = try TestSupport.stipple(["test", "--accept", report.path, "--output", kept.path, "colour"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(GoldenTestFolder.lines(run).first,
                       "ACCEPTED colour: \(kept.path)/colour/actual.png → \(f.golden.path)/colour.\(driver).points.png")
    }

    /// A script's frame case and a file of that case's name would share one golden and one
    /// output folder: the run is refused before anything is drawn, naming both.
    func testTwoCasesOfOneNameAreRefused() throws {
        let f = try GoldenTestFolder(self)
        try f.write("signature", stamps: "[[20, 20, 6, 0, 0, 1, 0.2, 0.1, 1]]")
        try f.write("signature@frame-0010", stamps: "[[30, 20, 6, 0, 0, 1, 0.2, 0.1, 1]]")
        try #"{ "cases": { "signature": { "frames": [10, 40] } } }"#
            .write(to: f.scripts.appendingPathComponent("stipple-test.json"), atomically: true, encoding: .utf8)
        let run = try f.test()
        XCTAssertEqual(run.status, 2, run.stdout)
        XCTAssertTrue(run.stderr.contains("signature@frame-0010.json: two cases are named signature@frame-0010: signature.json "
                                          + "at frame 10 (stipple-test.json), and signature@frame-0010.json"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: f.golden.path), "nothing recorded")
    }

    /// SIGINT or SIGTERM in the middle of a run whose output goes to a file: the lines
    /// printed so far are in the file, no case starts after the signal, the JSON, JUnit and
    /// HTML reports are written for the cases that ran (marked interrupted, with the count
    /// not run), and the exit status is 128 + the signal.
    func testASignalStopsTheRunAndKeepsItsLogAndReports() throws {
        let f = try GoldenTestFolder(self, extraCases: 400)
        for (sig, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            try? FileManager.default.removeItem(at: f.golden)
            let log = f.root.appendingPathComponent("\(name).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let json = f.root.appendingPathComponent("\(name).json"), junit = f.root.appendingPathComponent("\(name).xml")
            let html = f.root.appendingPathComponent("\(name)-report")
            let process = Process()
            process.executableURL = TestSupport.stippleBinary
            process.arguments = ["test", f.scripts.path, "--output", f.output.path, "--record", "all", "--json", json.path,
                                 "--junit", junit.path, "--report", html.path]
            process.standardOutput = try FileHandle(forWritingTo: log)
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Once the first case's line is in the file (line-buffered, not held back).
            let deadline = Date().addingTimeInterval(60)
            while !((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("RECORDED"), Date() < deadline {
                usleep(5_000)
            }
            kill(process.processIdentifier, sig)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .exit, name)
            XCTAssertEqual(process.terminationStatus, 128 + sig, name)
            let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
            let report = try GoldenRunReport.load(path: json.path)
            XCTAssertEqual(report.interrupted, name)
            let ran = report.cases.count
            XCTAssertGreaterThan(ran, 0)
            XCTAssertEqual(ran + (report.notRun ?? 0), 405)
            XCTAssertLessThan(ran, 405, "the run stopped early")
            XCTAssertEqual(lines.filter { $0.hasPrefix("RECORDED") }.count, ran, "a line for each case that ran")
            XCTAssertEqual(lines.last, "0 passed, 0 failed, \(ran) recorded; interrupted by \(name): \(405 - ran) not run, "
                           + "reports written for the \(ran) cases that ran")
            let xml = try String(contentsOf: junit, encoding: .utf8)
            XCTAssertTrue(xml.contains("<property name=\"interrupted\" value=\"\(name)\"/>"), xml)
            XCTAssertTrue(xml.contains("tests=\"\(ran)\""), xml)
            let page = try String(contentsOf: html.appendingPathComponent("index.html"), encoding: .utf8)
            XCTAssertTrue(page.contains("interrupted by <b>\(name)</b>: \(405 - ran) not run"))
        }
    }

    /// A golden cut short is an error that says how to replace it, and --record failed or
    /// all replaces it with the run's image; the next run passes.
    func testACorruptGoldenIsReplacedByRecording() throws {
        let f = try GoldenTestFolder(self)
        XCTAssertEqual(try f.test().status, 0)
        let driver = try f.recordedDriver()
        for mode in ["failed", "all"] {
            let golden = f.golden.appendingPathComponent("colour.\(driver).points.png")
            try Data(try Data(contentsOf: golden).prefix(60)).write(to: golden)
            var run = try f.test()
            XCTAssertEqual(run.status, 2, run.stdout)
            let line = try XCTUnwrap(GoldenTestFolder.line(run, "ERROR colour: "), run.stdout)
            XCTAssertTrue(line.hasSuffix("; to replace it with this run's image, run the case with --record failed "
                                         + "(or delete the file and record it)"), line)
            XCTAssertEqual(GoldenTestFolder.lines(run).last, "4 passed, 0 failed, 1 error")
            run = try f.test(["--record", mode])
            XCTAssertEqual(run.status, 0, run.stdout)
            XCTAssertTrue(try XCTUnwrap(GoldenTestFolder.line(run, "RECORDED colour: "))
                .contains("recorded (replacing the unreadable golden \(golden.path):byte 60: not a readable PNG"), run.stdout)
            XCTAssertEqual(try f.test().status, 0, mode)
        }
    }

    /// A second run on the same folders while one runs is refused, saying why; a run with its
    /// own --output and --golden goes ahead.
    func testTwoRunsAtOnceOnOneFolderAreRefused() throws {
        let f = try GoldenTestFolder(self, extraCases: 400)
        let first = Process()
        first.executableURL = TestSupport.stippleBinary
        first.arguments = ["test", f.scripts.path, "--output", f.output.path, "--record", "all"]
        // Whatever CI says where this suite runs: the run records, so its lines say RECORDED.
        first.environment = ProcessInfo.processInfo.environment.merging(["CI": "false"]) { $1 }
        let out = Pipe()
        first.standardOutput = out
        first.standardError = FileHandle.nullDevice
        try first.run()
        // Its first case's line: it holds its folders now.
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("RECORDED"), first.isRunning {
            seen.append(out.fileHandleForReading.availableData)
        }
        XCTAssertTrue(first.isRunning, "the first run is still going: \(String(decoding: seen, as: UTF8.self).suffix(300))")
        let second = try f.test()
        let apart = try TestSupport.stipple(["test", f.scripts.path, "--output", f.root.appendingPathComponent("out2").path,
                                             "--golden", f.root.appendingPathComponent("golden2").path, "--filter", "pass",
                                             "--record", "all"])
        first.terminate()
        _ = out.fileHandleForReading.readDataToEndOfFile()
        first.waitUntilExit()
        XCTAssertEqual(second.status, 2, second.stdout)
        XCTAssertTrue(second.stderr.contains("\(f.output.path): another stipple test is running with this --output folder now"),
                      second.stderr)
        XCTAssertEqual(apart.status, 0, apart.stdout + apart.stderr)
    }

    /// Goldens no case has the name of are listed after the run, and removed with --prune;
    /// other files in the golden folder are listed and left alone.
    func testOrphanGoldensAreListedAndPruned() throws {
        let f = try GoldenTestFolder(self)
        XCTAssertEqual(try f.test().status, 0)
        let driver = try f.recordedDriver()
        try FileManager.default.moveItem(at: f.scripts.appendingPathComponent("colour.json"),
                                         to: f.scripts.appendingPathComponent("hue.json"))
        try Data("notes".utf8).write(to: f.golden.appendingPathComponent("README.txt"))
        var run = try f.test(ci: true)
        XCTAssertEqual(run.status, 1, "hue has no golden")
        XCTAssertTrue(GoldenTestFolder.lines(run).contains("1 orphan golden in \(f.golden.path) (no case of \(f.scripts.path) "
                                                           + "has their names; --prune removes them): colour.\(driver).points.png"),
                      run.stdout)
        XCTAssertTrue(GoldenTestFolder.lines(run).contains("1 file in \(f.golden.path) is not a golden "
                                                           + "(NAME.DRIVER.PRIMITIVE.png), left alone: README.txt"), run.stdout)
        run = try f.test(["--prune"])
        XCTAssertEqual(run.status, 0, run.stdout)
        XCTAssertTrue(GoldenTestFolder.lines(run).contains("pruned 1 orphan golden (no case of \(f.scripts.path) has their names): "
                                                           + "colour.\(driver).points.png"), run.stdout)
        let left = try FileManager.default.contentsOfDirectory(atPath: f.golden.path)
        XCTAssertFalse(left.contains("colour.\(driver).points.png"))
        XCTAssertTrue(left.contains("README.txt"))
        XCTAssertTrue(left.contains("hue.\(driver).points.png"))
    }

    func testSeveralAcceptedGoldensPassOnEither() throws {
        let f = try GoldenTestFolder(self)
        XCTAssertEqual(try f.test().status, 0)
        let driver = try f.recordedDriver()
        let original = "[[32, 24, 10, 0, 0, 0.9, 0.5, 0.1, 1]]", noisy = "[[32, 24, 10, 0, 0, 0.9, 0.55, 0.1, 1]]"
        try f.write("colour", stamps: noisy)
        let report = f.root.appendingPathComponent("r.json")
        XCTAssertEqual(try f.test(["--json", report.path]).status, 1)
        var run = try TestSupport.stipple(["test", "--accept", report.path, "--add", "colour"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(try XCTUnwrap(GoldenTestFolder.lines(run).first)
            .hasSuffix("colour.\(driver).points~2.png (added beside colour.\(driver).points.png)"), run.stdout)
        run = try f.test()
        XCTAssertEqual(try XCTUnwrap(GoldenTestFolder.line(run, "PASS colour")),
                       "PASS colour (max diff 0 (matched colour.\(driver).points~2.png, 2 accepted))")
        try f.write("colour", stamps: original)
        run = try f.test()
        XCTAssertEqual(try XCTUnwrap(GoldenTestFolder.line(run, "PASS colour")),
                       "PASS colour (max diff 0 (matched colour.\(driver).points.png, 2 accepted))")
        // A third look, accepted without --add, replaces both.
        try f.write("colour", stamps: "[[32, 24, 10, 0, 0, 0.2, 0.5, 0.1, 1]]")
        XCTAssertEqual(try f.test(["--json", report.path]).status, 1)
        run = try f.test(["--json", report.path])
        XCTAssertTrue(try XCTUnwrap(GoldenTestFolder.line(run, "FAIL colour")).contains("closest of 2 accepted goldens"), run.stdout)
        run = try TestSupport.stipple(["test", "--accept", report.path])
        XCTAssertTrue(run.stdout.contains("(replacing; removed colour.\(driver).points~2.png)"), run.stdout)
        XCTAssertEqual(try f.test().status, 0)
        try f.write("colour", stamps: original)
        XCTAssertEqual(try f.test().status, 1, "the replaced goldens no longer pass")
    }

    func testANondeterministicCaseIsFlaky() throws {
        let f = try GoldenTestFolder(self)
        XCTAssertEqual(try f.test().status, 0)
        let json = f.root.appendingPathComponent("r.json"), junit = f.root.appendingPathComponent("j.xml")
        let html = f.root.appendingPathComponent("html")
        let run = try TestSupport.stipple(["test", f.scripts.path, "--output", f.output.path, "--json", json.path,
                                           "--junit", junit.path, "--report", html.path],
                                          environment: ["STIPPLE_TEST_NONDETERMINISTIC": "shifted", "CI": "true"])
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        let line = try XCTUnwrap(GoldenTestFolder.line(run, "FLAKY shifted: "), run.stdout)
        XCTAssertTrue(line.contains("two renders of the case differ"), line)
        XCTAssertEqual(GoldenTestFolder.lines(run).last, "4 passed, 0 failed, 1 flaky")
        let r = try GoldenRunReport.load(path: json.path)
        let c = try XCTUnwrap(r.cases.first { $0.name == "shifted" })
        XCTAssertEqual(c.verdict, .flaky)
        XCTAssertNotNil(c.renderDifference)
        XCTAssertTrue(FileManager.default.fileExists(atPath: try XCTUnwrap(c.secondActual)))
        let j = try JUnitCounter.parse(junit)
        XCTAssertEqual(j.properties["flaky"], "1")
        XCTAssertEqual(j.failures.filter { $0["type"] == "flaky" }.count, 1)
        let page = try String(contentsOf: html.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("<b>1</b> flaky"), "the HTML counts flaky cases apart")
        XCTAssertTrue(page.contains("badge v-flaky"))
        // Not something to accept.
        let accept = try TestSupport.stipple(["test", "--accept", json.path, "shifted"])
        XCTAssertEqual(accept.status, 2)
        XCTAssertTrue(accept.stderr.contains("is flaky"), accept.stderr)
    }

    func testAnOverLooseToleranceIsListedWithTheTightValue() throws {
        let f = try GoldenTestFolder(self)
        try #"{ "cases": { "colour": { "tolerance": { "maxChannelDiff": 40, "maxPixels": "1%" } } } }"#
            .write(to: f.scripts.appendingPathComponent("stipple-test.json"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try f.test().status, 0)
        try f.breakCases(driver: try f.recordedDriver())
        let json = f.root.appendingPathComponent("r.json"), html = f.root.appendingPathComponent("html")
        let run = try f.test(["--json", json.path, "--report", html.path])
        XCTAssertNotNil(GoldenTestFolder.line(run, "PASS colour"), run.stdout)
        let page = try String(contentsOf: html.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("<b>1</b> tolerance looser than needed"), "the HTML counts it")
        XCTAssertTrue(page.contains("<dt>looser than needed; tight</dt>"), "and shows it on the case")
        let lines = GoldenTestFolder.lines(run)
        let header = try XCTUnwrap(lines.firstIndex(of: "tolerances looser than this run needed (tighten them, or list several goldens):"), run.stdout)
        let listed = lines[(header + 1)...].filter { $0.hasPrefix("  ") }
        XCTAssertEqual(listed.count, 1, run.stdout)
        XCTAssertTrue(listed[0].hasPrefix("  colour: configured K 40, P 0 + 1.0 %; tight: K "), listed[0])
        XCTAssertTrue(listed[0].hasSuffix(", or P 0 at the configured threshold"), listed[0])
        // The tight K: the colour change is 13 at most, and P (1 % of 3072 = 30 pixels) may be beyond it.
        let c = try XCTUnwrap(GoldenRunReport.load(path: json.path).cases.first { $0.name == "colour" })
        let figures = try XCTUnwrap(c.comparison)
        let k = try XCTUnwrap(Int(try XCTUnwrap(c.tightTolerance?.split(separator: " ")[1].dropLast())))
        XCTAssertTrue(k <= figures.maxChannelDifference && k < 40, "\(k)")
    }

    func testNothingSelectedIsNotAPass() throws {
        let empty = try TestSupport.temporaryDirectory(self, "empty")
        var run = try TestSupport.stipple(["test", empty.path])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr, "stipple: error: \(empty.path): no test scripts (*.json) in this folder: nothing was tested, which is not a pass\n")
        let f = try GoldenTestFolder(self)
        run = try f.test(["--filter", "nosuch*"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("--filter nosuch* matches none of the cases (5 cases in all: colour, flipped, missing, pass, shifted): nothing was tested"), run.stderr)
        run = try f.test(["--filter", "pass", "--shard", "2/2"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("shard 2/2 selects none of the cases (1 case in all): nothing was tested"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: f.golden.path), "nothing ran, nothing was recorded")
    }

    func testACopiedScriptSaysWhichFileItExpectedAndWhere() throws {
        let dir = try TestSupport.temporaryDirectory(self, "copied")
        try FileManager.default.copyItem(at: TestSupport.fixtures.appendingPathComponent("scripts/grey-brush.json"),
                                         to: dir.appendingPathComponent("grey-brush.json"))
        let run = try TestSupport.stipple(["test", dir.path, "--output", dir.appendingPathComponent("out").path])
        XCTAssertEqual(run.status, 2)
        let line = try XCTUnwrap(GoldenTestFolder.line(run, "ERROR grey-brush: "), run.stdout)
        XCTAssertTrue(line.contains("brush \"grey\": file not found: \(dir.path)/../brushes/grey-l.png (the script names "
                                    + "\"../brushes/grey-l.png\", outside its own folder, so it was looked for at "
                                    + "\(dir.deletingLastPathComponent().path)/brushes/grey-l.png"), line)
    }
}
