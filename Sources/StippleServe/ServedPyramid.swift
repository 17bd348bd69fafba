import Foundation
import Stipple

/// The served drawing's pyramid on disk (`render --pyramid --layout xyz`'s files), kept up to
/// date as the drawing changes, without ever making a tile again whole when a part changed.
///
/// A change marks the top zoom's files it touches out of date (they are drawn again on
/// demand, over their pixels when strokes were only added: each file's mark says what it
/// shows). A tile below keeps its file and notes which of its four quadrants changed: each
/// quadrant is made from one child alone, so the tile is made again from its old pixels and
/// the changed children only. A stroke then costs a tile or two a zoom, not every tile beneath.
///
/// State only; `TileService` (an actor) holds it and does the waiting.
struct ServedPyramid {
    let tiles: ServedTiles
    /// The pyramid's folder; nil: no pyramid (tiles are drawn on demand, none kept).
    let folder: String?
    private(set) var ready = false
    private(set) var failed = false
    /// Changes made while the pyramid was being written, applied once it is whole.
    private var changedWhileBuilding: [ServedDrawing.Box?] = []
    /// Tiles whose file is out of date: below the top zoom, one bit a quadrant (bit 2·dy + dx);
    /// at the top, all four.
    private var dirty: [ServedTiles.Key: UInt8] = [:]
    /// What the top zoom's files show: the drawing's mark when the pyramid was written, and
    /// each file's own where it was written since.
    private var builtMark: ServedDrawing.Mark?
    private var topMarks: [ServedTiles.Key: ServedDrawing.Mark] = [:]
    /// The quadrants each remake in progress took (by its number), and whether the whole
    /// drawing changed under it since (its pixels are then not written). A remake's file is
    /// written on the actor that holds this, so a change never comes between the test and the
    /// write.
    ///
    /// A change over part of the drawing while a tile is made again does not stop its file
    /// being written: each quadrant it makes shows the drawing at least as it was when the
    /// remake began, and the change marks the quadrants it touched again (`changed`), so
    /// the file is never taken for up to date where it is not. Under strokes that land
    /// faster than a low zoom's tiles can be made, each remake still moves its file on.
    private var taken: [Int: (key: ServedTiles.Key, quadrants: UInt8, outdated: Bool, version: Int)] = [:]
    /// The remakes in progress of each tile, by number: every request asks whether its tile
    /// has one, with hundreds under way.
    private var takenOf: [ServedTiles.Key: Set<Int>] = [:]
    /// The latest remake (by number) whose file was written, each tile: an earlier remake
    /// that ends after it does not write over it.
    private var written: [ServedTiles.Key: Int] = [:]
    /// Below the top zoom, the drawing's version each file holds every change up to: the
    /// version when the remake that wrote it began, or when the pyramid was written.
    private var madeAt: [ServedTiles.Key: Int] = [:]
    private var builtVersion: Int?
    /// Who waits for the pyramid to be whole (or to fail).
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiter = 0

    static let allQuadrants: UInt8 = 0b1111

    init(tiles: ServedTiles, folder: String?) {
        self.tiles = tiles
        self.folder = folder
    }

    var root: String? { folder.map { $0 + "/pyramid" } }

    /// The file of exact tile `key`, once the pyramid is whole.
    func file(_ key: ServedTiles.Key) -> String? {
        guard ready, let root else { return nil }
        return "\(root)/\(key.z)/\(key.x)/\(key.y).png"
    }

    /// The file's bytes when it holds the tile as the drawing is now.
    func upToDate(_ key: ServedTiles.Key) -> [UInt8]? {
        guard dirty[key] == nil, takenOf[key] == nil else { return nil }
        return lastMade(key)
    }

    /// Below the top zoom, the file's bytes when they hold every change up to `version` of the
    /// drawing (whatever changed there after).
    func made(_ key: ServedTiles.Key, since version: Int) -> [UInt8]? {
        guard key.z < tiles.topZoom, let at = madeAt[key] ?? builtVersion, at >= version else { return nil }
        return lastMade(key)
    }

    /// The file's bytes, up to date or not: the tile's last exact pixels.
    func lastMade(_ key: ServedTiles.Key) -> [UInt8]? {
        guard let path = file(key), let data = FileManager.default.contents(atPath: path) else { return nil }
        return [UInt8](data)
    }

    /// The pyramid was written (or its writing failed) from the drawing at `mark`, of
    /// `version` or later; returns those waiting for it.
    mutating func built(_ ok: Bool, mark: ServedDrawing.Mark?, version: Int) -> [CheckedContinuation<Void, Never>] {
        failed = !ok
        if ok {
            ready = true
            builtMark = mark
            builtVersion = version
            for box in changedWhileBuilding { changed(box) }
            changedWhileBuilding = []
        }
        defer { waiters = [:] }
        return Array(waiters.values)
    }

    /// A number for one who is to wait for the pyramid (`wait`); nil when there is nothing
    /// to wait for.
    mutating func newWaiter() -> Int? {
        guard !ready, !failed, folder != nil else { return nil }
        nextWaiter += 1
        return nextWaiter
    }
    mutating func wait(_ c: CheckedContinuation<Void, Never>, id: Int) { waiters[id] = c }
    mutating func stopWaiting(_ id: Int) -> CheckedContinuation<Void, Never>? { waiters.removeValue(forKey: id) }

