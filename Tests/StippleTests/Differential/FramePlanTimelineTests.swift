import Foundation
import XCTest
@testable import Stipple

/// What a frame plan promises beyond equal pixels: the timeline counts session entries,
/// "detect edges" references are read once each, the mode passes' targets fit the driver,
/// and small tiles under wide blurs stay cheap.
final class FramePlanTimelineTests: XCTestCase {
    private func scene(_ json: String) throws -> Scene {
        let dir = try TestSupport.temporaryDirectory(self, "frame-plan")
        let path = dir.appendingPathComponent("s.json").path
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return try Scene.load(path: path)
    }

    /// An undo at 0.5 s and a redo at 0.8 s change the picture: the canvas settles after the
    /// redo, and `describe` and `--frames all` run to it.
    func testSessionEntriesExtendTheTimeline() throws {
        let s = try scene("""
            { "canvas": { "width": 32, "height": 32 }, "fps": 30,
              "brushes": { "b": { "builtin": "hard-round" } },
              "draw": [ { "brush": "b", "radius": 4, "color": "#ff0000", "points": [ { "x": 8, "y": 8, "t": 0 } ] },
                        { "undo": 1, "t": 0.5 }, { "redo": 1, "t": 0.8 } ] }
            """)
        XCTAssertEqual(s.timeline.settledFrame, 24)
        XCTAssertEqual(s.timeline.liveFrames, 0...24)
        let r = try TestSupport.stipple(["describe", s.scriptPath])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("last frame   24") || r.stdout.range(of: #"last frame\s+24"#, options: .regularExpression) != nil,
                      r.stdout)
    }

