import Foundation
import Stipple
@testable import StippleGolden
import XCTest

/// Cross-driver goldens on real drivers: quads goldens recorded on llvmpipe
/// pass on softpipe with the default tolerance (K 8, P 32 + 0.1 %), while a 1 px shift
/// or a flipped brush never does; points goldens of llvmpipe are not used on softpipe (it
/// says so plainly), and --record adds softpipe's own.
final class GoldenCrossDriverTests: XCTestCase {
    func softpipeAvailable() throws {
        let info = try TestSupport.stipple(["info"], environment: ["GALLIUM_DRIVER": "softpipe"])
        try XCTSkipUnless(info.status == 0 && info.stdout.contains("softpipe"),
                          "softpipe is not available here (GALLIUM_DRIVER=softpipe): \(info.stderr)")
        let here = try TestSupport.stipple(["info"])
        try XCTSkipUnless(here.stdout.contains("llvmpipe"), "the default driver is not llvmpipe")
    }

    func testQuadsGoldensOfLlvmpipePassOnSoftpipeAndShiftsAndFlipsNeverDo() throws {
        try softpipeAvailable()
        let f = try GoldenTestFolder(self)
        try f.write("soft", stamps: "[[16.3, 20.7, 9, 0, 0, 1, 0.5, 0.2, 0.6], [40.2, 26.1, 14, 0, 0, 0.2, 0.5, 1, 0.8]]")
        // Record on llvmpipe, as quads.
        var run = try f.test(["--primitive", "quads"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(GoldenTestFolder.lines(run).last, "0 passed, 0 failed, 6 recorded")

        // softpipe: no goldens of its own, llvmpipe's stand in with the cross-driver tolerance.
        let softpipe = ["GALLIUM_DRIVER": "softpipe", "CI": "true"]
        run = try TestSupport.stipple(["test", f.scripts.path, "--output", f.output.path, "--primitive", "quads"],
                                      environment: softpipe)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("renderer softpipe"), run.stdout)
        XCTAssertEqual(GoldenTestFolder.lines(run).last, "6 passed, 0 failed", run.stdout)
        XCTAssertTrue(GoldenTestFolder.lines(run).filter { $0.hasPrefix("PASS") }.allSatisfy { $0.contains("llvmpipe") },
                      "each line says whose golden stood in: \(run.stdout)")

        // The same edits as the single-driver runs: a 1 px shift and a flip fail on softpipe too.
        try f.write("shifted", stamps: "[[21, 20, 8, 0, 0, 0.3, 0.6, 1, 1]]")
        try PNGFile.write(GoldenTestFolder.gammaBrush(flipped: true), to: f.brushPath)
        run = try TestSupport.stipple(["test", f.scripts.path, "--output", f.output.path, "--primitive", "quads"],
                                      environment: softpipe)
        XCTAssertEqual(run.status, 1, run.stdout)
        XCTAssertNotNil(GoldenTestFolder.line(run, "FAIL shifted: "), run.stdout)
        XCTAssertNotNil(GoldenTestFolder.line(run, "FAIL flipped: "), run.stdout)
        XCTAssertEqual(GoldenTestFolder.lines(run).last, "4 passed, 2 failed", run.stdout)
    }

    func testPointsGoldensAreKeptPerDriver() throws {
        try softpipeAvailable()
        let f = try GoldenTestFolder(self)
        XCTAssertEqual(try f.test().status, 0)  // llvmpipe's points goldens
        let softpipe = ["GALLIUM_DRIVER": "softpipe", "CI": "true"]
        var run = try TestSupport.stipple(["test", f.scripts.path, "--output", f.output.path], environment: softpipe)
        XCTAssertEqual(run.status, 1, run.stdout)
        let line = try XCTUnwrap(GoldenTestFolder.line(run, "NO GOLDEN pass"), run.stdout)
        XCTAssertTrue(line.contains("no points golden for softpipe; goldens exist for llvmpipe (each driver places points its "
                                    + "own way, so points goldens are per driver; quads goldens are shared across drivers: "
                                    + "--primitive quads, or \"primitive\": \"quads\" in stipple-test.json); to accept: stipple test"), line)
        XCTAssertTrue(line.hasSuffix("--filter pass --record failed"), line)
        // --record adds softpipe's own; then softpipe passes against them and llvmpipe's are untouched.
        run = try TestSupport.stipple(["test", f.scripts.path, "--output", f.output.path, "--record"], environment: softpipe)
        XCTAssertEqual(run.status, 0, run.stdout)
        let goldens = try FileManager.default.contentsOfDirectory(atPath: f.golden.path)
        XCTAssertEqual(goldens.filter { $0.contains(".softpipe.points.") }.count, 5, "\(goldens)")
        XCTAssertEqual(goldens.filter { $0.contains(".llvmpipe.points.") }.count, 5, "\(goldens)")
        run = try TestSupport.stipple(["test", f.scripts.path, "--output", f.output.path], environment: softpipe)
        XCTAssertEqual(GoldenTestFolder.lines(run).last, "5 passed, 0 failed", run.stdout)
    }
}
