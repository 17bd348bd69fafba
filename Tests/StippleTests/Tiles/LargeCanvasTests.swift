import XCTest
@testable import Stipple

/// Canvases past what one pass can draw, checked without goldens: marks placed across tile
/// borders of a 20000-pixel-wide canvas are compared with the same marks, moved by whole
/// pixels, drawn in one pass on a small canvas (placement is translation-invariant, so the
/// pixels must be equal); a streamed PNG decodes to the image drawn in memory.
final class LargeCanvasTests: XCTestCase {
    private static let renderer = Result { try Renderer() }
    private var renderer: Renderer { get throws { try LargeCanvasTests.renderer.get() } }
    private let brush = StampBatch(brushKey: "builtin:soft-round:64", brush: .builtin(.softRound, size: 64), stamps: [])
    /// Clear of anything a mark can reach, so the small canvas draws every mark as the big one does.
    private let margin = 220

    /// A cluster of marks around (0, 0): small ones on a 1/256-pixel grid (exact at any
    /// canvas position), and one wider than the largest point (a quad everywhere).
    private func cluster(seed: UInt64) -> [SketchPoint] {
        var rng = SplitMix64(seed: seed)
        // A coordinate within ±span on the 1/256-pixel grid.
        func grid(_ span: Int) -> Float {
            let steps = Int(rng.next() % UInt64(2 * span * 256))
            return Float(steps) / 256 - Float(span)
        }
        var marks = (0..<40).map { _ in
            SketchPoint(x: grid(60), y: grid(60), radius: 1 + Float(rng.next() % 40), red: 0.9, green: Float(rng.next() % 100) / 100,
                        blue: 0.2, alpha: 0.7)
        }
        marks.append(SketchPoint(x: 3.5, y: -2.25, radius: 150, red: 0.1, green: 0.3, blue: 0.9, alpha: 0.3))
        return marks
    }

    private func moved(_ marks: [SketchPoint], _ dx: Int, _ dy: Int) -> [SketchPoint] {
        marks.map { var p = $0; p.x += Float(dx); p.y += Float(dy); return p }
    }

    /// The region of `image` of `size` × `size` pixels at (`x`, `y`), straight RGBA.
    private func region(_ image: Image, x: Int, y: Int, size: Int) -> [UInt8] {
        var out: [UInt8] = []
        for row in y..<(y + size) {
            let start: Int = (row * image.width + x) * 4
            out += image.pixels[start..<(start + size * 4)]
        }
        return out
    }

    func testMarksAcrossTileBordersOfAWideCanvas() async throws {
        let r = try renderer
        try TileTestSupport.requireTranslationInvariantDriver(r)
        let (width, height) = (20000, 800)
        let background = CanvasBackground.color(Color(red: 1, green: 1, blue: 0.95, alpha: 1))
        // The default tile's right border (as wide as the driver allows) and a row border of
        // 256-pixel tiles, a corner of four of them, and the canvas's last column.
        var sample = brush
        sample.stamps = cluster(seed: 0)
        let apron = r.apron(for: [sample])
        let wide = r.largestTile(apron: apron).width
        var centres = [(256 * 7, 256), (256 * 40, 512), (256 * 77, 300)]
        if wide < width - margin { centres.append((wide, 350)) }
        var stamps: [SketchPoint] = []
        for (i, (cx, cy)) in centres.enumerated() { stamps += moved(cluster(seed: UInt64(i)), cx, cy) }
        let canvas = Canvas(width: width, height: height, background: background)
        var batch = brush
        batch.stamps = stamps
        for tile in [nil, 256] as [Int?] {
            let plan = try r.planTiles(canvas: canvas, batches: [batch], tile: tile)
            if tile == nil { XCTAssertEqual(plan.tileWidth, min(width, wide)) }
            XCTAssertGreaterThan(plan.bandCount * ((width + plan.tileWidth - 1) / plan.tileWidth), 1, "more than one tile")
            let big = try await r.renderTiled(plan)
            for (i, (cx, cy)) in centres.enumerated() {
                var small = brush
                small.stamps = moved(cluster(seed: UInt64(i)), margin, margin)
                let side = 2 * margin
                let one = try await r.render(canvas: Canvas(width: side, height: side, background: background), batches: [small])
                let drawn = region(big, x: cx - margin, y: cy - margin, size: side)
                let differing = zip(drawn, one.pixels).filter { $0 != $1 }.count
                XCTAssertEqual(differing, 0, "bytes differing around (\(cx), \(cy)), tile \(tile.map(String.init) ?? "default")")
            }
        }
    }

    /// `Renderer.render(_:frame:)` draws a canvas past the driver's limit in tiles, in memory.
    func testSceneWiderThanTheDriverRendersInMemory() async throws {
        let r = try renderer
        let width = r.info.maxCanvasSide.width + 700
        let folder = try TestSupport.temporaryDirectory(self, "wide-scene")
        let script = folder.appendingPathComponent("wide.json").path
        let x = width - 400
        let text = ##"{"canvas": {"width": \##(width), "height": 60, "background": "#102030"}, "##
            + #""brushes": {"s": {"builtin": "soft-round", "size": 64}}, "#
            + #""draw": [{"brush": "s", "stamps": [[\#(x).5, 30.25, 20, 0, 0, 0.9, 0.8, 0.1, 0.9]]}]}"#
        try text.write(toFile: script, atomically: true, encoding: .utf8)
        let image = try await r.render(Scene.load(path: script), frame: 0)
        XCTAssertEqual(image.width, width)
        let stamp = SketchPoint(x: 30.5, y: 30.25, radius: 20, red: 0.9, green: 0.8, blue: 0.1, alpha: 0.9)
        let small = try await r.render(canvas: Canvas(width: 60, height: 60, background: .color(Color(hex: "#102030")!)),
                                       batches: [StampBatch(brushKey: "s", brush: .builtin(.softRound, size: 64), stamps: [stamp])])
        var drawn: [UInt8] = []
        for row in 0..<60 {
            let start = (row * width + x - 30) * 4
            drawn += image.pixels[start..<(start + 240)]
        }
        XCTAssertEqual(zip(drawn, small.pixels).filter { $0 != $1 }.count, 0, "the stamp as one pass draws it, moved")
        XCTAssertNotEqual(Set(drawn).count, 1, "the stamp is there")
    }

    func testStreamedPNGDecodesToTheImageDrawnInMemory() async throws {
        let folder = try TestSupport.temporaryDirectory(self, "tiles")
        let script = folder.appendingPathComponent("s.json").path
        let stamps = (0..<60).map { i in "[\(i * 37 % 300).5, \(i * 53 % 200).25, \(3 + i % 30), 0, 0, 0.8, 0.\(i % 10), 0.3, 0.9]" }
        try """
            {"canvas": {"width": 300, "height": 200, "background": "#10203080"},
             "brushes": {"s": {"builtin": "soft-round", "size": 64}},
             "draw": [{"brush": "s", "stamps": [\(stamps.joined(separator: ","))]}]}
            """.write(toFile: script, atomically: true, encoding: .utf8)
        let streamed = folder.appendingPathComponent("tiled.png").path
        let run = try TestSupport.stipple(["render", script, "-o", streamed, "--tile", "37"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let expected = try await renderer.render(Scene.load(path: script), frame: 0)
        XCTAssertEqual(try PNGFile.read(path: streamed).image, expected)
        let whole = try PNGFile.encode(expected)
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: streamed))), whole, "the same bytes as the in-memory encoder")
    }
}
