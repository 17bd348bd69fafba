import Foundation
import Stipple

/// The served drawing's pyramid on disk (`render --pyramid --layout xyz`'s files), kept up to
/// date as the drawing changes, without ever making a tile again whole when a part changed.
///
/// A change removes the top zoom's files it touches (they are drawn again on demand). A tile
/// below keeps its file and notes which of its four quadrants changed: each quadrant is made
/// from one child alone, so the tile is made again from its old pixels and the changed
/// children only. A stroke then costs a tile or two a zoom, not every tile beneath.
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
    /// Tiles below the top zoom whose file is out of date: one bit a quadrant (bit 2·dy + dx).
    private var dirty: [ServedTiles.Key: UInt8] = [:]
    /// Tiles being made again, and who waits to make them next: one at a time a tile, so a
    /// tile's old pixels are never read while another remake of it is writing them.
    private var remaking: [ServedTiles.Key: [CheckedContinuation<Void, Never>]] = [:]
    /// Who waits for the pyramid to be whole (or to fail).
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiter = 0
    /// Counts the changes that removed every file: a remake begun before one is not kept.
    private var cleared = 0

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
        guard dirty[key] == nil, remaking[key] == nil, let path = file(key),
              let data = FileManager.default.contents(atPath: path) else { return nil }
        return [UInt8](data)
    }

    /// The pyramid was written (or its writing failed); returns those waiting for it.
    mutating func built(_ ok: Bool) -> [CheckedContinuation<Void, Never>] {
        failed = !ok
        if ok {
            ready = true
            for box in changedWhileBuilding { changed(box) }
            changedWhileBuilding = []
        }
        defer { waiters = [:] }
        return Array(waiters.values)
    }

    /// Someone waits for the pyramid; false when there is nothing to wait for.
    mutating func wait(_ c: CheckedContinuation<Void, Never>, id: Int) { waiters[id] = c }
    mutating func newWaiter() -> Int? {
        guard !ready, !failed, folder != nil else { return nil }
        nextWaiter += 1
        return nextWaiter
    }
    mutating func stopWaiting(_ id: Int) -> CheckedContinuation<Void, Never>? { waiters.removeValue(forKey: id) }

    /// The drawing changed over `box` (nil: everywhere).
    mutating func changed(_ box: ServedDrawing.Box?) {
        guard let root else { return }
        guard ready else { changedWhileBuilding.append(box); return }
        guard let box else {
            // Everything: the files go (tiles below are made again from all their children).
            for z in 0...tiles.topZoom { try? FileManager.default.removeItem(atPath: "\(root)/\(z)") }
            dirty = [:]
            cleared += 1
            return
        }
        for key in touched(by: box, z: tiles.topZoom) { unlink("\(root)/\(key.z)/\(key.x)/\(key.y).png") }
        for z in 0..<tiles.topZoom {
            for key in touched(by: box, z: z) {
                var bits: UInt8 = 0
                for q in 0..<4 where tiles.box(Self.child(key, q)).intersects(box) { bits |= 1 << q }
                dirty[key, default: 0] |= bits
            }
        }
    }

    /// Quadrant `q`'s child of `key` (bit q of a dirty mask).
    static func child(_ key: ServedTiles.Key, _ q: Int) -> ServedTiles.Key {
        ServedTiles.Key(z: key.z + 1, x: 2 * key.x + q % 2, y: 2 * key.y + q / 2, preview: false)
    }

    /// The tiles of zoom `z` that `box` touches.
    private func touched(by box: ServedDrawing.Box, z: Int) -> [ServedTiles.Key] {
        let span = ServedTiles.side << (tiles.topZoom - z)
        let x1 = min(box.x1, tiles.width), y1 = min(box.y1, tiles.height)
        guard x1 > 0, y1 > 0, box.x0 < x1, box.y0 < y1 else { return [] }
        var keys: [ServedTiles.Key] = []
        for y in max(0, box.y0) / span...(y1 - 1) / span {
            for x in max(0, box.x0) / span...(x1 - 1) / span { keys.append(ServedTiles.Key(z: z, x: x, y: y, preview: false)) }
        }
        return keys
    }

    /// Begins remaking `key`: true, or false when a remake of it is under way (then
    /// `queueRemake`: it resumes once the one before has ended).
    mutating func beginRemake(_ key: ServedTiles.Key) -> Bool {
        guard remaking[key] == nil else { return false }
        remaking[key] = []
        return true
    }
    mutating func queueRemake(_ key: ServedTiles.Key, _ c: CheckedContinuation<Void, Never>) { remaking[key]!.append(c) }

    /// What the remake of `key` must make again: the changed quadrants, or all four when the
    /// tile has no file. They count as made from here on; a change meanwhile marks them anew.
    mutating func takeChanged(_ key: ServedTiles.Key) -> Remake {
        let bits = dirty.removeValue(forKey: key) ?? 0
        guard let path = file(key) else { return Remake(quadrants: Self.allQuadrants, base: nil, path: nil, cleared: cleared) }
        let exists = FileManager.default.fileExists(atPath: path)
        return Remake(quadrants: exists ? bits : Self.allQuadrants, base: exists ? path : nil, path: path, cleared: cleared)
    }

    /// A remake's work: the quadrants to make again, the file holding the others (nil: none,
    /// all four are made), where the tile is written.
    struct Remake: Sendable {
        var quadrants: UInt8
        var base: String?
        var path: String?
        var cleared: Int
    }

    /// The remake of `key` ended; `unmade` are the quadrants it took and did not make (it
    /// failed). Returns the next remake of it waiting, if any.
    mutating func endRemake(_ key: ServedTiles.Key, _ remake: Remake, unmade: UInt8) -> CheckedContinuation<Void, Never>? {
        if let path = remake.path {
            if remake.cleared != cleared {
                // Everything changed meanwhile: what it wrote is out of date whole.
                unlink(path)
            } else if unmade != 0, FileManager.default.fileExists(atPath: path) {
                dirty[key, default: 0] |= unmade
            }
        }
        guard var queue = remaking[key], !queue.isEmpty else {
            remaking[key] = nil
            return nil
        }
        let next = queue.removeFirst()
        remaking[key] = queue
        return next
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
