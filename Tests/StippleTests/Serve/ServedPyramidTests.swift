import Foundation
import Synchronization
import XCTest
@testable import Stipple
@testable import StippleServe

/// The served pyramid kept up to date as the drawing changes: a tile below the top zoom is
/// made again from its old pixels and the children of the quadrants that changed, and every
/// tile, however the changes and requests interleave, ends as the view's own pixels.
final class ServedPyramidTests: XCTestCase {
    private struct Fixture {
        let tiles: TileService
        let drawing: ServedDrawing
        let renderer: Renderer
        let layout: ServedTiles
    }

    /// A 2048 × 1280 drawing on an opaque background (top zoom 3), its pyramid written.
    private func fixture(_ name: String, renders: Int = 2) async throws -> Fixture {
        let dir = try TestSupport.temporaryDirectory(self, name)
        let path = dir.appendingPathComponent("d.json").path
        let strokes = (0..<30).map { i in
            ##"{ "brush": "b", "radius": 5, "color": "#20408080", "points": [{ "x": \##(i * 97 % 2000), "y": \##(i * 53 % 1200), "t": 0 }, { "x": \##((i * 97 + 300) % 2000), "y": \##((i * 53 + 200) % 1200), "t": 0.3 }] }"##
        }
        try ##"{ "canvas": { "width": 2048, "height": 1280, "background": "#f4f0e8" }, "brushes": { "b": { "builtin": "soft-round", "size": 32 } }, "draw": [\##(strokes.joined(separator: ","))] }"##
            .write(toFile: path, atomically: true, encoding: .utf8)
        let drawing = try ServedDrawing(script: try Script.load(path: path), journal: nil)
        let renderer = try Renderer()
        let tiles = TileService(drawing: drawing, renderer: renderer, width: 2048, height: 1280, cacheBytes: 64 << 20,
                                renders: renders, folder: dir.path)
        await tiles.start()
        for _ in 0..<600 where !(await tiles.statistics.pyramidReady) { try await Task.sleep(for: .milliseconds(50)) }
        let ready = await tiles.statistics.pyramidReady
        XCTAssertTrue(ready, "the pyramid is written")
        return Fixture(tiles: tiles, drawing: drawing, renderer: renderer, layout: ServedTiles(width: 2048, height: 1280))
    }

