/// A canvas, or an area of it, cut into tiles: columns and rows of `tileWidth` ×
/// `tileHeight` pixels from the area's top-left corner, the last column and row holding
/// what is left (down to one pixel). Rows of tiles are the bands an image is streamed in.
struct TileGrid: Equatable, Sendable {
    var canvasWidth: Int
    var canvasHeight: Int
    var tileWidth: Int
    var tileHeight: Int
    /// The canvas pixels the tiles cover (the whole canvas unless a view asks for less).
    var area: PixelBox

    init(canvasWidth: Int, canvasHeight: Int, tileWidth: Int, tileHeight: Int, area: PixelBox? = nil) {
        precondition(canvasWidth >= 1 && canvasHeight >= 1 && tileWidth >= 1 && tileHeight >= 1, "a grid of pixels")
        let area = area ?? PixelBox(x0: 0, y0: 0, x1: canvasWidth, y1: canvasHeight)
        precondition(area.x0 >= 0 && area.y0 >= 0 && area.x1 <= canvasWidth && area.y1 <= canvasHeight
                     && area.width >= 1 && area.height >= 1, "an area inside the canvas")
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.area = area
        self.tileWidth = min(tileWidth, area.width)
        self.tileHeight = min(tileHeight, area.height)
    }

    var columns: Int { (area.width + tileWidth - 1) / tileWidth }
    var rows: Int { (area.height + tileHeight - 1) / tileHeight }
    var count: Int { columns * rows }

    /// The canvas pixels of tile (`column`, `row`): x, y of its top-left pixel and its size.
    func rect(column: Int, row: Int) -> TileRect {
        let x = area.x0 + column * tileWidth, y = area.y0 + row * tileHeight
        return TileRect(x: x, y: y, width: min(tileWidth, area.x1 - x), height: min(tileHeight, area.y1 - y))
    }

    /// The canvas rows of band (tile row) `row`.
    func band(_ row: Int) -> Range<Int> {
        let y = area.y0 + row * tileHeight
        return y..<min(y + tileHeight, area.y1)
    }

    /// The columns (or rows) of tiles that the span `low...high` of canvas pixels touches,
    /// clamped to the grid; nil when it misses the canvas.
    @inline(__always)
    static func cells(_ low: Float, _ high: Float, tile: Int, extent: Int) -> ClosedRange<Int>? {
        guard high >= 0, low <= Float(extent), low <= high else { return nil }
        let last = (extent - 1) / tile
        let a = max(0, min(last, Int(max(0, low).rounded(.down)) / tile))
        let b = max(0, min(last, Int(min(Float(extent), high).rounded(.down)) / tile))
        return a...b
    }
}

/// A rectangle of canvas pixels.
struct TileRect: Equatable, Sendable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    /// The same pixels as a box.
    var box: PixelBox { PixelBox(x0: x, y0: y, x1: x + width, y1: y + height) }
}

/// How far a stamp can reach from its stored centre at any age: half its widest square
/// (the intro doubles it) plus the dissolve drift, plus a pixel for rounding. A stamp can
/// touch no pixel farther than this from its centre.
struct StampReach: Sendable {
    var effects: AgeEffects

    @inline(__always)
    func radius(of p: SketchPoint) -> Float {
        let aging = effects.maxAge > 0
        let half = max(p.radius * abs(effects.pointScale) * (aging ? 2 : 1), 0.5)
        return half + (aging ? abs(effects.dissolveDistance) : 0) + 1
    }
}

/// Stamps binned to the tiles they can touch: for every tile, the stamps whose reach (plus
/// the tile's apron) overlaps it, as (batch, index) in draw order. A stamp is looked at once
/// and put in the few buckets its reach covers, so binning costs what the stamps touch, not
/// stamps × tiles, and memory grows with the stamps binned, not with tiles × batches.
struct TileBins: Sendable {
    let grid: TileGrid
    /// [tile] → entries, batch in the high 32 bits and stamp index in the low ones;
    /// tile = row * columns + column.
    private(set) var buckets: [[UInt64]]

    /// The most tiles a canvas is cut into: each costs a target fill and a read-back.
    static let maxTiles = 1 << 20

    init(grid: TileGrid, batches: [StampBatch], reach: StampReach, apron: Int) {
        precondition(grid.count <= TileBins.maxTiles, "at most \(TileBins.maxTiles) tiles")
        self.grid = grid
        buckets = Array(repeating: [], count: grid.count)
        let pad = Float(apron)
        for (b, batch) in batches.enumerated() {
            batch.stamps.withUnsafeBufferPointer { stamps in
                for i in 0..<stamps.count {
                    let p = stamps[i]
                    let r = reach.radius(of: p) + pad
                    guard r.isFinite, p.x.isFinite, p.y.isFinite,
                          let cols = TileGrid.cells(p.x - r - Float(grid.area.x0), p.x + r - Float(grid.area.x0),
                                                    tile: grid.tileWidth, extent: grid.area.width),
                          let rows = TileGrid.cells(p.y - r - Float(grid.area.y0), p.y + r - Float(grid.area.y0),
                                                    tile: grid.tileHeight, extent: grid.area.height)
                    else { continue }
                    let entry = UInt64(b) << 32 | UInt64(i)
                    for row in rows {
                        for col in cols { buckets[row * grid.columns + col].append(entry) }
                    }
                }
            }
        }
    }

    /// The batches as tile (`column`, `row`) sees them: the binned stamps of each batch that
    /// has any, in order, with their rotations.
    func batches(_ all: [StampBatch], column: Int, row: Int) -> [StampBatch] {
        let bucket = buckets[row * grid.columns + column]
        var out: [StampBatch] = []
        var start = 0
        while start < bucket.count {
            let b = Int(bucket[start] >> 32)
            var end = start
            while end < bucket.count && Int(bucket[end] >> 32) == b { end += 1 }
            let batch = all[b]
            // The batch as it is (brush, mode, edge reference), with the stamps that reach the tile.
            var picked = batch
            if end - start != batch.stamps.count {
                let indices = bucket[start..<end].map { Int($0 & 0xFFFF_FFFF) }
                picked.stamps = indices.map { batch.stamps[$0] }
                picked.rotations = batch.rotations.map { r in indices.map { r[$0] } }
            }
            out.append(picked)
            start = end
        }
        return out
    }

    /// Stamps put in buckets, counting a stamp once for every tile it touches.
    var binnedCount: Int { buckets.reduce(0) { $0 + $1.count } }
}
