import Foundation
import XCTest
@testable import Stipple

/// Tiles never show with brush modes either: blurs and shadows read past a tile's edge
/// (the apron holds the sum of their reaches), and "detect edges" takes its reference from
/// the whole canvas, wherever the tile borders fall.
final class TiledModesTests: XCTestCase {
    /// Plain strokes, then a stroke of every kind crossing them: soften and sharpen in a
    /// chain, a blurred and offset shadow, erase, multiply, screen, stroke opacity,
    /// desaturate with detect edges, born at several frames.
    static let script = """
        { "canvas": { "width": 641, "height": 385, "background": "#e8e0d0" }, "fps": 30,
          "brushes": { "soft": { "builtin": "soft-round", "size": 64 }, "hard": { "builtin": "hard-round", "size": 32 } },
          "draw": [
            \(stroke("hard", "#204080", 20, 40, 620, 340, 14, 0, ""))
            \(stroke("soft", "#c03020", 30, 350, 600, 30, 18, 0.1, ""))
            \(stroke("soft", "#ffffff", 100, 60, 560, 300, 12, 0.2, #", "effect": "soften""#))
            \(stroke("soft", "#ffffff", 120, 300, 500, 90, 10, 0.3, #", "effect": "sharpen""#))
            \(stroke("hard", "#30a050", 200, 100, 450, 250, 9, 0.4, ##", "shadow": { "offset": [9, 7], "blur": 4, "color": "#10203090" }"##))
            \(stroke("soft", "#000000", 60, 200, 580, 210, 16, 0.5, #", "blend": "erase", "strokeOpacity": 0.6"#))
            \(stroke("soft", "#8080ff", 250, 20, 260, 370, 20, 0.6, #", "blend": "multiply""#))
            \(stroke("soft", "#ffe060", 400, 20, 300, 370, 20, 0.7, #", "blend": "screen", "strokeOpacity": 0.5"#))
            \(stroke("soft", "#000000", 25, 42, 610, 330, 22, 0.8, #", "effect": "desaturate", "edges": { "tolerance": 40 }"#))
            \(stroke("soft", "#000000", 320, 190, 330, 30, 15, 0.9, #", "effect": "lighten", "edges": { "tolerance": 24 }"#, last: true))
          ] }
        """

    static func stroke(_ brush: String, _ color: String, _ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ radius: Int,
                       _ t: Double, _ keys: String, last: Bool = false) -> String {
        let samples = (0...6).map { i -> String in
            let f = Double(i) / 6
            let x = Double(x0) + (Double(x1 - x0)) * f, y = Double(y0) + Double(y1 - y0) * f + 25 * sin(f * 6)
            return #"{ "x": \#(x), "y": \#(y), "t": \#(t + f * 0.2), "pressure": \#(0.5 + 0.5 * f) }"#
        }
        return #"{ "brush": "\#(brush)", "color": "\#(color)", "radius": \#(radius), "points": [\#(samples.joined(separator: ", "))]\#(keys) }"#
            + (last ? "" : ",")
    }

    func testEveryModeTiledEqualsOnePass() async throws {
        let renderer = try Renderer()
        try TileTestSupport.requireTranslationInvariantDriver(renderer)
        let dir = try TestSupport.temporaryDirectory(self, "tiled-modes")
        let path = dir.appendingPathComponent("modes.json").path
        try Self.script.write(toFile: path, atomically: true, encoding: .utf8)
        let scene = try Scene.load(path: path)
        XCTAssertTrue(scene.hasStrokeLayers)
        // Blurs worked out by the GPU's passes and on the CPU (a software rasterizer's default).
        for (onCPU, frame) in [(true, 12), (true, 23), (false, 24), (true, 27), (false, 40), (false, 23), (true, 40)] {
            await renderer.setBlursOnCPU(onCPU)
            let one = try await renderer.render(scene, frame: frame)
            for tile in [256, 300, 1000, 97, 320] {
                let plan = try await renderer.planTiles(scene, frame: frame, tile: tile)
                let tiled = try await renderer.renderTiled(plan)
                let differing = (0..<one.width * one.height).filter {
                    one.pixels[($0 * 4)..<($0 * 4 + 4)] != tiled.pixels[($0 * 4)..<($0 * 4 + 4)]
                }
                XCTAssertTrue(differing.isEmpty, "frame \(frame), tile \(tile), blurs on the \(onCPU ? "CPU" : "GPU"): "
                              + "\(differing.count) pixels differ, first at "
                              + "\(differing.first.map { "(\($0 % one.width), \($0 / one.width))" } ?? "-")")
            }
        }
    }
}
