import Foundation
import XCTest
@testable import Stipple
@testable import StippleServe

/// A tile is drawn from the entries that can touch it alone: the same pixels as from the
/// whole drawing, exact and preview, at every zoom, with undone entries and live strokes
/// among them; and a drawing with a stroke mode is drawn whole.
final class ServedSnapshotTests: XCTestCase {
    /// 40 strokes spread over a 1024 × 768 canvas (soft and hard, some wide), an undo among
    /// them, and `extra` entries after them.
    private func drawing(_ name: String, extra: String = "") throws -> ServedDrawing {
        let dir = try TestSupport.temporaryDirectory(self, name)
        let path = dir.appendingPathComponent("d.json").path
        var entries = (0..<40).map { i in
            ##"{ "brush": "\##(i % 3 == 0 ? "hard" : "soft")", "radius": \##(i % 7 == 0 ? 40 : 3 + i % 9), "color": "#\##(String(format: "%02x%02x%02x", i * 6, 255 - i * 5, 90 + i * 3))c0", "points": [{ "x": \##(i * 131 % 1000), "y": \##(i * 71 % 760), "t": \##(Double(i) * 0.1) }, { "x": \##((i * 131 + 180) % 1020), "y": \##((i * 71 + 90) % 770), "t": \##(Double(i) * 0.1 + 0.05), "pressure": 0.5 }] }"##
        }
        entries.insert(##"{ "undo": 1, "t": 1.22 }"##, at: 13)
        if !extra.isEmpty { entries.append(extra) }
        try ##"{ "canvas": { "width": 1024, "height": 768, "background": "#f4f0e8" }, "brushes": { "soft": { "builtin": "soft-round", "size": 64 }, "hard": { "builtin": "hard-round", "size": 32 } }, "draw": [\##(entries.joined(separator: ","))] }"##
            .write(toFile: path, atomically: true, encoding: .utf8)
        return try ServedDrawing(script: try Script.load(path: path), journal: nil)
    }

    private static func stamps(_ scene: Scene) -> Int { scene.batches.reduce(0) { $0 + $1.stamps.count } }

    func testATileIsDrawnFromTheEntriesThatTouchItWithTheSamePixels() async throws {
        let drawing = try drawing("served-snapshot")
        // A live stroke over the others.
        var stroke = await drawing.beginStroke()
        for (k, (x, y)) in [(100, 700), (400, 420), (900, 80)].enumerated() {
            let style = k == 0 ? ##", "brush": "soft", "radius": 9, "color": "#2040c0""## : ""
            try drawing.check(Array(##"{"t": \##(Double(k) * 0.02), "stroke": 1, "x": \##(x), "y": \##(y)\##(style)}"##.utf8), into: &stroke)
        }
        _ = try await drawing.commit(stroke)
        let renderer = try Renderer()
        let tiles = ServedTiles(width: 1024, height: 768)
        let whole = await drawing.snapshot()
        var leftOut = 0
        for z in [tiles.topZoom, tiles.topZoom - 1] {
            for y in 0..<((768 >> (tiles.topZoom - z)) + 255) / 256 {
                for x in 0..<((1024 >> (tiles.topZoom - z)) + 255) / 256 {
                    let key = ServedTiles.Key(z: z, x: x, y: y, preview: false)
                    let view = tiles.view(key)!
                    let culled = await drawing.snapshot(touching: tiles.box(key))
                    XCTAssertEqual(culled.frame, whole.frame)
                    leftOut += Self.stamps(whole.scene) - Self.stamps(culled.scene)
                    let exact = try await renderer.render(culled.scene, frame: culled.frame, view: view)
                    let reference = try await renderer.render(whole.scene, frame: whole.frame, view: view)
                    XCTAssertTrue(exact.pixels == reference.pixels, "exact tile \(key)")
                    let preview = try await renderer.renderPreview(culled.scene, frame: culled.frame, view: view)
                    let previewReference = try await renderer.renderPreview(whole.scene, frame: whole.frame, view: view)
                    XCTAssertTrue(preview.pixels == previewReference.pixels, "preview of tile \(key)")
                }
            }
        }
        XCTAssertGreaterThan(leftOut, 0, "tiles leave out the stamps that do not touch them")
        XCTAssertTrue(whole.scene.state(atFrame: whole.frame).entries.count < whole.scene.batches.count, "an entry is undone")
    }

    func testADrawingWithAStrokeModeIsDrawnWhole() async throws {
        let drawing = try drawing("served-snapshot-modes", extra: ##"{ "brush": "soft", "radius": 6, "color": "#000000", "blend": "multiply", "points": [{ "x": 10, "y": 10, "t": 5 }, { "x": 60, "y": 30, "t": 5.1 }] }"##)
        let whole = await drawing.snapshot()
        let culled = await drawing.snapshot(touching: ServedDrawing.Box(x0: 0, y0: 0, x1: 64, y1: 64))
        XCTAssertEqual(Self.stamps(culled.scene), Self.stamps(whole.scene))
    }
}