    /// Draws a short stroke from (x, y) and tells the tiles; the drawing's version after it.
    @discardableResult
    private static func stroke(_ f: Fixture, _ id: Int, x: Int, y: Int, dx: Int = 30, dy: Int = 10) async throws -> Int {
        var s = await f.drawing.beginStroke()
        try f.drawing.check(Array(##"{"t": \##(Double(id)), "stroke": \##(id), "x": \##(x), "y": \##(y), "brush": "b", "radius": 6, "color": "#c02020"}"##.utf8), into: &s)
        try f.drawing.check(Array(#"{"t": \#(Double(id) + 0.1), "stroke": \#(id), "x": \#(x + dx), "y": \#(y + dy)}"#.utf8), into: &s)
        let change = try await f.drawing.commit(s)
        await f.tiles.invalidate(change.box, version: change.version)
        return change.version
    }

    /// The tile as the view draws it now.
    private func expected(_ f: Fixture, _ key: ServedTiles.Key) async throws -> [UInt8] {
        let (scene, frame, _) = await f.drawing.snapshot()
        return ServedTiles.padded(try await f.renderer.render(scene, frame: frame, view: f.layout.view(key)!)).pixels
    }

    private static func same(_ got: [UInt8], _ want: [UInt8], _ what: String, line: UInt = #line) {
        let first = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        XCTAssert(got == want, "\(what): \(got.count) bytes against \(want.count), first differing at \(first.map(String.init) ?? "the end")",
                  line: line)
    }

    private func served(_ f: Fixture, _ key: ServedTiles.Key) async throws -> [UInt8] {
        try PNGFile.decode(try await f.tiles.tile(key, client: 1)).image.pixels
    }

    /// A tile below the top zoom made since the version a client names is exact for that
    /// client, though the drawing changed there after; naming the later change, it is made
    /// again.
    func testAFileMadeSinceTheVersionAClientNamesIsExactForIt() async throws {
        let f = try await fixture("pyramid-since")
        let key = ServedTiles.Key(z: 1, x: 0, y: 0, preview: false)
        let v1 = try await Self.stroke(f, 1, x: 300, y: 300)
        let first = try await f.tiles.answer(key, client: 1, since: v1)
        XCTAssertEqual(first.kind, .exact)
        Self.same(try PNGFile.decode(first.png).image.pixels, try await expected(f, key), "the tile made after the first change")
        let v2 = try await Self.stroke(f, 2, x: 320, y: 330)
        XCTAssertGreaterThan(v2, v1)
        let before = await f.tiles.statistics
        let again = try await f.tiles.answer(key, client: 1, since: v1)
        XCTAssertEqual(again.kind, .exact)
        XCTAssertEqual(again.png, first.png, "its file: every change up to the version named")
        let named = await f.tiles.statistics
        XCTAssertEqual(named.sinceNamed - before.sinceNamed, 1)
        XCTAssertEqual(named.fromChildren, before.fromChildren, "nothing made")
        let newer = try await f.tiles.answer(key, client: 1, since: v2)
        XCTAssertEqual(newer.kind, .exact)
        XCTAssertNotEqual(newer.png, first.png)
        Self.same(try PNGFile.decode(newer.png).image.pixels, try await expected(f, key), "the tile made after the second change")
        let after = await f.tiles.statistics
        XCTAssertEqual(after.sinceNamed, named.sinceNamed, "the file did not hold the change named")
        XCTAssertEqual(after.fromChildren - named.fromChildren, 2, "made again from its children, as its child at zoom 2 was")
    }

    /// A child is kept, while its siblings are made, as the quadrant it makes: a quarter of
    /// its bytes; a translucent child cannot be halved so (the tile is drawn instead); the
    /// quadrants not made are the tile's as it was.
    func testAChildIsKeptAsTheQuadrantItMakes() throws {
        let layout = ServedTiles(width: 2048, height: 1280)
        let key = ServedTiles.Key(z: 2, x: 0, y: 0, preview: false)
        let side = ServedTiles.side
        var pixels = [UInt8](repeating: 255, count: side * side * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) { pixels[i] = UInt8(i / 4 % side) }
        let q3 = try XCTUnwrap(layout.quadrant(key, 3, child: Image(width: side, height: side, pixels: pixels)))
        XCTAssertEqual(q3.count, side * side, "a quarter of the child's bytes")
        var translucent = pixels
        translucent[3] = 254
        XCTAssertNil(layout.quadrant(key, 0, child: Image(width: side, height: side, pixels: translucent)))
        let base = Image(width: side, height: side, pixels: [UInt8](repeating: 7, count: side * side * 4))
        let tile = try XCTUnwrap(layout.parent(key, quadrants: [nil, nil, nil, q3], over: base))
        func pixel(_ x: Int, _ y: Int) -> ArraySlice<UInt8> { tile.pixels[((y * side + x) * 4)..<((y * side + x) * 4 + 4)] }
        XCTAssertEqual(Array(pixel(10, 10)), [7, 7, 7, 7], "quadrant 0 as it was")
        XCTAssertEqual(Array(pixel(200, 10)), [7, 7, 7, 7], "quadrant 1 as it was")
        XCTAssertEqual(Array(pixel(side / 2 + 10, side / 2 + 20).dropFirst()), [255, 255, 255], "quadrant 3 made from its child")
        XCTAssertLessThanOrEqual(abs(Int(pixel(side / 2 + 10, side / 2 + 20).first!) - 20), 1, "the child's columns 20 and 21 averaged")
        XCTAssertNil(layout.parent(key, quadrants: [nil, nil, nil, q3]), "no tile as it was for the others")
    }

    func testAChangeMakesAgainOneQuadrantAZoom() async throws {
        let f = try await fixture("pyramid-quadrants")
        // Inside top-zoom tile (1, 1): one quadrant of each tile above it.
        try await Self.stroke(f, 1, x: 300, y: 300)
        let before = await f.tiles.statistics
        for z in 0...3 {
            let key = ServedTiles.Key(z: z, x: z == 3 ? 1 : 0, y: z == 3 ? 1 : 0, preview: false)
            let got = try await served(f, key)
            let want = try await expected(f, key)
            Self.same(got, want, "tile \(key) after the change")
        }
        let after = await f.tiles.statistics
        XCTAssertEqual(after.rendered - before.rendered, 4, "the changed top tile drawn, zooms 0 to 2 made: \(after)")
        XCTAssertEqual(after.fromChildren - before.fromChildren, 3, "\(after)")
        XCTAssertEqual(after.quadrantsMade - before.quadrantsMade, 3, "one quadrant a zoom, the others kept: \(after)")
        // Asked again, each is the pyramid's file.
        let read = await f.tiles.statistics.fromPyramid
        _ = try await served(f, ServedTiles.Key(z: 0, x: 0, y: 0, preview: false))
        let readAgain = await f.tiles.statistics.fromPyramid
        XCTAssertEqual(readAgain, read + 1)

        // A stroke across four top tiles' corner: every quadrant of their parent.
        try await Self.stroke(f, 2, x: 240, y: 240, dx: 30, dy: 30)
        let key = ServedTiles.Key(z: 2, x: 0, y: 0, preview: false)
        let got = try await served(f, key)
        let want = try await expected(f, key)
        Self.same(got, want, "tile \(key) after the second change")
        let last = await f.tiles.statistics
        XCTAssertEqual(last.quadrantsMade - after.quadrantsMade, 4, "\(last)")
    }

    /// A tile being made again from its children, whose last viewer moves away before it is
    /// made: it is dropped, and so are its children's renders not yet begun; the quadrants it
    /// took stay marked, so the tile is right when asked for again.
    func testATileNobodyWaitsForDropsItsChildrensRenders() async throws {
        let f = try await fixture("pyramid-dropped", renders: 1)
        // Across the corners of four top tiles under each of the tiles above (zooms 0 to 2).
        for (i, (x, y)) in [(240, 240), (752, 240), (240, 752), (752, 752)].enumerated() {
            try await Self.stroke(f, i + 1, x: x, y: y, dx: 30, dy: 30)
        }
        let before = await f.tiles.statistics
        let top = ServedTiles.Key(z: 0, x: 0, y: 0, preview: false)
        let asked = Task { try await f.tiles.tile(top, client: 1) }
        try await Task.sleep(for: .milliseconds(100))
        await f.tiles.viewChanged(client: 1, z: 3, xs: 7...7, ys: 4...4)
        do {
            _ = try await asked.value
            XCTFail("the tile was made though nobody waited for it")
        } catch is CancellationError {}
        // Renders already running finish; none begins after.
        for _ in 0..<100 where await f.tiles.running > 0 { try await Task.sleep(for: .milliseconds(20)) }
        let after = await f.tiles.statistics
        XCTAssertGreaterThan(after.cancelled - before.cancelled, 4, "\(after)")
        XCTAssertLessThan(after.rendered - before.rendered, 16, "16 top tiles changed: \(after)")
        let got = try await served(f, top)
        let want = try await expected(f, top)
        Self.same(got, want, "the tile asked for again")
    }

    /// Changes and requests interleaved at random (requests at every zoom while strokes land),
    /// then every tile asked for once more: each must be the view's own pixels.
    func testTilesMatchTheirViewsHoweverChangesAndRequestsInterleave() async throws {
        let f = try await fixture("pyramid-interleaved")
        var rng = SplitMix64(seed: 44)
        let keys = (0...3).flatMap { z in
            let n = 1 << z
            return (0..<n).flatMap { x in (0..<n).map { y in ServedTiles.Key(z: z, x: x, y: y, preview: false) } }
        }.filter { f.layout.view($0) != nil }
        // Half the requests at zooms 0 and 1, so that remakes of one tile overlap.
        let low = keys.filter { $0.z <= 1 }
        for round in 0..<6 {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<16 {
                    let pool = rng.next() % 2 == 0 ? low : keys
                    let key = pool[Int(rng.next() % UInt64(pool.count))]
                    group.addTask { _ = try await f.tiles.tile(key, client: 1) }
                    guard i % 2 == 0 else { continue }
                    let (x, y) = (Int(rng.next() % 2000), Int(rng.next() % 1240))
                    group.addTask { try await Self.stroke(f, 10 * round + i + 1, x: x, y: y) }
                }
                try await group.waitForAll()
            }
        }
        // Every tile made from children, and some of the top zoom's (drawn over their pixels
        // where strokes were added since they were drawn).
        for key in keys where key.z < 3 || rng.next() % 5 == 0 {
            let got = try await served(f, key)
            let want = try await expected(f, key)
            Self.same(got, want, "tile \(key)")
        }
        let made = await f.tiles.statistics
        XCTAssertGreaterThan(made.fromChildren, 0, "\(made)")
        XCTAssertGreaterThan(made.drawnOver, 0, "top tiles drawn over their files or kept pixels: \(made)")
    }

    /// A remake the drawing changed under (in part) still writes its file, and the quadrant
    /// the change touched stays marked; a remake that begins while another of the same tile
    /// is under way takes that one's quadrants too, and the earlier one, ending last, does
    /// not write over the later.
    func testARemakeWritesWhatItMadeAndKeepsWhatChangedSinceMarked() throws {
        let dir = try TestSupport.temporaryDirectory(self, "pyramid-remake-state")
        let layout = ServedTiles(width: 2048, height: 1280)
        var pyramid = ServedPyramid(tiles: layout, folder: dir.path)
        _ = pyramid.built(true, mark: nil, version: 0)
        let key = ServedTiles.Key(z: 2, x: 0, y: 0, preview: false)
        ServedPyramid.write([1], to: pyramid.file(key)!)
        XCTAssertEqual(pyramid.upToDate(key), [1])
        // The tile is canvas pixels 0..<512 each way, a quadrant 256. Quadrant 0 (top left)
        // changes; remake 1 takes it.
        pyramid.changed(ServedDrawing.Box(x0: 10, y0: 10, x1: 20, y1: 20))
        XCTAssertNil(pyramid.upToDate(key))
        XCTAssertEqual(pyramid.beginRemake(key, token: 1, version: 1).quadrants, 0b0001)
        // Quadrant 3 (bottom right) changes while it runs: the file is written, not up to date.
        pyramid.changed(ServedDrawing.Box(x0: 300, y0: 300, x1: 310, y1: 310))
        pyramid.made(1, [2])
        XCTAssertEqual(pyramid.lastMade(key), [2], "what the remake made is kept")
        XCTAssertNil(pyramid.upToDate(key), "the change since is still to be made")
        XCTAssertEqual(pyramid.made(key, since: 1), [2], "it holds every change up to the version its remake began at")
        XCTAssertNil(pyramid.made(key, since: 2), "not the one after")
        XCTAssertNil(pyramid.made(ServedTiles.Key(z: 3, x: 0, y: 0, preview: false), since: 0), "the top zoom's files are not made so")
        // Remake 2 takes quadrant 3; quadrant 0 changes again and remake 3 begins while 2 runs:
        // it takes 0 and 2's 3.
        XCTAssertEqual(pyramid.beginRemake(key, token: 2, version: 2).quadrants, 0b1000)
        pyramid.changed(ServedDrawing.Box(x0: 10, y0: 10, x1: 20, y1: 20))
        XCTAssertEqual(pyramid.beginRemake(key, token: 3, version: 3).quadrants, 0b1001)
        pyramid.made(3, [3])
        pyramid.made(2, [4])
        XCTAssertEqual(pyramid.lastMade(key), [3], "the earlier remake, ending last, writes nothing")
        XCTAssertEqual(pyramid.upToDate(key), [3])
        // A remake that fails gives its quadrants back; one the whole drawing changed under
        // writes nothing.
        pyramid.changed(ServedDrawing.Box(x0: 10, y0: 300, x1: 20, y1: 310))
        XCTAssertEqual(pyramid.beginRemake(key, token: 4, version: 4).quadrants, 0b0100)
        pyramid.failed(4)
        XCTAssertEqual(pyramid.beginRemake(key, token: 5, version: 5).quadrants, 0b0100)
        pyramid.changed(nil)
        pyramid.made(5, [5])
        XCTAssertNil(pyramid.lastMade(key), "every file went with the change")
    }

    /// A top tile's file stays through a change, out of date, with what it shows: to be
    /// drawn over. A drawing at an earlier mark never writes over one at a later mark; the
    /// file is up to date again once drawn with no change since.
    func testATopTilesFileIsKeptWithWhatItShows() throws {
        let dir = try TestSupport.temporaryDirectory(self, "pyramid-top-marks")
        let layout = ServedTiles(width: 1024, height: 512)
        var pyramid = ServedPyramid(tiles: layout, folder: dir.path)
        let key = ServedTiles.Key(z: layout.topZoom, x: 1, y: 1, preview: false)
        let built = ServedDrawing.Mark(entries: 40, resets: 2)
        _ = pyramid.built(true, mark: built, version: 0)
        ServedPyramid.write([1], to: pyramid.file(key)!)
        XCTAssertEqual(pyramid.upToDate(key), [1])
        XCTAssertEqual(pyramid.topFile(key)?.mark, built)
        pyramid.changed(ServedDrawing.Box(x0: 300, y0: 300, x1: 310, y1: 310))
        XCTAssertNil(pyramid.upToDate(key), "out of date")
        XCTAssertEqual(pyramid.topFile(key)?.png, [1], "kept, to be drawn over")
        XCTAssertEqual(pyramid.topFile(key)?.mark, built)
        let later = ServedDrawing.Mark(entries: 43, resets: 2)
        pyramid.drew(key, [2], mark: later)
        pyramid.drew(key, [3], mark: ServedDrawing.Mark(entries: 41, resets: 2))
        XCTAssertEqual(pyramid.topFile(key)?.png, [2], "an earlier drawing does not write over a later")
        XCTAssertEqual(pyramid.topFile(key)?.mark, later)
        XCTAssertNil(pyramid.upToDate(key), "drawn, not yet known to be current")
        pyramid.current(key)
        XCTAssertEqual(pyramid.upToDate(key), [2])
        // After an undo (a reset), any drawing is later.
        pyramid.drew(key, [4], mark: ServedDrawing.Mark(entries: 43, resets: 3))
        XCTAssertEqual(pyramid.topFile(key)?.png, [4])
        pyramid.drew(key, [5], mark: later)
        XCTAssertEqual(pyramid.topFile(key)?.png, [4], "nor one begun before the undo, ending after it")
        pyramid.changed(nil)
        XCTAssertNil(pyramid.topFile(key), "every file went with a change everywhere")
    }

    /// With a time limit, a low-zoom tile whose remake takes longer is answered at once with
    /// its last exact pixels, marked stale; the remake carries on, and the tile is then exact.
    func testASlowTileIsAnsweredWithItsLastExactPixelsAndMadeMeanwhile() async throws {
        let f = try await fixture("pyramid-stale", renders: 1)
        let top = ServedTiles.Key(z: 0, x: 0, y: 0, preview: false)
        let old = try await f.tiles.tile(top, client: 1)
        // Strokes under every quadrant of the tiles above: 16 top tiles to draw again.
        for (i, (x, y)) in [(240, 240), (752, 240), (240, 752), (752, 752)].enumerated() {
            try await Self.stroke(f, i + 1, x: x, y: y, dx: 30, dy: 30)
        }
        let (png, kind) = try await f.tiles.answer(top, client: 1, staleAfter: .milliseconds(1))
        XCTAssertEqual(kind, .stale)
        XCTAssertEqual(png, old, "the last exact pixels")
        let stale = await f.tiles.statistics.stale
        XCTAssertEqual(stale, 1)
        // The remake goes on with nobody waiting (four tiles at zoom 2, one at zoom 1, the
        // tile): it becomes the pyramid's, up to date.
        var made = false
        for _ in 0..<800 where !made {
            try await Task.sleep(for: .milliseconds(25))
            made = await f.tiles.statistics.fromChildren >= 6
        }
        let figures = await f.tiles.statistics
        XCTAssertTrue(made, "the remake carried on: \(figures)")
        let (now, nowKind) = try await f.tiles.answer(top, client: 1, staleAfter: .milliseconds(1))
        XCTAssertEqual(nowKind, .exact)
        Self.same(try PNGFile.decode(now).image.pixels, try await expected(f, top), "the tile once made")
    }

    /// No more than a few changed tiles below the top zoom are made at once: past them, a
    /// request is answered with the last exact pixels and no work begins.
    func testChangedTilesMadeAtOnceAreBounded() async throws {
        let f = try await fixture("pyramid-carried", renders: 1)
        // A stroke in each zoom-2 tile (512 canvas pixels square).
        let keys = (0..<3).flatMap { y in (0..<4).map { x in ServedTiles.Key(z: 2, x: x, y: y, preview: false) } }
        for (i, k) in keys.enumerated() { try await Self.stroke(f, i + 1, x: k.x * 512 + 240, y: k.y * 512 + 240, dx: 30, dy: 30) }
        for k in keys {
            let kind = try await f.tiles.answer(k, client: 1, staleAfter: .milliseconds(1)).kind
            XCTAssertEqual(kind, .stale, "tile \(k)")
        }
        let first = await f.tiles.statistics
        XCTAssertEqual(first.carried, TileService.carryLimit, "\(first)")
        XCTAssertEqual(first.stale, keys.count)
        // Once those are made, the others are taken up as they are asked for, and every tile
        // ends exact.
        for k in keys {
            var answer = try await f.tiles.answer(k, client: 1, staleAfter: .milliseconds(1))
            for _ in 0..<400 where answer.kind == .stale {
                try await Task.sleep(for: .milliseconds(25))
                answer = try await f.tiles.answer(k, client: 1, staleAfter: .milliseconds(1))
            }
            Self.same(try PNGFile.decode(answer.png).image.pixels, try await expected(f, k), "tile \(k)")
        }
        let last = await f.tiles.statistics
        XCTAssertEqual(last.carried, keys.count, "each made once: \(last)")
    }

    /// Views come on the live socket and tiles on other connections: a client's first tiles
    /// can arrive before its first view. Those answered stale are still made while it shows
    /// them, and it is told when.
    func testTilesAskedForBeforeTheFirstViewArrivedAreMadeAndTheClientIsToldWhen() async throws {
        let f = try await fixture("pyramid-first-view", renders: 1)
        let told = Mutex<[ServedTiles.Key]>([])
        await f.tiles.onReady { _, key in told.withLock { $0.append(key) } }
        let keys = (0..<2).map { x in ServedTiles.Key(z: 2, x: x, y: 0, preview: false) }
        for (i, k) in keys.enumerated() { try await Self.stroke(f, i + 1, x: k.x * 512 + 240, y: 240, dx: 30, dy: 30) }
        for k in keys {
            let kind = try await f.tiles.answer(k, client: 1, seq: 1, staleAfter: .milliseconds(1)).kind
            XCTAssertEqual(kind, .stale, "tile \(k)")
        }
        await f.tiles.viewChanged(client: 1, z: 2, xs: 0...1, ys: 0...0, seq: 1)
        for _ in 0..<1200 where told.withLock({ $0.count }) < keys.count { try await Task.sleep(for: .milliseconds(25)) }
        XCTAssertEqual(Set(told.withLock { $0 }), Set(keys), "told of each tile")
    }

    /// A client whose view shows the changed tiles: each tile it is answered stale for is made
    /// while it shows it, past the few made whoever waits, and the client is told when (to ask
    /// again then); once its view moves away, it is told nothing more and the tiles not begun
    /// are dropped.
    func testTilesAClientShowsAreMadeAndItIsToldWhen() async throws {
        let f = try await fixture("pyramid-watched", renders: 1)
        let told = Mutex<[(client: Int, key: ServedTiles.Key)]>([])
        await f.tiles.onReady { client, key in told.withLock { $0.append((client, key)) } }
        let keys = (0..<3).flatMap { y in (0..<4).map { x in ServedTiles.Key(z: 2, x: x, y: y, preview: false) } }
        func strokes(_ first: Int) async throws {
            for (i, k) in keys.enumerated() {
                try await Self.stroke(f, first + i, x: k.x * 512 + 240, y: k.y * 512 + 240, dx: 30, dy: 30)
            }
        }
        try await strokes(1)
        await f.tiles.viewChanged(client: 1, z: 2, xs: 0...3, ys: 0...2, seq: 1)
        for k in keys {
            let kind = try await f.tiles.answer(k, client: 1, seq: 1, staleAfter: .milliseconds(1)).kind
            XCTAssertEqual(kind, .stale, "tile \(k)")
        }
        let first = await f.tiles.statistics
        XCTAssertEqual(first.carried, TileService.carryLimit, "\(first)")
        for _ in 0..<1200 where told.withLock({ $0.count }) < keys.count { try await Task.sleep(for: .milliseconds(25)) }
        let heard = told.withLock { $0 }
        XCTAssertEqual(heard.count, keys.count, "told of each tile once: \(heard)")
        XCTAssertEqual(Set(heard.map(\.key)), Set(keys))
        XCTAssertTrue(heard.allSatisfy { $0.client == 1 })
        // Asked again, each is exact at once, without being made again.
        let made = await f.tiles.statistics.fromChildren
        for k in keys {
            let answer = try await f.tiles.answer(k, client: 1, seq: 1, staleAfter: .milliseconds(1))
            XCTAssertEqual(answer.kind, .exact, "tile \(k)")
            Self.same(try PNGFile.decode(answer.png).image.pixels, try await expected(f, k), "tile \(k)")
        }
        let madeAfter = await f.tiles.statistics.fromChildren
        XCTAssertEqual(madeAfter, made, "answered from what was made")

        // Changed again, answered stale, and the view moves away at once.
        told.withLock { $0 = [] }
        try await strokes(100)
        let before = await f.tiles.statistics
        for k in keys { _ = try await f.tiles.answer(k, client: 1, seq: 2, staleAfter: .milliseconds(1)) }
        await f.tiles.viewChanged(client: 1, z: 3, xs: 7...7, ys: 4...4, seq: 3)
        for _ in 0..<400 {
            let (running, queued) = (await f.tiles.running, await f.tiles.queued)
            if running == 0 && queued == 0 { break }
            try await Task.sleep(for: .milliseconds(25))
        }
        try await Task.sleep(for: .milliseconds(100))
        let after = await f.tiles.statistics
        XCTAssertGreaterThan(after.cancelled, before.cancelled, "the tiles not begun are dropped: \(after)")
        XCTAssertLessThan(after.fromChildren - before.fromChildren, keys.count, "\(after)")
        XCTAssertTrue(told.withLock { $0.isEmpty }, "a client is told only of tiles it shows")
    }
}