    /// Each "detect edges" stroke's reference is read once, whatever the number of earlier
    /// ones: 16 strokes, 16 reads (it was exponential).
    func testEdgeReferencesAreReadOncePerStroke() async throws {
        let strokes = (0..<16).map { i in
            ##"{ "brush": "b", "radius": 3, "color": "#000000", "edges": { "tolerance": 20 }, "effect": "darken", "##
                + #""points": [ { "x": \#(4 + 3 * i), "y": 10, "t": \#(Double(i) / 30) }, { "x": \#(4 + 3 * i), "y": 30, "t": \#(Double(i) / 30 + 0.02) } ] }"#
        }
        let s = try scene(##"{ "canvas": { "width": 64, "height": 40, "background": "#ffffff" }, "fps": 30, "##
            + #""brushes": { "b": { "builtin": "soft-round" } }, "draw": [\#(strokes.joined(separator: ","))] }"#)
        let renderer = try Renderer()
        _ = try await renderer.resolvedBatches(s, atFrame: 40)
        XCTAssertEqual(s.edgeReferences.count, 16)
        // The same references drawn at a later frame, or a whole frame drawn, come from the
        // scene's table: no new reads, however many frames a run draws.
        _ = try await renderer.resolvedBatches(s, atFrame: 45)
        _ = try await renderer.render(s, frame: 50)
        XCTAssertEqual(s.edgeReferences.count, 16)
        // A changed copy starts a table of its own; the original keeps its references.
        var changed = s
        changed.batches.removeLast()
        XCTAssertEqual(changed.edgeReferences.count, 0)
        _ = try await renderer.resolvedBatches(changed, atFrame: 45)
        XCTAssertEqual(changed.edgeReferences.count, 15)
        XCTAssertEqual(s.edgeReferences.count, 16)
    }

    /// `--frames all` runs to the last session entry, as `describe` does.
    func testFramesAllRunsToTheLastSessionEntry() throws {
        let s = try scene("""
            { "canvas": { "width": 64, "height": 64 }, "fps": 30,
              "brushes": { "b": { "builtin": "hard-round" } },
              "draw": [ { "brush": "b", "radius": 4, "color": "#ff0000", "points": [ { "x": 8, "y": 8, "t": 0 } ] },
                        { "undo": 1, "t": 0.5 }, { "redo": 1, "t": 0.8 } ] }
            """)
        let out = URL(fileURLWithPath: s.scriptPath).deletingLastPathComponent().appendingPathComponent("f").path
        let r = try TestSupport.stipple(["render", s.scriptPath, "--frames", "all", "-o", out + "/"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let written = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".png") }.sorted()
        XCTAssertEqual(written.count, 25, "frames 0…24")
        XCTAssertEqual(written.last, "frame-0024.png")
    }

    /// A shadow on a canvas past the driver's side (with its blur's spill) draws in tiles,
    /// and equals the same strokes drawn in smaller tiles.
    func testShadowsPastTheDriversSideDraw() async throws {
        let renderer = try Renderer()
        try TileTestSupport.requireTranslationInvariantDriver(renderer)
        let side = renderer.info.maxCanvasSide.width
        let s = try scene("""
            { "canvas": { "width": \(side + 18), "height": 40, "background": "#ffffff" }, "fps": 30,
              "brushes": { "b": { "builtin": "soft-round" } },
              "draw": [ { "brush": "b", "radius": 8, "color": "#3050ff", "shadow": { "blur": 6 },
                          "points": [ { "x": \(side - 40), "y": 20, "t": 0 }, { "x": \(side + 10), "y": 22, "t": 0.1 } ] } ] }
            """)
        let whole = try await renderer.render(s, frame: 3)
        let tiled = try await renderer.renderTiled(try await renderer.planTiles(s, frame: 3, tile: 1000))
        XCTAssertEqual(whole.pixels, tiled.pixels)
    }

    /// A tiny `--tile` under a wide blur is drawn in tiles at least four times the blur's
    /// reach (tile size never shows, and the cost stays near one pass's).
    func testSmallTilesGrowToTheirReads() async throws {
        let s = try scene("""
            { "canvas": { "width": 110, "height": 150, "background": "#ffffff" },
              "brushes": { "b": { "builtin": "soft-round" } },
              "draw": [ { "brush": "b", "radius": 10, "color": "#ff0000", "shadow": { "blur": 64 },
                          "points": [ { "x": 20, "y": 20, "t": 0 }, { "x": 90, "y": 130, "t": 0.1 } ] } ] }
            """)
        let renderer = try Renderer()
        let plan = try await renderer.planTiles(s, frame: 3, tile: 3)
        XCTAssertEqual(plan.bandCount, 1, "one band of tiles as tall as the canvas")
        let one = try await renderer.render(s, frame: 3)
        let tiled = try await renderer.renderTiled(plan)
        XCTAssertEqual(tiled.pixels, one.pixels)
    }

    /// A render in tiles, streamed band by band, frees the tile's target and the mode
    /// passes' targets after its last band.
    func testTiledRendersFreeTheirTargets() async throws {
        let s = try scene("""
            { "canvas": { "width": 300, "height": 200, "background": "#ffffff" },
              "brushes": { "b": { "builtin": "soft-round" } },
              "draw": [ { "brush": "b", "radius": 10, "color": "#ff0000", "effect": "soften",
                          "points": [ { "x": 20, "y": 20, "t": 0 }, { "x": 280, "y": 180, "t": 0.1 } ] } ] }
            """)
        let renderer = try Renderer()
        let plan = try await renderer.planTiles(s, frame: 3, tile: 64)
        for n in 0..<plan.bandCount {
            _ = try await renderer.renderBand(plan, n)
            let held = await renderer.heldScratchTargets()
            if n < plan.bandCount - 1 { XCTAssertGreaterThan(held, 0) } else { XCTAssertEqual(held, 0) }
        }
    }
}

/// The frame's passes: runs of plain entries, each stroke layer alone, in order.
final class FramePassesTests: XCTestCase {
    func testPlainRunsAndLayersInDrawOrder() {
        var soften = StrokeMode()
        soften.effect = .soften
        var shadow = StrokeMode()
        shadow.shadow = StrokeMode.Shadow()
        let passes = FramePasses(modes: [nil, nil, soften, nil, shadow, shadow, nil])
        XCTAssertEqual(passes.passes, [.stamps(0..<2), .layer(2, soften), .stamps(3..<4), .layer(4, shadow),
                                       .layer(5, shadow), .stamps(6..<7)])
        XCTAssertTrue(passes.hasLayers)
        XCTAssertEqual(passes.spill, StrokeMode.Shadow().radius)
        XCTAssertFalse(FramePasses(modes: [nil, nil]).hasLayers)
        XCTAssertEqual(FramePasses(modes: []).passes, [])
    }

    /// A tile's cone grows only through the layers that reach it, chained.
    func testConesFollowOnlyTheLayersThatReachATile() {
        var soften = StrokeMode()
        soften.effect = .soften
        func batch(_ x: Float, _ y: Float) -> StampBatch {
            var b = StampBatch(brushKey: "b", brush: .builtin(.softRound, size: 16),
                               stamps: [SketchPoint(x: x, y: y, radius: 4, age: 0, dissolveAngle: 0)])
            b.mode = soften
            return b
        }
        let canvas = Canvas(width: 400, height: 400)
        // Two softens on top of each other at (100, 100); one far away at (300, 300).
        let reaches = PassReaches([batch(100, 100), batch(100, 100), batch(300, 300)], settings: RenderSettings(),
                                  ageOffset: 0, canvas: canvas)
        // The second reads 6 around the tile; the first changed only its stamp's box (95…105,
        // a pixel of rounding on each side) and reads 6 around that: 89…111, 7 past the tile.
        XCTAssertEqual(reaches.cone(PixelBox(x0: 96, y0: 96, x1: 104, y1: 104)), 7)
        XCTAssertEqual(reaches.cone(PixelBox(x0: 296, y0: 296, x1: 304, y1: 304)), StrokeMode.blurRadius)
        XCTAssertEqual(reaches.cone(PixelBox(x0: 0, y0: 300, x1: 50, y1: 350)), 0)
        // The bound for any tile: the chain of the two overlapping layers' reads.
        XCTAssertEqual(reaches.widestCone, 2 * StrokeMode.blurRadius)
    }
}
