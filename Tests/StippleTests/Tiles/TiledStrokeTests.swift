import XCTest
@testable import Stipple

/// Random stroke scripts (smoothing, pressure, turning brushes, stamps wider than the
/// largest point, ages) drawn in tiles of 256, 300, 1000 and random odd sizes are the same
/// image as one pass, byte for byte.
final class TiledStrokeTests: XCTestCase {
    private static let renderer = Result { try Renderer() }

    /// A script of `strokes` random strokes on a `width` × `height` canvas, some of them
    /// wide enough to be drawn as quads, some starting off the canvas.
    static func randomScript(width: Int, height: Int, strokes: Int, seed: UInt64) -> String {
        var rng = SplitMix64(seed: seed)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        var entries: [String] = []
        for s in 0..<strokes {
            var x = unit() * Double(width), y = unit() * Double(height)
            var points: [String] = []
            for i in 0..<(5 + Int(unit() * 20)) {
                x += (unit() - 0.5) * 160; y += (unit() - 0.5) * 160
                points.append(#"{"x": \#(x), "y": \#(y), "t": \#(Double(i) * 0.05 + Double(s) * 0.3), "pressure": \#(0.2 + 0.8 * unit())}"#)
            }
            let radius = unit() < 0.15 ? 130 + unit() * 40 : 2 + unit() * 30
            let colour = String(format: "#%02x%02x%02x", Int(unit() * 255), Int(unit() * 255), Int(unit() * 255))
            let rotation = unit() < 0.3 ? #", "rotation": "follow""# : ""
            entries.append(#"{"brush": "\#(s % 2 == 0 ? "soft" : "hard")", "color": "\#(colour)", "radius": \#(radius), "#
                           + #""spacing": \#(0.1 + unit() * 0.5), "smoothing": \#(unit())\#(rotation), "points": [\#(points.joined(separator: ","))]}"#)
        }
        return """
            {"canvas": {"width": \(width), "height": \(height), "background": "#f0f0e0"},
             "maxAge": 90, "dissolveDistance": 12,
             "brushes": {"soft": {"builtin": "soft-round", "size": 64}, "hard": {"builtin": "hard-round", "size": 32}},
             "draw": [\(entries.joined(separator: ",\n"))]}
            """
    }

    func testRandomStrokeScriptsTiledEqualOnePass() async throws {
        let renderer = try TiledStrokeTests.renderer.get()
        try TileTestSupport.requireTranslationInvariantDriver(renderer)
        let folder = try TestSupport.temporaryDirectory(self, "tiled-strokes")
        var rng = SplitMix64(seed: 77)
        for seed in 0..<2 as Range<UInt64> {
            let path = folder.appendingPathComponent("s\(seed).json").path
            try TiledStrokeTests.randomScript(width: 1100, height: 700, strokes: 14, seed: seed)
                .write(toFile: path, atomically: true, encoding: .utf8)
            let scene = try Scene.load(path: path)
            // The scripts hold what tiles must get right: stamps drawn as quads, turned brushes.
            XCTAssertTrue(scene.batches.contains { $0.stamps.contains { $0.radius > 128 } }, "wide stamps in script \(seed)")
            XCTAssertTrue(scene.batches.contains { $0.rotations != nil }, "turned stamps in script \(seed)")
            for frame in [seed == 0 ? 40 : 85] {
                let settings = RenderSettings(effects: scene.effects)
                let batches = scene.batches(atFrame: frame)
                let one = try await renderer.render(canvas: scene.canvas, batches: batches, settings: settings)
                for tile in [256, 300, 1000, 2 * Int(rng.next() % 200) + 1] {
                    let plan = try renderer.planTiles(canvas: scene.canvas, batches: batches, settings: settings, tile: tile)
                    let tiled = try await renderer.renderTiled(plan)
                    let differing = zip(one.pixels, tiled.pixels).filter { $0 != $1 }.count
                    XCTAssertEqual(differing, 0, "script \(seed), frame \(frame), tile \(tile): bytes differing")
                }
            }
        }
    }

    /// Binning puts each stamp in the tiles its reach touches and no other: a stamp far
    /// from every border is in one tile's bucket, one on a corner in four.
    func testStampsAreBinnedToTheTilesTheyReach() {
        let grid = TileGrid(canvasWidth: 1000, canvasHeight: 1000, tileWidth: 100, tileHeight: 100)
        let stamps = [SketchPoint(x: 150, y: 150, radius: 10), SketchPoint(x: 200, y: 300, radius: 10),
                      SketchPoint(x: -500, y: 50, radius: 10), SketchPoint(x: 999.5, y: 999.5, radius: 2)]
        let batch = StampBatch(brushKey: "k", brush: .builtin(.softRound, size: 8), stamps: stamps)
        let bins = TileBins(grid: grid, batches: [batch], reach: StampReach(effects: AgeEffects()), apron: 0)
        XCTAssertEqual(bins.binnedCount, 1 + 4 + 0 + 1)
        XCTAssertEqual(bins.batches([batch], column: 1, row: 1)[0].stamps, [stamps[0]])
        XCTAssertEqual(bins.batches([batch], column: 2, row: 3)[0].stamps, [stamps[1]])
        XCTAssertEqual(bins.batches([batch], column: 9, row: 9)[0].stamps, [stamps[3]])
        XCTAssertEqual(bins.batches([batch], column: 5, row: 5).count, 0)
    }
}
