import Foundation
import XCTest
@testable import Stipple
@testable import StippleServe

/// A tile is drawn from the entries that can touch it alone: the same pixels as from the
/// whole drawing, exact and preview, at every zoom, with undone entries and live strokes
/// among them; a drawing with a stroke mode is drawn whole; strokes drawn live are kept as
/// their samples and laid again to the same stamps; a top tile is brought up to date by
/// drawing the strokes added since over its pixels, to the same bytes.
final class ServedSnapshotTests: XCTestCase {
    /// 40 strokes spread over a 1024 × 768 canvas (soft and hard, some wide), an undo among
    /// them, and `extra` entries after them.
    private func drawing(_ name: String, extra: String = "", journal: Bool = false, background: String = "#f4f0e8") throws -> ServedDrawing {
        let dir = try TestSupport.temporaryDirectory(self, name)
        let path = dir.appendingPathComponent("d.json").path
        var entries = (0..<40).map { i in
            ##"{ "brush": "\##(i % 3 == 0 ? "hard" : "soft")", "radius": \##(i % 7 == 0 ? 40 : 3 + i % 9), "color": "#\##(String(format: "%02x%02x%02x", i * 6, 255 - i * 5, 90 + i * 3))c0", "points": [{ "x": \##(i * 131 % 1000), "y": \##(i * 71 % 760), "t": \##(Double(i) * 0.1) }, { "x": \##((i * 131 + 180) % 1020), "y": \##((i * 71 + 90) % 770), "t": \##(Double(i) * 0.1 + 0.05), "pressure": 0.5 }] }"##
        }
        entries.insert(##"{ "undo": 1, "t": 1.22 }"##, at: 13)
        if !extra.isEmpty { entries.append(extra) }
        try ##"{ "canvas": { "width": 1024, "height": 768, "background": "\##(background)" }, "brushes": { "soft": { "builtin": "soft-round", "size": 64 }, "hard": { "builtin": "hard-round", "size": 32 } }, "draw": [\##(entries.joined(separator: ","))] }"##
            .write(toFile: path, atomically: true, encoding: .utf8)
        return try ServedDrawing(script: try Script.load(path: path),
                                 journal: journal ? dir.appendingPathComponent("d.live.jsonl").path : nil)
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

    /// A stroke's shadow cast far from its stamps: undoing the stroke refreshes the tiles
    /// under the shadow too, and a change spreads as far as a soften stroke reads around it.
    func testAChangeReachesWhatStrokeLayersDrawAndRead() async throws {
        let shadow = ##"{ "brush": "soft", "radius": 12, "color": "#202020", "shadow": { "offset": [600, 0], "blur": 2, "color": "#000000c0" }, "points": [{ "x": 60, "y": 100, "t": 6 }, { "x": 120, "y": 140, "t": 6.1 }] }"##
        let drawing = try drawing("served-snapshot-shadow", extra: shadow)
        let renderer = try Renderer()
        let layout = ServedTiles(width: 1024, height: 768)
        let tiles = TileService(drawing: drawing, renderer: renderer, width: 1024, height: 768, cacheBytes: 64 << 20,
                                renders: 2, folder: nil)
        let z = layout.topZoom
        let keys = (0..<3).flatMap { y in (0..<4).map { x in ServedTiles.Key(z: z, x: x, y: y, preview: false) } }
        for key in keys { _ = try await tiles.tile(key, client: 1) }  // every tile drawn and cached
        let undo = try await drawing.session("undo")
        XCTAssertGreaterThanOrEqual(undo.box?.x1 ?? 0, 600 + 60, "the undo's pixels include the shadow's")
        await tiles.invalidate(undo.box)
        let (scene, frame, _) = await drawing.snapshot()
        for key in keys {
            let served = try PNGFile.decode(try await tiles.tile(key, client: 1)).image.pixels
            let want = ServedTiles.padded(try await renderer.render(scene, frame: frame, view: layout.view(key)!)).pixels
            XCTAssertTrue(served == want, "tile \(key) after the undo")
        }

        // A live stroke's change in a drawing with a soften stroke reaches as far as it reads.
        func strokeBox(_ drawing: ServedDrawing) async throws -> ServedDrawing.Box? {
            var s = await drawing.beginStroke()
            try drawing.check(Array(##"{"t": 0, "stroke": 1, "x": 500, "y": 500, "brush": "soft", "radius": 6, "color": "#c02020"}"##.utf8), into: &s)
            try drawing.check(Array(##"{"t": 0.1, "stroke": 1, "x": 540, "y": 520}"##.utf8), into: &s)
            return try await drawing.commit(s).box
        }
        let plain = try await strokeBox(try self.drawing("served-snapshot-plain"))
        let softened = try await strokeBox(try self.drawing("served-snapshot-soften", extra: ##"{ "brush": "soft", "radius": 20, "color": "#ffffff", "effect": "soften", "points": [{ "x": 480, "y": 520, "t": 6 }, { "x": 600, "y": 480, "t": 6.1 }] }"##))
        let (p, q) = (try XCTUnwrap(plain), try XCTUnwrap(softened))
        XCTAssertTrue(q.x0 < p.x0 && q.y0 < p.y0 && q.x1 > p.x1 && q.y1 > p.y1, "\(q) spreads past \(p)")
    }

    func testADrawingWithAStrokeModeIsDrawnWhole() async throws {
        let drawing = try drawing("served-snapshot-modes", extra: ##"{ "brush": "soft", "radius": 6, "color": "#000000", "blend": "multiply", "points": [{ "x": 10, "y": 10, "t": 5 }, { "x": 60, "y": 30, "t": 5.1 }] }"##)
        let whole = await drawing.snapshot()
        let culled = await drawing.snapshot(touching: ServedDrawing.Box(x0: 0, y0: 0, x1: 64, y1: 64))
        XCTAssertEqual(Self.stamps(culled.scene), Self.stamps(whole.scene))
    }

    func testLiveStrokesAreKeptAsTheirSamplesAndLaidAgainToTheSameStamps() async throws {
        let drawing = try drawing("served-snapshot-samples", journal: true)
        let before = await drawing.bytes
        let script = await drawing.script
        let first = await drawing.snapshot()
        XCTAssertEqual(before, Self.stamps(first.scene) * SketchPoint.byteSize, "the script's stamps")
        var samples = 0
        var boxes: [ServedDrawing.Box?] = []
        for s in 0..<6 {
            var stroke = await drawing.beginStroke()
            for k in 0..<30 {
                let style = k == 0 ? ##", "brush": "\##(s % 2 == 0 ? "soft" : "hard")", "radius": \##(4 + s), "color": "#20\##(s)0c0""## : ""
                let (x, y) = (80 + s * 150 + k * 4, 100 + s * 90 + Int(40 * sin(Double(k) / 5)))
                try drawing.check(Array(##"{"t": \##(Double(k) * 0.01), "stroke": 1, "x": \##(x), "y": \##(y), "pressure": \##(0.3 + Double(k % 7) / 10)\##(style)}"##.utf8),
                                  into: &stroke)
            }
            samples += 30
            boxes.append(try await drawing.commit(stroke).box)
        }
        let whole = await drawing.snapshot()
        let liveStamps = whole.scene.batches.suffix(6).reduce(0) { $0 + $1.stamps.count }
        let grown = await drawing.bytes - before
        XCTAssertEqual(grown, samples * MemoryLayout<TouchSample>.stride, "a live stroke is kept as its samples")
        XCTAssertLessThan(grown * 5, liveStamps * SketchPoint.byteSize, "a fifth of its stamps' bytes at most")
        // The same script again: the journal replayed lays the same stamps, nothing changed.
        let reloaded = try await drawing.reload(script)
        XCTAssertEqual(reloaded.box, ServedDrawing.Box(x0: 0, y0: 0, x1: 0, y1: 0), "nothing changed")
        let again = await drawing.snapshot()
        XCTAssertEqual(again.frame, whole.frame)
        XCTAssertEqual(again.scene.batches.count, whole.scene.batches.count)
        for (a, b) in zip(again.scene.batches, whole.scene.batches) {
            XCTAssertEqual(a.stamps, b.stamps)
            XCTAssertEqual(a.rotations, b.rotations)
            XCTAssertEqual(a.brushKey, b.brushKey)
        }
        // A tile drawn from the live strokes it touches: the whole drawing's pixels there.
        let renderer = try Renderer()
        let tiles = ServedTiles(width: 1024, height: 768)
        let key = ServedTiles.Key(z: tiles.topZoom, x: 1, y: 1, preview: false)
        let culled = await drawing.snapshot(touching: tiles.box(key))
        XCTAssertTrue(culled.scene.batches.contains { b in whole.scene.batches.suffix(6).contains { $0.stamps == b.stamps } })
        let tile = try await renderer.render(culled.scene, frame: culled.frame, view: tiles.view(key)!)
        let reference = try await renderer.render(whole.scene, frame: whole.frame, view: tiles.view(key)!)
        XCTAssertTrue(tile.pixels == reference.pixels)
        // Undoing the last stroke changes its pixels alone.
        let undo = try await drawing.session("undo")
        XCTAssertEqual(undo.box, boxes.last!)
    }

    func testATopTileDrawnOverWithTheStrokesAddedSinceIsTheWholeDrawingsTile() async throws {
        let renderer = try Renderer()
        let layout = ServedTiles(width: 1024, height: 768)
        let z = layout.topZoom
        let keys = (0..<3).flatMap { y in (0..<4).map { x in ServedTiles.Key(z: z, x: x, y: y, preview: false) } }
        // Opaque, and translucent: its pixels go back to the GPU premultiplied as they were.
        for background in ["#f4f0e8", "#2040a060"] {
            let drawing = try drawing("served-drawn-over-\(background.dropFirst())", background: background)
            let tiles = TileService(drawing: drawing, renderer: renderer, width: 1024, height: 768, cacheBytes: 64 << 20,
                                    renders: 2, folder: nil)
            func check(_ when: String) async throws {
                let (scene, frame, _) = await drawing.snapshot()
                for key in keys {
                    let served = try PNGFile.decode(try await tiles.tile(key, client: 1)).image.pixels
                    let want = ServedTiles.padded(try await renderer.render(scene, frame: frame, view: layout.view(key)!)).pixels
                    XCTAssertTrue(served == want, "tile \(key) \(when) on \(background)")
                }
            }
            func stroke(_ s: Int) async throws {
                var stroke = await drawing.beginStroke()
                for k in 0..<12 {
                    let style = k == 0 ? ##", "brush": "\##(s % 2 == 0 ? "soft" : "hard")", "radius": \##(5 + 3 * s), "color": "#\##(s)0a0\##(s)0b0""## : ""
                    try drawing.check(Array(##"{"t": \##(Double(k) * 0.02), "stroke": 1, "x": \##(40 + s * 230 + k * 25), "y": \##(60 + s * 150 + k * 18), "pressure": \##(0.2 + Double(k) / 20)\##(style)}"##.utf8),
                                      into: &stroke)
                }
                await tiles.invalidate(try await drawing.commit(stroke).box)
            }
            try await check("at first")
            let none = await tiles.statistics.drawnOver
            XCTAssertEqual(none, 0, "nothing to draw over yet")
            for s in 0..<3 { try await stroke(s) }
            try await check("after three strokes")
            let over = await tiles.statistics.drawnOver
            XCTAssertGreaterThan(over, 0, "the tiles the strokes crossed are drawn over")
            // An undo takes pixels away: the tiles it touches are drawn whole again.
            await tiles.invalidate(try await drawing.session("undo").box)
            try await check("after an undo")
            let afterUndo = await tiles.statistics.drawnOver
            XCTAssertEqual(afterUndo, over, "an undo is never drawn over")
            try await stroke(3)
            try await check("after a stroke after the undo")
            let again = await tiles.statistics.drawnOver
            XCTAssertGreaterThan(again, over, "strokes after the undo are drawn over again")
        }
    }
}
