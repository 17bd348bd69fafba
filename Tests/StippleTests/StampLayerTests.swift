import XCTest
@testable import Stipple

/// Resident layers draw exactly what the immediate path draws, frame after frame, whether
/// or not the stamps were added in birth order.
final class StampLayerTests: XCTestCase {
    func check(_ stamps: [SketchPoint], frames: ClosedRange<Int>, file: StaticString = #filePath, line: UInt = #line) async throws {
        let renderer = try Renderer()
        let brush = Brush.builtin(.softRound, size: 16)
        let canvas = Canvas(width: 48, height: 32, background: .color(Color(hex: "#101014")!))
        let settings = RenderSettings(effects: AgeEffects(maxAge: 10, dissolveDistance: 4, pointScale: 1))
        let layer = await renderer.makeLayer(brushKey: "b", brush: brush)
        try await renderer.append(stamps, to: layer)
        for n in frames {
            let resident = try await renderer.renderLayers([layer], canvas: canvas, frame: n, settings: settings)
            let immediate = try await renderer.render(
                canvas: canvas, batches: [StampBatch(brushKey: "b", brush: brush, stamps: stamps)],
                settings: settings, ageOffset: Float(n))
            XCTAssertEqual(resident, immediate, "frame \(n)", file: file, line: line)
        }
    }

    func stamp(_ x: Float, age: Float) -> SketchPoint {
        SketchPoint(x: x, y: 16, radius: 4, age: age, dissolveAngle: 1, red: 1, green: 0.5, blue: 0.2, alpha: 0.8)
    }

    func testBirthsInOrder() async throws {
        try await check((0..<8).map { stamp(Float(4 + $0 * 5), age: -Float($0)) }, frames: 0...20)
    }

    /// One append with ages out of birth order (a script's `stamps` entry may be so): dead and
    /// unborn stamps inside the window are culled by the shader, and nothing live is cut off.
    func testBirthsOutOfOrderInOneAppend() async throws {
        try await check([stamp(6, age: 0), stamp(14, age: 5), stamp(22, age: -3), stamp(30, age: 2), stamp(38, age: -8)],
                        frames: 0...20)
    }
}
