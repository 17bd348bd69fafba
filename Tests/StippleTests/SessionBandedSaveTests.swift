import XCTest
@testable import Stipple

/// A save reads the backing surface back in bands (one render-thread job each, frames in
/// between): the bands put together are the surface, byte for byte.
final class SessionBandedSaveTests: XCTestCase {
    func testBandsPutTogetherAreTheSurface() async throws {
        let renderer = try Renderer()
        // 4096 wide: a band is 256 rows, so 300 rows take two bands, the second short.
        let canvas = Canvas(width: 4096, height: 300, background: .color(Color(hex: "#20304080")!))
        let live = LiveCanvas(renderer: renderer, canvas: canvas)
        let surface = try await renderer.makeSurface(canvas)
        let layer = await renderer.makeLayer(brushKey: "soft", brush: .builtin(.softRound, size: 32))
        var stamps: [SketchPoint] = []
        for i in 0..<400 {
            let x = Float(i * 10 % 4096), y = Float(20 + (i * 37) % 260)
            let red = Float(i % 7) / 7, blue = Float(i % 3) / 3
            stamps.append(SketchPoint(x: x, y: y, radius: 12, age: 0, red: red, green: 0.5, blue: blue, alpha: 0.7))
        }
        try await renderer.append(stamps, to: layer)
        try await renderer.draw([layer], frame: 0, settings: RenderSettings(), onto: surface)
        let banded = try await live.bandedSnapshot(of: surface)
        XCTAssertTrue(banded.bottomUp)
        let whole = try await renderer.image(of: surface)
        XCTAssertEqual(banded.image, whole)
    }
}
