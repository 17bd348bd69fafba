import Foundation
import XCTest
@testable import Stipple
@testable import StippleGolden

final class HTMLReportTests: XCTestCase {
    static let magenta: (UInt8, UInt8, UInt8) = (255, 0, 255), teal: (UInt8, UInt8, UInt8) = (0, 128, 128)
    static let failingName = "<b>& \"quoted\" 'x'"

    private func solid(_ w: Int, _ h: Int, _ c: (UInt8, UInt8, UInt8)) -> Image {
        Image(width: w, height: h, fill: Color(red: Float(c.0) / 255, green: Float(c.1) / 255, blue: Float(c.2) / 255))
    }

    /// A run with a passing, a failing (teal golden, magenta actual) and a missing case; the
    /// failing case's images are written under `dir/work`, with relative paths in the report.
    private func makeReport(in dir: URL) throws -> GoldenRunReport {
        let work = dir.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let expected = solid(64, 48, Self.teal), actual = solid(64, 48, Self.magenta)
        let tolerance = GoldenTolerance.crossDriver
        let (g, diff) = ImageComparison.compareWithDiff(expected: expected, actual: actual, tolerance: tolerance)
        try PNGFile.write(expected, to: work.appendingPathComponent("fail.png").path)
        try PNGFile.write(actual, to: work.appendingPathComponent("fail.actual.png").path)
        try PNGFile.write(diff, to: work.appendingPathComponent("fail.diff.png").path)
        try PNGFile.write(solid(64, 48, (255, 140, 0)), to: work.appendingPathComponent("new.actual.png").path)

        let llvmpipe = DriverIdentity(platform: "surfaceless", vendor: "Mesa", renderer: "llvmpipe (LLVM 15.0.6, 256 bits)")
        let pass = GoldenCaseResult(name: "circle", script: "circle.json", frame: 0, primitive: "quads", verdict: .passed,
                                    message: "max channel diff 0", golden: "circle.png",
                                    comparison: ComparisonFigures(ImageComparison.compare(expected: expected, actual: expected,
                                                                                          maxChannelDifference: 8), allowed: 35),
                                    tolerance: tolerance, driver: llvmpipe, goldenDriver: "llvmpipe", seconds: 0.012)
        let fail = GoldenCaseResult(name: Self.failingName, script: "fail.json", frame: 0, primitive: "quads", verdict: .failed,
                                    message: g.summary, golden: "fail.png", actual: "fail.actual.png", diff: "fail.diff.png",
                                    comparison: ComparisonFigures(g), tolerance: tolerance, driver: llvmpipe, goldenDriver: "softpipe",
                                    seconds: 0.034)
        let missing = GoldenCaseResult(name: "new-case", script: "new.json", frame: 0, primitive: "points", verdict: .missing,
                                       message: "no golden (CI=true: not recorded)", actual: "new.actual.png",
                                       tolerance: .exact, driver: llvmpipe)
        return GoldenRunReport(driver: llvmpipe, shard: "2/3", cases: [pass, fail, missing])
    }

    func testReportHasImagesFiguresDriversAndEscapes() throws {
        let dir = try TestSupport.temporaryDirectory(self, "report")
        let report = try makeReport(in: dir)
        let out = dir.appendingPathComponent("out")
        try HTMLReport.write(report: report, to: out.path, imagesRelativeTo: dir.appendingPathComponent("work").path)
        let html = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)

