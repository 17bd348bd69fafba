import Foundation
import XCTest
@testable import Stipple
@testable import StippleServe

/// The tile service's work: one render for many requests of a tile, work for tiles that left
/// a client's view dropped before it starts, cached tiles dropped where the drawing changed.
final class TileServiceTests: XCTestCase {
    private func service(renders: Int, dir: URL) async throws -> (TileService, ServedDrawing) {
        let path = dir.appendingPathComponent("d.json").path
        let strokes = (0..<40).map { i in
            #"{ "brush": "b", "radius": 6, "points": [{ "x": \#(i * 97 % 2000), "y": \#(i * 53 % 1200), "t": 0 }, { "x": \#((i * 97 + 400) % 2000), "y": \#((i * 53 + 300) % 1200), "t": 0.3 }] }"#
        }
        try #"{ "canvas": { "width": 2048, "height": 1280 }, "brushes": { "b": { "builtin": "soft-round", "size": 32 } }, "draw": [\#(strokes.joined(separator: ","))] }"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let drawing = try ServedDrawing(script: try Script.load(path: path), journal: nil)
        return (TileService(drawing: drawing, renderer: try Renderer(), width: 2048, height: 1280, cacheBytes: 64 << 20,
                            renders: renders), drawing)
    }

    func testRequestsForOneTileShareOneRender() async throws {
        let (tiles, _) = try await service(renders: 2, dir: try TestSupport.temporaryDirectory(self, "tiles-share"))
        let key = ServedTiles.Key(z: 3, x: 2, y: 1, preview: false)
        let results = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for c in 0..<8 { group.addTask { try await tiles.tile(key, client: c) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(Set(results).count, 1)
        let f = await tiles.statistics
        XCTAssertEqual(f.rendered, 1, "\(f)")
        XCTAssertEqual(f.coalesced + f.cached, 7, "\(f)")
        _ = try await tiles.tile(key, client: 9)
        let g = await tiles.statistics
        XCTAssertEqual(g.cached, f.cached + 1)
    }

    func testWorkForTilesThatLeftTheViewIsDroppedBeforeItStarts() async throws {
        let (tiles, _) = try await service(renders: 1, dir: try TestSupport.temporaryDirectory(self, "tiles-pan"))
        // A client pans fast: 40 tiles asked for at zoom 3 while the one render slot is busy
        // (held here, so that the line forms whatever this machine's speed), then the slot is
        // freed, the first tile's render starts, and the view moves to zoom 0.
        try await tiles.slots.acquire(id: -1)
        let asked = (0..<40).map { ServedTiles.Key(z: 3, x: $0 % 8, y: $0 / 8, preview: false) }
        let outcomes = Task {
            await withTaskGroup(of: Bool.self) { group in
                for key in asked { group.addTask { (try? await tiles.tile(key, client: 1)) != nil } }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
        }
        for _ in 0..<2000 where await tiles.queued < asked.count { try await Task.sleep(for: .milliseconds(1)) }
        let queued = await tiles.queued
        XCTAssertEqual(queued, asked.count, "every tile waits for the slot")
        await tiles.slots.release()
        // Until the first tile's job is marked started: given the slot, it can still be
        // dropped until then (its claims end first), and it would not count as running.
        for _ in 0..<2000 where await tiles.committed < 1 { try await Task.sleep(for: .milliseconds(1)) }
        await tiles.viewChanged(client: 1, z: 0, xs: 0...0, ys: 0...0)
        let begun = await tiles.begun - 1  // the tiles' renders begun before the view moved
        let served = await outcomes.value.filter { $0 }.count
        let f = await tiles.statistics
        // The renders already running when the view moved (one slot) finish; no other starts.
        XCTAssertGreaterThanOrEqual(begun, 1, "\(f)")
        XCTAssertEqual(f.rendered, begun, "\(f)")
        XCTAssertEqual(served, f.rendered, "\(f)")
        XCTAssertEqual(f.cancelled, asked.count - served, "\(f)")
        XCTAssertGreaterThanOrEqual(f.cancelled, 35, "\(f)")
    }

    /// Views and tiles travel on different connections: a view message older than the view
    /// a tile was asked for in (it came late) drops nothing; the next view does.
    func testALateViewMessageDropsNothing() async throws {
        let (tiles, _) = try await service(renders: 1, dir: try TestSupport.temporaryDirectory(self, "tiles-late-view"))
        func ask(seq: Int, from x0: Int) -> Task<Int, Never> {
            let asked = (0..<12).map { ServedTiles.Key(z: 3, x: x0 + $0 % 4, y: $0 / 4, preview: false) }
            return Task {
                await withTaskGroup(of: Bool.self) { group in
                    for key in asked { group.addTask { (try? await tiles.answer(key, client: 1, seq: seq)) != nil } }
                    return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
                }
            }
        }
        // The one render slot is held while the view messages come, so that every tile asked
        // for still waits in line then, whatever this machine's speed.
        func waitInLine(_ count: Int) async throws {
            for _ in 0..<2000 where await tiles.queued < count { try await Task.sleep(for: .milliseconds(1)) }
            let queued = await tiles.queued
            XCTAssertEqual(queued, count, "every tile waits for the slot")
        }
        try await tiles.slots.acquire(id: -1)
        let first = ask(seq: 2, from: 0)
        try await waitInLine(12)
        await tiles.viewChanged(client: 1, z: 0, xs: 0...0, ys: 0...0, seq: 1)
        await tiles.slots.release()
        let served = await first.value
        XCTAssertEqual(served, 12, "view 1 came after tiles of view 2 were asked for")
        let before = await tiles.statistics.cancelled
        try await tiles.slots.acquire(id: -1)
        let second = ask(seq: 3, from: 4)
        try await waitInLine(12)
        await tiles.viewChanged(client: 1, z: 0, xs: 0...0, ys: 0...0, seq: 4)
        await tiles.slots.release()
        let servedNow = await second.value
        let cancelled = await tiles.statistics.cancelled - before
        XCTAssertEqual(servedNow, 0, "view 4 left every tile of view 3 waiting")
        XCTAssertEqual(cancelled, 12)
    }

    /// A client that asks for a tile again on a new connection before its first one is seen to
    /// close (a browser's retry), after a change sent the first request's render on its own:
    /// the close ends the first request's claim, not the retry's.
    func testAClosedConnectionEndsOnlyItsOwnRequest() async throws {
        let (tiles, drawing) = try await service(renders: 1, dir: try TestSupport.temporaryDirectory(self, "tiles-retry"))
        let key = ServedTiles.Key(z: 3, x: 0, y: 0, preview: false)
        let first = Task { try await tiles.answer(key, client: 1, request: 101) }
        for _ in 0..<200 where await tiles.running == 0 { try await Task.sleep(for: .milliseconds(1)) }
        // A change over the tile while its render runs: a request from now on starts afresh.
        var stroke = await drawing.beginStroke()
        try drawing.check(Array(#"{"t": 0, "stroke": 1, "x": 40, "y": 40, "brush": "b", "radius": 20}"#.utf8), into: &stroke)
        try drawing.check(Array(#"{"t": 0.1, "stroke": 1, "x": 90, "y": 60}"#.utf8), into: &stroke)
        await tiles.invalidate(try await drawing.commit(stroke).box)
        let retry = Task { try await tiles.answer(key, client: 1, request: 102) }
        try await Task.sleep(for: .milliseconds(5))
        await tiles.abandon(key, client: 1, request: 101)
        let answered = try await retry.value
        XCTAssertEqual(answered.kind, .exact, "the retry is answered")
        _ = try? await first.value
        // Alone, a request whose connection closes drops the tile's render before it starts:
        // the one render slot is held here (as another tile's render would), so that the
        // request waits in line, whatever this machine's speed.
        for _ in 0..<2000 where await tiles.running > 0 { try await Task.sleep(for: .milliseconds(1)) }
        try await tiles.slots.acquire(id: -1)
        let before = await tiles.statistics.cancelled
        let other = ServedTiles.Key(z: 3, x: 6, y: 1, preview: false)
        let lone = Task { try await tiles.answer(other, client: 1, request: 103) }
        for _ in 0..<2000 where await tiles.queued == 0 { try await Task.sleep(for: .milliseconds(1)) }
        await tiles.abandon(other, client: 1, request: 103)
        await tiles.slots.release()
        do {
            _ = try await lone.value
            XCTFail("the abandoned request was drawn")
        } catch is CancellationError {}
        let cancelled = await tiles.statistics.cancelled - before
        XCTAssertEqual(cancelled, 1)
    }

    func testPreviewsComeFromPixelsAtHand() async throws {
        let (tiles, _) = try await service(renders: 2, dir: try TestSupport.temporaryDirectory(self, "tiles-previews"))
        // Before anything is drawn: the preview engine.
        _ = try await tiles.tile(ServedTiles.Key(z: 3, x: 1, y: 1, preview: true), client: 1)
        let cold = await tiles.statistics.previewsAtHand
        XCTAssertEqual(cold, 0)
        // An exact tile at zoom 2: its descendants' previews are cut from it, enlarged.
        _ = try await tiles.tile(ServedTiles.Key(z: 2, x: 0, y: 0, preview: false), client: 1)
        let child = try await tiles.tile(ServedTiles.Key(z: 3, x: 1, y: 0, preview: true), client: 1)
        let f = await tiles.statistics
        XCTAssertEqual(f.previewsAtHand, 1, "\(f)")
        XCTAssertEqual(f.rendered, 2, "no render for the preview: \(f)")
        let dir = try TestSupport.temporaryDirectory(self, "tiles-previews-png")
        try Data(child).write(to: dir.appendingPathComponent("p.png"))
        let image = try PNGFile.read(path: dir.appendingPathComponent("p.png").path).image
        XCTAssertEqual(image.width, 256)
        // Enlarged twice: each ancestor pixel is a 2×2 block.
        XCTAssertEqual(image.pixel(10, 20).r, image.pixel(11, 21).r)
        // Once the overview is drawn, any tile's preview is at hand (a tile not asked for
        // before each time: an answer is cached).
        await tiles.start()
        var atHand = 1
        for i in 0..<40 where atHand < 2 {
            _ = try await tiles.tile(ServedTiles.Key(z: 3, x: 7 - i % 8, y: 4 - i / 8, preview: true), client: 1)
            atHand = await tiles.statistics.previewsAtHand
            try await Task.sleep(for: .milliseconds(50))
        }
        XCTAssertGreaterThanOrEqual(atHand, 2)
        // Asked again, a preview is the cache's (or the pyramid's, once written); a preview
        // of a tile whose exact pixels are cached is those pixels.
        let before = await tiles.statistics
        _ = try await tiles.tile(ServedTiles.Key(z: 3, x: 7, y: 4, preview: true), client: 1)
        _ = try await tiles.tile(ServedTiles.Key(z: 2, x: 0, y: 0, preview: true), client: 1)
        let after = await tiles.statistics
        XCTAssertEqual(after.cached + after.fromPyramid, before.cached + before.fromPyramid + 2, "\(before) → \(after)")
        XCTAssertEqual(after.previewsAtHand, before.previewsAtHand)
        XCTAssertEqual(after.rendered, before.rendered)
        // The same preview made twice at once is cached once; the tile's exact pixels, drawn
        // later, take its place.
        let preview = ServedTiles.Key(z: 2, x: 1, y: 1, preview: true)
        async let one = tiles.tile(preview, client: 1)
        async let two = tiles.tile(preview, client: 2)
        let (p1, _) = try await (one, two)
        let previewed = await tiles.statistics
        XCTAssertEqual(previewed.cacheBytes, after.cacheBytes + p1.count, "\(after) → \(previewed)")
        XCTAssertEqual(previewed.cacheTiles, after.cacheTiles + 1)
        let exact = try await tiles.tile(ServedTiles.Key(z: 2, x: 1, y: 1, preview: false), client: 1)
        let drawn = await tiles.statistics
        XCTAssertEqual(drawn.cacheTiles, previewed.cacheTiles, "\(previewed) → \(drawn)")
        XCTAssertEqual(drawn.cacheBytes, previewed.cacheBytes - p1.count + exact.count)
    }

    func testAChangeDropsTheCachedTilesItTouches() async throws {
        let (tiles, drawing) = try await service(renders: 2, dir: try TestSupport.temporaryDirectory(self, "tiles-change"))
        let near = ServedTiles.Key(z: 3, x: 0, y: 0, preview: false), far = ServedTiles.Key(z: 3, x: 7, y: 4, preview: false)
        let a = try await tiles.tile(near, client: 1)
        _ = try await tiles.tile(far, client: 1)
        var stroke = await drawing.beginStroke()
        try drawing.check(Array(#"{"t": 0, "stroke": 1, "x": 40, "y": 40, "brush": "b", "radius": 20}"#.utf8), into: &stroke)
        try drawing.check(Array(#"{"t": 0.1, "stroke": 1, "x": 90, "y": 60}"#.utf8), into: &stroke)
        let change = try await drawing.commit(stroke)
        XCTAssertEqual(change.version, 1)
        await tiles.invalidate(change.box)
        let before = await tiles.statistics
        let b = try await tiles.tile(near, client: 1)
        _ = try await tiles.tile(far, client: 1)
        let after = await tiles.statistics
        XCTAssertNotEqual(a, b, "the changed tile is drawn again")
        XCTAssertEqual(after.rendered, before.rendered + 1, "only the changed tile")
        XCTAssertEqual(after.cached, before.cached + 1, "the far tile from the cache")
    }

    /// Renders someone asked for go before those made for another tile's sake, however long
    /// those have waited; one asked for while it waits moves up.
    func testAskedForRendersGoFirst() async throws {
        let slots = RenderSlots(count: 1)
        try await slots.acquire(id: 0)
        let order = OrderLog()
        var waiters: [Task<Void, Error>] = []
        for (id, urgent) in [(1, false), (2, false), (3, true), (4, false)] {
            waiters.append(Task {
                try await slots.acquire(id: id, urgent: urgent)
                await order.add(id)
                await slots.release()
            })
            while await slots.queued < id { try await Task.sleep(for: .milliseconds(2)) }
        }
        await slots.promote(4)
        await slots.release()
        for w in waiters { try await w.value }
        let seen = await order.ids
        XCTAssertEqual(seen, [3, 4, 1, 2])
    }

    /// While both lines wait, one slot in `laterShare` goes to the renders made for another
    /// tile's sake: a steady stream of requests does not starve them.
    func testRendersForOtherTilesGetAShareOfTheSlots() async throws {
        XCTAssertEqual(RenderSlots.laterShare, 4)
        let slots = RenderSlots(count: 1)
        try await slots.acquire(id: 0)
        let order = OrderLog()
        var waiters: [Task<Void, Error>] = []
        for (n, (id, urgent)) in [(1, false), (2, false), (3, true), (4, true), (5, true), (6, true), (7, true), (8, true)].enumerated() {
            waiters.append(Task {
                try await slots.acquire(id: id, urgent: urgent)
                await order.add(id)
                await slots.release()
            })
            while await slots.queued <= n { try await Task.sleep(for: .milliseconds(2)) }
        }
        await slots.release()
        for w in waiters { try await w.value }
        let seen = await order.ids
        XCTAssertEqual(seen, [3, 4, 5, 1, 6, 7, 8, 2], "the fourth slot to the second line, the rest in order")
    }

    /// The overview is drawn again box by box where the drawing changed, never as the union
    /// of boxes far apart (strokes all over a large drawing would make that all of it).
    func testTheOverviewIsPatchedWhereItChanged() {
        var previews = TilePreviews(tiles: ServedTiles(width: 16384, height: 16384), limit: 1 << 20)
        previews.overviewChanged(ServedDrawing.Box(x0: 100, y0: 100, x1: 400, y1: 300))
        previews.overviewChanged(ServedDrawing.Box(x0: 15000, y0: 15000, x1: 15600, y1: 15300))
        previews.overviewChanged(ServedDrawing.Box(x0: 350, y0: 250, x1: 500, y1: 600))
        let patches = previews.takeStale()
        XCTAssertEqual(patches.map(\.box), [ServedDrawing.Box(x0: 15000, y0: 15000, x1: 15600, y1: 15300),
                                             ServedDrawing.Box(x0: 96, y0: 96, x1: 500, y1: 600)],
                       "overlapping boxes joined, on the overview's pixel grid (8 canvas pixels)")
        XCTAssertEqual(patches.map(\.origin.x), [1875, 12])
        XCTAssertTrue(previews.takeStale().isEmpty)
        // A patch lands at its place, cut at the overview's edge; nothing else changes.
        var small = TilePreviews(tiles: ServedTiles(width: 600, height: 300), limit: 1 << 20)
        small.setOverview(Image(width: 150, height: 75, pixels: [UInt8](repeating: 0, count: 150 * 75 * 4)))
        small.patchOverview(Image(width: 3, height: 2, pixels: (0..<24).map { UInt8($0 + 1) }), at: (148, 74))
        let o = small.overview!
        XCTAssertEqual(o.width, 150)
        XCTAssertEqual(Array(o.pixels[((74 * 150) + 148) * 4..<((74 * 150) + 150) * 4]), Array(1...8))
        XCTAssertEqual(o.pixels.filter { $0 != 0 }.count, 8, "two pixels of the first row, the rest cut")
    }
}

private actor OrderLog {
    var ids: [Int] = []
    func add(_ id: Int) { ids.append(id) }
}
