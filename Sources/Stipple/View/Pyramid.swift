import CStipple
import Foundation

/// A tile pyramid on disk (docs/views.md), as image viewers read them:
/// - `deepZoom`: `NAME.dzi` and `NAME_files/LEVEL/COLUMN_ROW.png`, levels from the 1×1 one (0)
///   up to the canvas, tiles of 254 pixels with 1 of overlap, as `vips dzsave` writes them
///   (OpenSeadragon reads it);
/// - `xyz`: `NAME/Z/X/Y.png`, tiles of 256 with no overlap, zoom 0 the level where the
///   canvas fits one tile, each zoom twice the one before up to the canvas (Leaflet reads it);
///   edge tiles are full tiles, transparent past the canvas, and `NAME/pyramid.json` says the sizes.
/// Every level is the 2×2 mean of the one below, rounded (`View`), so each tile is exactly
/// the view of its rectangle. The descriptor (`.dzi`, `pyramid.json`) is written last and
/// atomically: a pyramid without one is incomplete.
public struct PyramidOptions: Sendable {
    public enum Layout: String, Sendable, CaseIterable {
        case deepZoom = "dz"
        case xyz
    }
    /// How tiles are encoded: PNG (exact, straight alpha), JPEG (over white, 4:2:0) or WebP
    /// (lossy, with alpha). JPEG and WebP are encoded by Debian's libturbojpeg0 and libwebp7,
    /// loaded at run time.
    public enum TileFormat: String, Sendable, CaseIterable {
        case png, jpeg, webp
    }
    public var layout: Layout
    public var format: TileFormat
    /// JPEG's and WebP's quality, 1 to 100.
    public var quality: Int
    /// Tile side (without overlap): 254 for Deep Zoom, 256 for xyz by default.
    public var tileSize: Int
    /// Pixels each tile repeats of its neighbours on every side (Deep Zoom only).
    public var overlap: Int
    /// PNG compression of the tiles.
    public var compression: Int
    /// Replace a pyramid of the same name (by default an existing one is an error).
    public var overwrite: Bool

    public init(layout: Layout = .deepZoom, tileSize: Int? = nil, overlap: Int? = nil, format: TileFormat = .png,
                quality: Int = 90, compression: Int = Int(PNGFile.defaultCompression), overwrite: Bool = false) {
        self.layout = layout
        self.format = format
        self.quality = quality
        self.tileSize = tileSize ?? (layout == .deepZoom ? 254 : 256)
        self.overlap = overlap ?? (layout == .deepZoom ? 1 : 0)
        self.compression = compression
        self.overwrite = overwrite
    }

    /// The largest tile side accepted.
    public static let maxTileSize = 8192

    /// Throws, naming `path`, when a field is out of range.
    func validate(for path: String) throws {
        guard (1...PyramidOptions.maxTileSize).contains(tileSize) else {
            throw InputError(file: path, "a tile is 1 to \(PyramidOptions.maxTileSize) pixels a side (got \(tileSize))")
        }
        guard overlap >= 0, overlap * 2 < tileSize else {
            throw InputError(file: path, "a tile's overlap is 0 to less than half its side (got \(overlap) for \(tileSize))")
        }
        guard (0...9).contains(compression) else {
            throw InputError(file: path, "a PNG compression level is 0 to 9 (got \(compression))")
        }
        guard (1...100).contains(quality) else { throw InputError(file: path, "a tile quality is 1 to 100 (got \(quality))") }
        var err = [CChar](repeating: 0, count: 256)
        if format == .jpeg && stp_jpeg_available(&err, err.count) == 0 || format == .webp && stp_webp_available(&err, err.count) == 0 {
            throw InputError(file: path, String(cBuffer: err))
        }
    }

    /// The overlap tiles are cut with (xyz has none).
    var tileOverlap: Int { layout == .deepZoom ? overlap : 0 }

    /// The highest pyramid level written for a `width` × `height` canvas: Deep Zoom goes up to
    /// 1×1, xyz up to the level that fits one tile.
    func topLevel(_ width: Int, _ height: Int) -> Int {
        guard layout == .xyz else { return View.topLevel(width, height) }
        var top = 0
        while max(View.levelSize(width, height, level: top).width, View.levelSize(width, height, level: top).height) > tileSize {
            top += 1
        }
        return top
    }
}

/// What a pyramid run wrote.
public struct PyramidSummary: Sendable {
    /// The descriptor (`.dzi` or `pyramid.json`) and the folder of tiles.
    public var descriptor: String
    public var tiles: String
    public var levels: Int
    public var tileCount: Int
    public var bytes: Int
}