    /// The drawing changed over `box` (nil: everywhere).
    mutating func changed(_ box: ServedDrawing.Box?) {
        guard let root else { return }
        guard ready else { changedWhileBuilding.append(box); return }
        guard let box else {
            // Everything: the files go (tiles below are made again from all their children).
            for z in 0...tiles.topZoom { try? FileManager.default.removeItem(atPath: "\(root)/\(z)") }
            dirty = [:]
            topMarks = [:]
            madeAt = [:]
            builtVersion = nil
            for token in taken.keys { taken[token]?.outdated = true }
            return
        }
        for z in 0..<tiles.topZoom {
            for key in touched(by: box, z: z) {
                var bits: UInt8 = 0
                for q in 0..<4 where tiles.box(Self.child(key, q)).intersects(box) { bits |= 1 << q }
                dirty[key, default: 0] |= bits
            }
        }
        for key in touched(by: box, z: tiles.topZoom) { dirty[key] = Self.allQuadrants }
    }

    /// Top tile `key` was drawn at `mark` (`png`): written as its file unless the file shows
    /// a later mark already. It stays out of date until `current` says it is the tile as
    /// the drawing is.
    mutating func drew(_ key: ServedTiles.Key, _ png: [UInt8], mark: ServedDrawing.Mark) {
        guard let path = file(key) else { return }
        // A drawing begun before the file's, ending after it, does not take its place.
        if let shown = topMarks[key] ?? builtMark, shown >= mark { return }
        Self.write(png, to: path)
        topMarks[key] = mark
    }

    /// Top tile `key`'s file is the tile as the drawing is (drawn, and no change came since).
    mutating func current(_ key: ServedTiles.Key) { dirty[key] = nil }

    /// Top tile `key`'s file, up to date or not, and what it shows (read here, where no other
    /// file can take its place between the mark and the bytes).
    func topFile(_ key: ServedTiles.Key) -> (png: [UInt8], mark: ServedDrawing.Mark)? {
        guard let mark = topMarks[key] ?? builtMark, let png = lastMade(key) else { return nil }
        return (png, mark)
    }

    /// Quadrant `q`'s child of `key` (bit q of a dirty mask).
    static func child(_ key: ServedTiles.Key, _ q: Int) -> ServedTiles.Key {
        ServedTiles.Key(z: key.z + 1, x: 2 * key.x + q % 2, y: 2 * key.y + q / 2, preview: false)
    }

    /// The tiles of zoom `z` that `box` touches on the canvas.
    private func touched(by box: ServedDrawing.Box, z: Int) -> [ServedTiles.Key] {
        tiles.keys(touching: ServedDrawing.Box(x0: box.x0, y0: box.y0, x1: min(box.x1, tiles.width),
                                               y1: min(box.y1, tiles.height)), z: z)
    }

    /// Begins remaking `key` (remake number `token`): the quadrants changed since its file was
    /// written, with those other remakes of it in progress took (the file does not hold them
    /// yet), or all four when it has none. They count as being made from here on (the file
    /// is not up to date meanwhile); a change meanwhile marks what it touches anew. `version`:
    /// the drawing's, every change up to it marked (the tile made holds them all).
    mutating func beginRemake(_ key: ServedTiles.Key, token: Int, version: Int) -> Remake {
        let bits = (takenOf[key] ?? []).reduce(dirty.removeValue(forKey: key) ?? 0) { $0 | taken[$1]!.quadrants }
        let path = file(key)
        let exists = path.map { FileManager.default.fileExists(atPath: $0) } ?? false
        let remake = Remake(quadrants: exists ? bits : Self.allQuadrants, base: exists ? path : nil)
        taken[token] = (key, remake.quadrants, false, version)
        takenOf[key, default: []].insert(token)
        return remake
    }

    /// A remake's work: the quadrants to make again, and the file holding the others (nil:
    /// none, all four are made).
    struct Remake: Sendable {
        var quadrants: UInt8
        var base: String?
    }

    /// Remake `token` made its tile: written as the file unless the whole drawing changed
    /// under it or a later remake of the tile wrote it already (here, so that no change comes
    /// between the test and the write).
    /// True when the file written is the tile as the drawing is now.
    @discardableResult
    mutating func made(_ token: Int, _ png: [UInt8]) -> Bool {
        guard let t = untake(token) else { return false }
        guard !t.outdated, token > written[t.key, default: 0], let path = file(t.key) else { return false }
        Self.write(png, to: path)
        written[t.key] = token
        madeAt[t.key] = t.version
        return dirty[t.key] == nil && takenOf[t.key] == nil
    }

    /// Remake `token` ended without making its tile: the quadrants it took are marked again.
    mutating func failed(_ token: Int) {
        guard let t = untake(token), !t.outdated else { return }
        dirty[t.key, default: 0] |= t.quadrants
    }

    /// Remake `token` ends: what it took.
    private mutating func untake(_ token: Int) -> (key: ServedTiles.Key, quadrants: UInt8, outdated: Bool, version: Int)? {
        guard let t = taken.removeValue(forKey: token) else { return nil }
        takenOf[t.key]?.remove(token)
        if takenOf[t.key]?.isEmpty == true { takenOf[t.key] = nil }
        return t
    }

    /// Writes a tile's PNG as its file `path` (whole, then renamed into place).
    static func write(_ png: [UInt8], to path: String) {
        let dir = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let temp = path + ".part"
        guard FileManager.default.createFile(atPath: temp, contents: Data(png)) else { return }
        rename(temp, path)
    }
}
