import Foundation
import XCTest
@testable import Stipple
@testable import StippleGolden

/// The HTML report of a failing case shows its golden's path, the exact accept command and a
/// zoom on the pixel of the largest difference: checked in headless Chromium.
final class HTMLReportAcceptZoomTests: XCTestCase {
    static let teal: (UInt8, UInt8, UInt8) = (0, 128, 128), chartreuse: (UInt8, UInt8, UInt8) = (127, 255, 0)

    /// A real `GoldenCheck` of a 64×48 teal golden against an image with one chartreuse pixel at (40, 30).
    private func failingReport(in dir: URL) async throws -> GoldenRunReport {
        let golden = dir.appendingPathComponent("golden")
        try FileManager.default.createDirectory(at: golden, withIntermediateDirectories: true)
        let expected = Image(width: 64, height: 48, fill: Color(red: 0, green: 128 / 255, blue: 128 / 255))
        var actual = expected
        let i = (30 * 64 + 40) * 4
        actual.pixels[i] = 127; actual.pixels[i + 1] = 255; actual.pixels[i + 2] = 0; actual.pixels[i + 3] = 255
        let driver = DriverIdentity(platform: "surfaceless", vendor: "Mesa", renderer: "llvmpipe (LLVM 15.0.6, 256 bits)")
        try PNGFile.write(expected, to: golden.appendingPathComponent("one-pixel.llvmpipe.points.png").path)
        let check = GoldenCheck(store: GoldenStore(directory: golden.path), outputDirectory: dir.appendingPathComponent("out").path,
                                driver: driver, record: .never) { r in "stipple test --accept ci.json \(r.name)" }
        let c = GoldenCase(name: "one-pixel", scriptName: "one-pixel", scriptPath: "one-pixel.json")
        let result = await check.check(c) { actual }
        XCTAssertEqual(result.verdict, .failed, result.message)
        return GoldenRunReport(driver: driver, cases: [result], goldenDirectory: golden.path)
    }

    func testAcceptCommandAndZoomInChromium() async throws {
        guard let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }) else { throw XCTSkip("chromium not installed: apt-get install chromium") }
        let dir = try TestSupport.temporaryDirectory(self, "report-zoom")
        let report = try await failingReport(in: dir)
        let out = dir.appendingPathComponent("html")
        try HTMLReport.write(report: report, to: out.path)
        let html = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("<code class=\"accept-command\">stipple test --accept ci.json one-pixel</code>"))
        XCTAssertTrue(html.contains("golden <code>\(dir.path)/golden/one-pixel.llvmpipe.points.png</code>"))
        XCTAssertTrue(html.contains("largest difference at (40, 30)"))
        XCTAssertTrue(html.contains("#7fff00ff") && html.contains("#008080ff"), "the zoom names both pixels' values")

        let page = out.appendingPathComponent("index.html").absoluteString
        let shot = dir.appendingPathComponent("shot.png")
        let run = try Chromium.run(chromium, ["--screenshot=\(shot.path)", "--window-size=1200,1000", page], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(Chromium.jsErrors(run.stderr).isEmpty, Chromium.jsErrors(run.stderr).joined(separator: "\n"))
        let dom = try Chromium.run(chromium, ["--dump-dom", page], in: dir)
        XCTAssertTrue(Chromium.jsErrors(dom.stderr).isEmpty, Chromium.jsErrors(dom.stderr).joined(separator: "\n"))
        XCTAssertTrue(dom.stdout.contains("data-ready=\"1\""))
        XCTAssertTrue(dom.stdout.contains("stipple test --accept ci.json one-pixel"))

        let image = try PNGFile.read(path: shot.path).image
        let kept = FileManager.default.temporaryDirectory.appendingPathComponent("stipple-html-zoom.png").path
        try? FileManager.default.removeItem(atPath: kept)
        try? FileManager.default.copyItem(atPath: shot.path, toPath: kept)
        // One pixel is ~4 screen pixels in the images row; only the 12× zoom shows it as a 12×12 block (any 6×6 block of it lies on hasBlock's grid of 3).
        XCTAssertTrue(Chromium.hasBlock(image, of: Self.chartreuse, size: 6), "the zoomed actual pixel is not visible (\(kept))")
        XCTAssertTrue(Chromium.hasBlock(image, of: DiffImage.overTolerance, size: 6), "the zoomed diff pixel is not visible (\(kept))")
        XCTAssertFalse(Chromium.hasBlock(image, of: Self.chartreuse, size: 20), "the zoom is 12× (\(kept))")
    }
}