/// Paths of a pyramid called `path` (a trailing `.dzi` is dropped).
struct PyramidPaths {
    let descriptor: String
    let tiles: String
    /// Where the shards of a pyramid leave their parts for `Pyramid.join`.
    var parts: String { tiles + "/parts" }

    init(_ path: String, layout: PyramidOptions.Layout) {
        var base = path
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        if layout == .deepZoom {
            if base.hasSuffix(".dzi") { base.removeLast(4) }
            descriptor = base + ".dzi"
            tiles = base + "_files"
        } else {
            descriptor = (base as NSString).appendingPathComponent("pyramid.json")
            tiles = base
        }
    }
}

/// Cuts one level's rows into tiles as they arrive: tile row r is written once the rows it
/// covers (with its overlap) are in, and rows no later tile needs are let go, so a level holds
/// a tile row and its overlap, never the level. A shard's tiler cuts only `tileRows`, its rows
/// starting at `firstRow`.
struct LevelTiler {
    let width: Int, height: Int
    let tileSize: Int, overlap: Int
    /// Full tiles of `tileSize` (xyz: transparent past the level's edge) or cut at the edge (Deep Zoom).
    let padded: Bool
    /// The level's rows from `first` on, premultiplied RGBA.
    private var rows: [UInt8] = []
    private var first: Int
    /// The next row expected (rows arrive in order from `firstRow`).
    private(set) var received: Int
    private(set) var nextTileRow: Int
    let lastTileRow: Int

    init(width: Int, height: Int, tileSize: Int, overlap: Int, padded: Bool, tileRows: Range<Int>? = nil) {
        self.width = width; self.height = height
        self.tileSize = tileSize; self.overlap = overlap
        self.padded = padded
        let all = 0..<((height + tileSize - 1) / tileSize)
        let chosen = tileRows ?? all
        nextTileRow = chosen.lowerBound
        lastTileRow = chosen.upperBound
        first = chosen.isEmpty ? 0 : max(0, chosen.lowerBound * tileSize - overlap)
        received = first
    }

    var tileColumns: Int { (width + tileSize - 1) / tileSize }
    /// True when every tile row it cuts is written.
    var isDone: Bool { nextTileRow >= lastTileRow }
    /// The level rows this tiler reads.
    var rowsNeeded: Range<Int> {
        guard lastTileRow > nextTileRow || received > first else { return 0..<0 }
        return first..<span(lastTileRow - 1, extent: height).upperBound
    }

    /// The level pixels of tile `index` along a side of `extent`: with its overlap, cut at the edges.
    func span(_ index: Int, extent: Int) -> Range<Int> {
        max(0, index * tileSize - overlap)..<min(extent, (index + 1) * tileSize + overlap)
    }

    /// Takes the next row; returns the tile rows now complete, each as (row, tiles) where a
    /// tile is (column, its pixels' size, premultiplied pixels).
    mutating func push(_ row: UnsafeRawBufferPointer) -> [(Int, [(Int, Int, Int, [UInt8])])] {
        guard !isDone else { return [] }
        rows.append(contentsOf: row)
        received += 1
        var done: [(Int, [(Int, Int, Int, [UInt8])])] = []
        while nextTileRow < lastTileRow && received >= span(nextTileRow, extent: height).upperBound {
            done.append((nextTileRow, cut(nextTileRow)))
            nextTileRow += 1
            // Rows above the next tile row's first are not needed again.
            let keep = nextTileRow < lastTileRow ? span(nextTileRow, extent: height).lowerBound : received
            if keep > first {
                rows.removeFirst((keep - first) * width * 4)
                first = keep
            }
        }
        return done
    }

    private func cut(_ r: Int) -> [(Int, Int, Int, [UInt8])] {
        let ys = span(r, extent: height)
        return (0..<tileColumns).map { c in
            let xs = span(c, extent: width)
            let (w, h) = padded ? (tileSize, tileSize) : (xs.count, ys.count)
            var tile = [UInt8](repeating: 0, count: w * h * 4)
            rows.withUnsafeBytes { src in
                tile.withUnsafeMutableBytes { dst in
                    for y in ys {
                        let from = ((y - first) * width + xs.lowerBound) * 4
                        (dst.baseAddress! + (y - ys.lowerBound) * w * 4)
                            .copyMemory(from: src.baseAddress! + from, byteCount: xs.count * 4)
                    }
                }
            }
            return (c, w, h, tile)
        }
    }
}
