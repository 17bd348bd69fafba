import Foundation
import Stipple
@testable import StippleGolden
import XCTest

/// `stipple test` through the real executable: verdicts, lines, exit codes, images, JUnit.
final class GoldenRunnerTests: XCTestCase {
    func testRecordPassFailMissingThroughTheCLI() throws {
        let f = try GoldenTestFolder(self)
        // First run: nothing to compare, everything recorded, and it says so.
        var run = try f.test()
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("driver: EGL platform"), run.stdout)
        XCTAssertEqual(GoldenTestFolder.line(run, "RECORDED missing"),
                       "RECORDED missing: recorded (no golden existed) → \(f.golden.path)/missing.\(try f.recordedDriver()).points.png")
        XCTAssertEqual(GoldenTestFolder.lines(run).last, "0 passed, 0 failed, 5 recorded")
        let driver = try f.recordedDriver()

        run = try f.test()
        XCTAssertEqual(run.status, 0, run.stdout)
        XCTAssertEqual(GoldenTestFolder.line(run, "PASS pass"), "PASS pass (max diff 0)")
        XCTAssertEqual(GoldenTestFolder.lines(run).last, "5 passed, 0 failed")

        try f.breakCases(driver: driver)
        let junit = f.root.appendingPathComponent("junit.xml")
        run = try f.test(["--junit", junit.path], ci: true)
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        XCTAssertNotNil(GoldenTestFolder.line(run, "PASS pass (max diff 0)"), run.stdout)
        for name in ["colour", "shifted", "flipped"] {
            let line = try XCTUnwrap(GoldenTestFolder.line(run, "FAIL \(name): "), run.stdout)
            XCTAssertTrue(line.contains("max channel diff"), line)
            XCTAssertTrue(line.contains("→ \(f.output.path)/\(name)/diff.png; "), line)
            // Every FAIL line says how to accept this one case.
            XCTAssertTrue(line.contains("; to accept: stipple test \(f.scripts.path) --output \(f.output.path) --filter \(name) --record failed; "), line)
            // And how to find the draw entry that departs from the golden; the command runs.
            let bisect = try XCTUnwrap(line.components(separatedBy: "; to find the draw entry that departs: ").last)
            XCTAssertTrue(bisect.hasPrefix("stipple bisect \(f.scripts.path)/\(name).json --golden "), line)
            let found = try TestSupport.stipple(Array(bisect.split(separator: " ").dropFirst().map(String.init)))
            XCTAssertEqual(found.status, 0, found.stderr)
            XCTAssertTrue(found.stdout.contains(": draw entry "), found.stdout)
            for image in ["expected", "actual", "diff"] {
                let path = f.output.appendingPathComponent("\(name)/\(image).png").path
                XCTAssertNoThrow(try PNGFile.read(path: path), "\(name): \(image).png")
            }
        }
        let missing = try XCTUnwrap(GoldenTestFolder.line(run, "MISSING missing: "), run.stdout)
        XCTAssertTrue(missing.contains("CI=true"), missing)
        XCTAssertTrue(missing.hasSuffix("; to accept: stipple test \(f.scripts.path) --output \(f.output.path) --filter missing --record failed"), missing)
        XCTAssertFalse(FileManager.default.fileExists(atPath: f.golden.appendingPathComponent("missing.\(driver).points.png").path),
                       "CI records nothing")
        XCTAssertEqual(GoldenTestFolder.lines(run).last, "1 passed, 3 failed, 1 missing")
        // A passing case leaves no images behind unless asked.
        XCTAssertFalse(FileManager.default.fileExists(atPath: f.output.appendingPathComponent("pass").path))

        let j = try JUnitCounter.parse(junit)
        XCTAssertEqual(j.suites.count, 1)
        XCTAssertEqual(j.suites[0]["name"], f.scripts.path)
        XCTAssertEqual(j.suites[0]["tests"], "5")
        XCTAssertEqual(j.suites[0]["failures"], "4")
        XCTAssertEqual(j.suites[0]["errors"], "0")
        XCTAssertEqual(j.suites[0]["skipped"], "0")
        XCTAssertEqual(j.testcases.map { $0["name"] ?? "" }, ["colour", "flipped", "missing", "pass", "shifted"])
        XCTAssertEqual(j.failures.count, 4)
        XCTAssertNotNil(j.properties["gl.renderer"]); XCTAssertNotNil(j.properties["gl.vendor"])
        XCTAssertNotNil(j.properties["egl.platform"])
        XCTAssertTrue(j.failures.contains { ($0["message"] ?? "").contains("max channel diff") })