        // Failures first: the failing case is #1 in the page, its images copied and relative.
        for name in ["expected", "actual", "diff"] {
            XCTAssertTrue(html.contains("src=\"images/1-\(name).png\""), name)
            let copied = try PNGFile.read(path: out.appendingPathComponent("images/1-\(name).png").path).image
            XCTAssertEqual(copied.width, 64)
        }
        XCTAssertEqual(try PNGFile.read(path: out.appendingPathComponent("images/1-actual.png").path).image.pixel(3, 3).g, 0)
        XCTAssertTrue(html.contains("class=\"shot pix\" src=\"images/2-actual.png\""), "the missing case shows what was drawn, crisp")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("images/3-expected.png").path))

        // Escaped name, never raw.
        XCTAssertTrue(html.contains("&lt;b&gt;&amp; &quot;quoted&quot; &#39;x&#39;"))
        XCTAssertFalse(html.contains(Self.failingName))
        // Figures, tolerance, drivers, summary and shard.
        XCTAssertTrue(html.contains("3072 / 35 of 3072"), "pixels over / allowed")
        XCTAssertTrue(html.contains("max channel diff</dt><dd>255"))
        XCTAssertTrue(html.contains(HTMLReport.escape(GoldenTolerance.crossDriver.summary)))
        XCTAssertTrue(html.contains("llvmpipe (LLVM 15.0.6, 256 bits)"))
        XCTAssertTrue(html.contains("surfaceless"))
        XCTAssertTrue(html.contains("golden by <b>softpipe</b>"))
        XCTAssertTrue(html.contains("<b>1</b> passed") && html.contains("<b>1</b> failed") && html.contains("<b>1</b> missing"))
        XCTAssertTrue(html.contains("shard <b>2/3</b>"))
        // Slider, toggle and filter; nothing from the network.
        XCTAssertTrue(html.contains("type=\"range\"") && html.contains("Flip expected / actual") && html.contains("failures-only"))
        for remote in ["http://", "https://", "<link", "src=\"//"] { XCTAssertFalse(html.contains(remote), remote) }
        XCTAssertLessThan(html.components(separatedBy: "<script>").count, 3, "one inline script")
    }

    func testReportWithoutImages() throws {
        let dir = try TestSupport.temporaryDirectory(self, "report")
        let d = DriverIdentity(platform: "device", vendor: "Mesa", renderer: "softpipe")
        let c = GoldenCaseResult(name: "a", script: "a.json", frame: 0, primitive: "quads", verdict: .passed, message: "ok",
                                 golden: "gone.png", actual: "gone.png", tolerance: .exact, driver: d)
        try HTMLReport.write(report: GoldenRunReport(driver: d, cases: [c]), to: dir.path)
        let html = try String(contentsOf: dir.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("1 case passes"))
        XCTAssertFalse(html.contains("<img"))
        // An empty run still writes a page.
        try HTMLReport.write(report: GoldenRunReport(driver: d, cases: []), to: dir.path)
        XCTAssertTrue(try String(contentsOf: dir.appendingPathComponent("index.html"), encoding: .utf8).contains("No cases."))
    }

    // MARK: Acceptance: headless Chromium

    func testReportOpensInHeadlessChromiumAndShowsTheFailure() throws {
        guard let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }) else { throw XCTSkip("chromium not installed: apt-get install chromium") }
        let dir = try TestSupport.temporaryDirectory(self, "report")
        let report = try makeReport(in: dir)
        let out = dir.appendingPathComponent("out")
        try HTMLReport.write(report: report, to: out.path, imagesRelativeTo: dir.appendingPathComponent("work").path)
        let page = out.appendingPathComponent("index.html").absoluteString
        let shot = dir.appendingPathComponent("shot.png")

        let screenshot = try Chromium.run(chromium, ["--screenshot=\(shot.path)", "--window-size=1200,900", page], in: dir)
        XCTAssertEqual(screenshot.status, 0, screenshot.stderr)
        XCTAssertTrue(Chromium.jsErrors(screenshot.stderr).isEmpty, Chromium.jsErrors(screenshot.stderr).joined(separator: "\n"))
        // The page's script ran to its end (it marks the body when done).
        let dom = try Chromium.run(chromium, ["--dump-dom", page], in: dir)
        XCTAssertTrue(Chromium.jsErrors(dom.stderr).isEmpty, Chromium.jsErrors(dom.stderr).joined(separator: "\n"))
        XCTAssertTrue(dom.stdout.contains("data-ready=\"1\""), "script did not finish:\n\(dom.stderr.suffix(2000))")
        XCTAssertTrue(dom.stdout.contains("clip-path: inset(0px 50% 0px 0px)") || dom.stdout.contains("clip-path: inset(0 50% 0 0)"),
                      "the slider set the overlay's clip")

        let image = try PNGFile.read(path: shot.path).image
        // The page and its screenshot are kept in the temporary folder for a person to look at.
        for (from, to) in [(shot.path, Chromium.keptScreenshot), (out.path, Chromium.keptReport)] {
            try? FileManager.default.removeItem(atPath: to)
            try? FileManager.default.copyItem(atPath: from, toPath: to)
        }
        XCTAssertEqual(image.width, 1200)
        XCTAssertTrue(Chromium.hasBlock(image, of: Self.magenta, size: 24), "the failing case's actual image is not visible")
        XCTAssertTrue(Chromium.hasBlock(image, of: Self.teal, size: 24), "the failing case's expected image is not visible")
        XCTAssertTrue(Chromium.hasBlock(image, of: DiffImage.overTolerance, size: 24), "the diff image is not visible")
    }
}

/// Runs headless Chromium with a throwaway profile (other builders may run one at once).
enum Chromium {
    static let keptScreenshot = FileManager.default.temporaryDirectory.appendingPathComponent("stipple-html-report.png").path
    static let keptReport = FileManager.default.temporaryDirectory.appendingPathComponent("stipple-html-report").path

    static func run(_ binary: String, _ arguments: [String], in dir: URL) throws -> TestSupport.Run {
        let profile = dir.appendingPathComponent("chromium-profile-\(UUID().uuidString.prefix(6))")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                             "--user-data-dir=\(profile.path)", "--enable-logging=stderr", "--v=0"] + arguments
        let outURL = dir.appendingPathComponent("chromium-\(UUID().uuidString.prefix(6)).out")
        let errURL = outURL.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // A hung browser must not hang the suite.
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        process.end()
        return TestSupport.Run(status: process.terminationStatus,
                               stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                               stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }

    /// Console output of the page: uncaught exceptions, console.error, failed loads. The page
    /// logs nothing itself, and Chromium tags every console line ":CONSOLE" whatever its level.
    static func jsErrors(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.contains(":CONSOLE") || $0.contains("Uncaught") }
    }

    /// Whether a `size`×`size` block of (nearly) one colour exists anywhere in `image`.
    static func hasBlock(_ image: Image, of c: (UInt8, UInt8, UInt8), size: Int) -> Bool {
        func near(_ x: Int, _ y: Int) -> Bool {
            let p = image.pixel(x, y)
            return abs(Int(p.r) - Int(c.0)) <= 6 && abs(Int(p.g) - Int(c.1)) <= 6 && abs(Int(p.b) - Int(c.2)) <= 6
        }
        guard image.width >= size, image.height >= size else { return false }
        for y in stride(from: 0, through: image.height - size, by: size / 2) {
            for x in stride(from: 0, through: image.width - size, by: size / 2) where near(x, y) {
                var all = true
                outer: for yy in y..<(y + size) {
                    for xx in x..<(x + size) where !near(xx, yy) { all = false; break outer }
                }
                if all { return true }
            }
        }
        return false
    }
}
