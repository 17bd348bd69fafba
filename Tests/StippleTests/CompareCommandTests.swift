import XCTest
@testable import Stipple
@testable import StippleGolden

/// `stipple compare` on the one comparison engine: the perceptual and anti-aliasing options
/// `stipple test` has, and "P or P%" parsed in one place (`GoldenTolerance.PixelLimit`).
final class CompareCommandTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws { dir = try TestSupport.temporaryDirectory(self, "compare") }

    private func image(_ w: Int, _ h: Int, _ f: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) -> Image {
        var px = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h { for x in 0..<w { let c = f(x, y), i = (y * w + x) * 4; px[i] = c.0; px[i + 1] = c.1; px[i + 2] = c.2; px[i + 3] = c.3 } }
        return Image(width: w, height: h, pixels: px)
    }

    func testPixelLimitIsParsedInOnePlace() {
        XCTAssertEqual(GoldenTolerance.PixelLimit("32"), .count(32))
        XCTAssertEqual(GoldenTolerance.PixelLimit("0.1%"), .percent(0.1))
        XCTAssertEqual(GoldenTolerance.PixelLimit(" 5 % "), .percent(5))
        for bad in ["-1", "101%", "x", "%", "1.5"] { XCTAssertNil(GoldenTolerance.PixelLimit(bad), bad) }
        var t = GoldenTolerance(maxPixels: 7)
        t.setMaxPixels(.percent(1))
        XCTAssertEqual(t.allowedPixels(of: 1000), 10)
    }

    func testPerceptualAndAntialiasingOptions() throws {
        // A soft edge moved by one pixel: a grey column that is anti-aliasing in both images.
        let a = image(20, 12) { x, _ in x < 10 ? (0, 0, 0, 255) : x == 10 ? (128, 128, 128, 255) : (255, 255, 255, 255) }
        let b = image(20, 12) { x, _ in x < 11 ? (0, 0, 0, 255) : x == 11 ? (128, 128, 128, 255) : (255, 255, 255, 255) }
        try PNGFile.write(a, to: dir.appendingPathComponent("a.png").path)
        try PNGFile.write(b, to: dir.appendingPathComponent("b.png").path)

        let strict = try TestSupport.stipple(["compare", "a.png", "b.png", "--perceptual", "0.1"], in: dir)
        XCTAssertEqual(strict.status, 1, strict.stderr)
        XCTAssertTrue(strict.stdout.hasPrefix("DIFFERENT: max channel diff"), strict.stdout)
        XCTAssertTrue(strict.stdout.contains("over perceptual 0.1"), strict.stdout)
        XCTAssertTrue(strict.stdout.hasSuffix("allowed 0 pixels over perceptual 0.1\n"), strict.stdout)

        let aa = try TestSupport.stipple(["compare", "a.png", "b.png", "--perceptual", "0.1", "--antialiasing",
                                          "--diff", "d.png"], in: dir)
        XCTAssertEqual(aa.status, 0, aa.stdout + aa.stderr)
        XCTAssertTrue(aa.stdout.hasPrefix("same: "), aa.stdout)
        XCTAssertTrue(aa.stdout.contains("anti-aliased forgiven"), aa.stdout)
        let diff = try PNGFile.read(path: dir.appendingPathComponent("d.png").path).image
        let p = diff.pixel(10, 5)
        XCTAssertEqual([p.r, p.g, p.b], [255, 255, 0], "forgiven pixels are yellow in the diff")

        // K mode with anti-aliasing, and P as a share.
        let k = try TestSupport.stipple(["compare", "a.png", "b.png", "--max-channel-diff", "2", "--antialiasing"], in: dir)
        XCTAssertEqual(k.status, 0, k.stdout)
        let share = try TestSupport.stipple(["compare", "a.png", "b.png", "--max-pixels", "10%"], in: dir)
        XCTAssertEqual(share.status, 0, share.stdout)
        XCTAssertTrue(share.stdout.hasSuffix("allowed 24 pixels over 0\n"), share.stdout)
    }

    func testBadOptionsAndHelp() throws {
        let bad = try TestSupport.stipple(["compare", "a.png", "b.png", "--perceptual", "2"], in: dir)
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("--perceptual from 0 to 1"), bad.stderr)
        let badP = try TestSupport.stipple(["compare", "a.png", "b.png", "--max-pixels", "200%"], in: dir)
        XCTAssertEqual(badP.status, 64)
        let help = try TestSupport.stipple(["compare", "--help"])
        for option in ["--perceptual", "--antialiasing", "--max-pixels", "--max-channel-diff", "--diff"] {
            XCTAssertTrue(help.stdout.contains(option), "\(option) has no help")
        }
    }
}