        // Outside CI the missing golden is recorded; the other failures stay failures.
        run = try f.test(["--keep-diffs"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(GoldenTestFolder.line(run, "RECORDED missing"),
                       "RECORDED missing: recorded (no golden existed) → \(f.golden.path)/missing.\(driver).points.png")
        XCTAssertEqual(GoldenTestFolder.lines(run).last, "1 passed, 3 failed, 1 recorded")
        XCTAssertTrue(FileManager.default.fileExists(atPath: f.output.appendingPathComponent("pass/diff.png").path),
                      "--keep-diffs keeps a passing case's images")

        // --record rewrites the changed goldens only.
        let passGolden = f.golden.appendingPathComponent("pass.\(driver).points.png").path
        let before = try FileManager.default.attributesOfItem(atPath: passGolden)[.systemFileNumber] as? Int
        run = try f.test(["--record"])
        XCTAssertEqual(run.status, 0, run.stdout)
        XCTAssertTrue(try XCTUnwrap(GoldenTestFolder.line(run, "RECORDED shifted")).contains("golden changed"), run.stdout)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: passGolden)[.systemFileNumber] as? Int, before,
                       "an unchanged golden is not rewritten")
        run = try f.test()
        XCTAssertEqual(run.status, 0, run.stdout)
        XCTAssertEqual(GoldenTestFolder.lines(run).last, "5 passed, 0 failed")
    }

    func testSizeChangeIsAClearFailureAndABadScriptAnError() throws {
        let f = try GoldenTestFolder(self)
        XCTAssertEqual(try f.test().status, 0)
        try f.write("pass", stamps: "[[20, 20, 6, 0, 0, 1, 0.2, 0.1, 1]]", width: 65)
        try "{ \"canvas\": ".write(to: f.scripts.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        let run = try f.test()
        XCTAssertEqual(run.status, 2, "a case that cannot be drawn is bad input, not a changed image: \(run.stderr)")
        let line = try XCTUnwrap(GoldenTestFolder.line(run, "FAIL pass: "), run.stdout)
        XCTAssertTrue(line.contains("size 65×48, golden 64×48"), line)
        let error = try XCTUnwrap(GoldenTestFolder.line(run, "ERROR broken: "), run.stdout)
        XCTAssertTrue(error.contains("broken.json:1:"), error)
        XCTAssertNotNil(GoldenTestFolder.line(run, "PASS shifted"), "the run goes on after a bad script")
        XCTAssertEqual(GoldenTestFolder.lines(run).last, "4 passed, 1 failed, 1 error", "errors apart from failures")
    }

    func testPointsGoldensOfAnotherDriverSayPlainlyAndRecordAddsOurs() throws {
        let f = try GoldenTestFolder(self)
        XCTAssertEqual(try f.test(["--primitive", "points"]).status, 0)
        XCTAssertEqual(try f.test(["--primitive", "quads"]).status, 0)
        let me = try f.recordedDriver()
        let other = me == "softpipe" ? "llvmpipe" : "softpipe"
        for p in ["points", "quads"] {
            try FileManager.default.moveItem(at: f.golden.appendingPathComponent("pass.\(me).\(p).png"),
                                             to: f.golden.appendingPathComponent("pass.\(other).\(p).png"))
        }
        var run = try f.test()
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(GoldenTestFolder.line(run, "NO GOLDEN pass"),
                       "NO GOLDEN pass: no points golden for \(me); goldens exist for \(other) (each driver places "
                       + "points its own way, so points goldens are per driver; quads goldens are shared across drivers: "
                       + "--primitive quads, or \"primitive\": \"quads\" in stipple-test.json); to accept: stipple test \(f.scripts.path) --output \(f.output.path) --filter pass --record failed")
        // Quads are placed exactly on every driver: the other driver's golden stands in.
        run = try f.test(["--primitive", "quads"])
        XCTAssertEqual(run.status, 0, run.stdout)
        XCTAssertTrue(try XCTUnwrap(GoldenTestFolder.line(run, "PASS pass")).contains("against \(other)'s golden"), run.stdout)

        run = try f.test(["--record"])
        XCTAssertEqual(run.status, 0, run.stdout)
        XCTAssertTrue(try XCTUnwrap(GoldenTestFolder.line(run, "RECORDED pass")).contains("goldens exist for \(other)"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: f.golden.appendingPathComponent("pass.\(me).points.png").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: f.golden.appendingPathComponent("pass.\(other).points.png").path))
        run = try f.test()
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    }

    func testFolderConfigFramesToleranceIgnoreAndStrictKeys() throws {
        let f = try GoldenTestFolder(self)
        let config = f.scripts.appendingPathComponent("stipple-test.json")
        try #"{ "cases": { "pass": { "frames": [0, 5] } } }"#.write(to: config, atomically: true, encoding: .utf8)
        var run = try f.test()
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertNotNil(GoldenTestFolder.line(run, "RECORDED pass@frame-0005"), run.stdout)
        try f.breakCases(driver: try f.recordedDriver())
        // A rectangle over the shifted stamp, a loose tolerance for the colour change.
        try #"""
            { "cases": { "pass": { "frames": [0, 5] },
                         "shifted": { "ignore": [[0, 0, 40, 40]] },
                         "colour": { "tolerance": { "maxChannelDiff": 20, "maxPixels": "0.5%" } } } }
            """#.write(to: config, atomically: true, encoding: .utf8)
        run = try f.test()
        XCTAssertNotNil(GoldenTestFolder.line(run, "PASS shifted"), run.stdout)
        XCTAssertNotNil(GoldenTestFolder.line(run, "PASS colour"), run.stdout)
        XCTAssertNotNil(GoldenTestFolder.line(run, "PASS pass@frame-0000"), run.stdout)

        try "{ \"cases\": {},\n  \"tolerence\": {} }".write(to: config, atomically: true, encoding: .utf8)
        run = try f.test()
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("stipple-test.json:2:3: unknown key \"tolerence\""), run.stderr)
        try #"{ "cases": { "nosuch": {} } }"#.write(to: config, atomically: true, encoding: .utf8)
        run = try f.test()
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("no script nosuch.json"), run.stderr)
    }
}
