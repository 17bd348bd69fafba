import Foundation
import Stipple
@testable import StippleGolden
import XCTest

/// Every command `stipple test` prints runs as printed, through a shell: the accept command
/// of a FAIL, MISSING or NO GOLDEN line (then the case passes; it names the run's own output
/// folder), and the bisect command of a
/// FAIL line (with the whole tolerance, the cross-driver P of 32 + 0.1 % included).
final class GoldenPrintedCommandTests: XCTestCase {
    /// The command after `marker` in `line`, up to the next "; " that starts another clause.
    private func command(_ line: String, after marker: String) throws -> String {
        let rest = try XCTUnwrap(line.range(of: marker).map { String(line[$0.upperBound...]) }, "\(marker) in \(line)")
        return rest.components(separatedBy: "; to ").first!
    }

    /// Runs a printed command through /bin/sh, `stipple` meaning the built binary.
    /// Runs a printed command as a person would, from `folder` (the test's own: a command
    /// without `--output` writes into `.stipple-test` there, apart from other tests').
    private func runPrinted(_ command: String, environment: [String: String] = [:], in folder: URL) throws -> TestSupport.Run {
        XCTAssertTrue(command.hasPrefix("stipple "), command)
        let line = TestSupport.stippleBinary.path + command.dropFirst("stipple".count)
        return try TestSupport.run("/bin/sh", ["-c", line], environment: environment, in: folder)
    }

    func testAcceptAndBisectCommandsRunAsPrinted() throws {
        for withJSON in [false, true] {
            let f = try GoldenTestFolder(self)
            XCTAssertEqual(try f.test().status, 0)
            let driver = try f.recordedDriver()
            try f.breakCases(driver: driver)
            let json = f.root.appendingPathComponent("run with spaces.json")
            let run = try f.test(withJSON ? ["--json", json.path] : [], ci: true)
            XCTAssertEqual(run.status, 1, run.stdout)
            let lines = GoldenTestFolder.lines(run).filter { $0.hasPrefix("FAIL ") || $0.hasPrefix("MISSING ") }
            XCTAssertEqual(lines.count, 4, run.stdout)
            for line in lines where line.hasPrefix("FAIL shifted") {
                let bisect = try runPrinted(try command(line, after: "; to find the draw entry that departs: "), in: f.root)
                XCTAssertEqual(bisect.status, 0, "\(line)\n\(bisect.stdout)\(bisect.stderr)")
            }
            for line in lines {
                let printed = try command(line, after: "; to accept: ")
                XCTAssertTrue(printed.contains(" --output "), "the run's own output folder: \(printed)")
                let accepted = try runPrinted(printed, in: f.root)
                XCTAssertEqual(accepted.status, 0, "\(line)\n\(accepted.stdout)\(accepted.stderr)")
            }
            let after = try f.test(ci: true)
            XCTAssertEqual(GoldenTestFolder.lines(after).last, "5 passed, 0 failed", "json \(withJSON): \(after.stdout)")
        }
    }

    func testCrossDriverCommandsRunAsPrinted() throws {
        let info = try TestSupport.stipple(["info"], environment: ["GALLIUM_DRIVER": "softpipe"])
        try XCTSkipUnless(info.status == 0 && info.stdout.contains("softpipe"), "softpipe is not available here")
        let f = try GoldenTestFolder(self)
        XCTAssertEqual(try f.test(["--primitive", "quads"]).status, 0)
        try f.write("shifted", stamps: "[[21, 20, 8, 0, 0, 0.3, 0.6, 1, 1]]")
        let softpipe = ["GALLIUM_DRIVER": "softpipe", "CI": "true"]
        let json = f.root.appendingPathComponent("softpipe.json")
        let run = try TestSupport.stipple(["test", f.scripts.path, "--output", f.output.path, "--primitive", "quads",
                                           "--json", json.path], environment: softpipe)
        XCTAssertEqual(run.status, 1, run.stdout)
        let line = try XCTUnwrap(GoldenTestFolder.line(run, "FAIL shifted: "), run.stdout)
        let bisectCommand = try command(line, after: "; to find the draw entry that departs: ")
        XCTAssertTrue(bisectCommand.hasSuffix("--primitive quads --max-channel-diff 8 --max-pixels 32+0.1%"), bisectCommand)
        let bisect = try runPrinted(bisectCommand, environment: softpipe, in: f.root)
        XCTAssertEqual(bisect.status, 0, bisect.stdout + bisect.stderr)
        // Accepted by recording softpipe's own quads golden (--accept would refuse: the golden
        // that failed is llvmpipe's).
        let acceptCommand = try command(line, after: "; to accept: ")
        XCTAssertTrue(acceptCommand.hasSuffix("--primitive quads --filter shifted --record failed"), acceptCommand)
        let accepted = try runPrinted(acceptCommand, environment: softpipe, in: f.root)
        XCTAssertEqual(accepted.status, 0, accepted.stdout + accepted.stderr)
        let after = try TestSupport.stipple(["test", f.scripts.path, "--output", f.output.path, "--primitive", "quads"],
                                            environment: softpipe)
        XCTAssertEqual(after.status, 0, after.stdout)
        XCTAssertNotNil(GoldenTestFolder.line(after, "PASS shifted (max diff 0)"), after.stdout)
    }
}
