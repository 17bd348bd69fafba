import Stipple

/// Where a tile's preview comes from, cheapest first: the tile's own exact pixels when they
/// are at hand; the nearest ancestor's exact pixels, enlarged; the overview (the whole
/// drawing as a preview at a low zoom, drawn once, patched where strokes land), cut and
/// scaled. Each is a few milliseconds whatever the drawing holds; the preview engine itself
/// (`renderPreview`, which walks every stamp) only draws the overview.
struct TilePreviews {
    /// Exact tiles' pixels, the most recently used, bounded in bytes: `current` while they
    /// are the tile as the drawing is; a top tile's are kept past a change, with the mark
    /// they were drawn at, to be drawn over (`base`).
    private var pixels: [ServedTiles.Key: (image: Image, mark: ServedDrawing.Mark?, current: Bool)] = [:]
    private var order = RecencyOrder<ServedTiles.Key>()
    /// The bytes the kept pixels take (at most `limit`).
    private(set) var bytes = 0
    private let limit: Int
    /// The drawing at `overviewZoom`, as a preview.
    private(set) var overview: Image?
    let overviewZoom: Int
    let tiles: ServedTiles

    init(tiles: ServedTiles, limit: Int) {
        self.tiles = tiles
        self.limit = limit
        overviewZoom = min(tiles.topZoom, 3)
    }

    /// The view the overview shows (the whole canvas at its zoom).
    var overviewView: View {
        try! View(canvasWidth: tiles.width, canvasHeight: tiles.height, scale: 1 / Double(1 << (tiles.topZoom - overviewZoom)))
    }

    mutating func setOverview(_ image: Image) { overview = image }

    /// Where the overview is out of date: canvas boxes, none overlapping another.
    private var staleBoxes: [ServedDrawing.Box] = []

    /// The drawing changed over `box`: the overview is to be drawn again there.
    mutating func overviewChanged(_ box: ServedDrawing.Box) {
        var merged = box
        // A box overlapping others takes them in (until none overlaps it).
        while let i = staleBoxes.firstIndex(where: { $0.intersects(merged) }) { merged = merged.union(staleBoxes.remove(at: i)) }
        staleBoxes.append(merged)
    }

    /// The patches that bring the overview up to date, taken (none are left stale): for each
    /// changed box, the canvas pixels to draw (on the overview's pixel grid), the view that
    /// draws them at its scale, and where they go in it.
    mutating func takeStale() -> [(box: ServedDrawing.Box, view: View, origin: (x: Int, y: Int))] {
        let unit = 1 << (tiles.topZoom - overviewZoom)
        defer { staleBoxes = [] }
        return staleBoxes.compactMap { box in
            let x0 = max(0, box.x0) / unit * unit, y0 = max(0, box.y0) / unit * unit
            let x1 = min(tiles.width, box.x1), y1 = min(tiles.height, box.y1)
            guard x1 > x0, y1 > y0, let view = try? View(x: x0, y: y0, width: x1 - x0, height: y1 - y0, scale: 1 / Double(unit),
                                                           canvasWidth: tiles.width, canvasHeight: tiles.height) else { return nil }
            return (ServedDrawing.Box(x0: x0, y0: y0, x1: x1, y1: y1), view, (x0 / unit, y0 / unit))
        }
    }

    /// Lays `patch` (the view of canvas pixels `box` at the overview's scale) into the overview.
    /// In place, row by row: a copy of the overview (megabytes) a patch, a dozen patches a
    /// second while people draw, had cost more than drawing them.
    mutating func patchOverview(_ patch: Image, at box: (x: Int, y: Int)) {
        guard let width = overview?.width, let height = overview?.height, box.x >= 0, box.y >= 0, box.x < width else { return }
        let n = min(patch.width, width - box.x) * 4
        patch.pixels.withUnsafeBufferPointer { src in
            overview!.pixels.withUnsafeMutableBufferPointer { dst in
                for row in 0..<min(patch.height, height - box.y) {
                    dst.baseAddress!.advanced(by: ((box.y + row) * width + box.x) * 4)
                        .update(from: src.baseAddress!.advanced(by: row * patch.width * 4), count: n)
                }
            }
        }
    }

    /// Keeps `image` as tile `key`'s exact pixels as the drawing is; `mark`: what they show,
    /// for a top tile (kept from what was drawn when these are the same pixels).
    mutating func keep(_ key: ServedTiles.Key, _ image: Image, mark: ServedDrawing.Mark? = nil) {
        let mark = mark ?? pixels[key].flatMap { $0.image == image ? $0.mark : nil }
        store(key, (image, mark, true))
    }

    /// Keeps a top tile's pixels as drawn at `mark`, to be drawn over later, whether or not
    /// the drawing changed while they were drawn.
    mutating func drew(_ key: ServedTiles.Key, _ image: Image, mark: ServedDrawing.Mark) {
        if let kept = pixels[key]?.mark, kept >= mark { return }
        store(key, (image, mark, false))
    }

    private mutating func store(_ key: ServedTiles.Key, _ entry: (image: Image, mark: ServedDrawing.Mark?, current: Bool)) {
        bytes += entry.image.pixels.count - (pixels[key]?.image.pixels.count ?? 0)
        pixels[key] = entry
        order.use(key)
        while bytes > limit, let oldest = order.oldest() { remove(oldest) }
    }

    private mutating func remove(_ key: ServedTiles.Key) {
        guard let entry = pixels.removeValue(forKey: key) else { return }
        bytes -= entry.image.pixels.count
        order.remove(key)
    }

    /// The drawing changed over `box` (nil: everywhere): the pixels of the tiles there are
    /// no longer the tiles' (those with a mark stay, to be drawn over).
    mutating func forget(_ box: ServedDrawing.Box?) {
        for key in tiles.keys(pixels.keys, count: pixels.count, contains: { pixels[$0] != nil }, touching: box) {
            if pixels[key]!.mark != nil {
                pixels[key]!.current = false
            } else {
                remove(key)
            }
        }
    }

    /// Tile `key`'s exact pixels, when they are kept and are the tile as the drawing is.
    mutating func exact(_ key: ServedTiles.Key) -> Image? {
        guard let kept = pixels[key], kept.current else { return nil }
        order.use(key)
        return kept.image
    }

    /// A top tile's pixels as drawn at some mark, current or not.
    mutating func base(_ key: ServedTiles.Key) -> (image: Image, mark: ServedDrawing.Mark)? {
        guard let kept = pixels[key], let mark = kept.mark else { return nil }
        order.use(key)
        return (kept.image, mark)
    }

    /// A preview of `key` from what is at hand; nil when nothing is (no overview yet).
    mutating func preview(_ key: ServedTiles.Key) -> Image? {
        if let own = exact(ServedTiles.Key(z: key.z, x: key.x, y: key.y, preview: false)) { return own }
        for d in 1...max(1, min(key.z, 8)) where d <= key.z {
            let up = ServedTiles.Key(z: key.z - d, x: key.x >> d, y: key.y >> d, preview: false)
            if let kept = pixels[up], kept.current {
                let ancestor = kept.image
                let side = ServedTiles.side >> d
                return Self.scaled(ancestor, x: (key.x & ((1 << d) - 1)) * side, y: (key.y & ((1 << d) - 1)) * side,
                                   side: side, scale: Double(1 << d))
            }
        }
        guard let overview else { return nil }
        // The tile's rectangle in the overview's pixels.
        let shift = key.z - overviewZoom
        if shift >= 0 {
            let side = ServedTiles.side >> min(shift, 8)
            guard side >= 1 else { return nil }
            return Self.scaled(overview, x: (key.x >> shift) * ServedTiles.side + (key.x & ((1 << shift) - 1)) * side,
                               y: (key.y >> shift) * ServedTiles.side + (key.y & ((1 << shift) - 1)) * side,
                               side: side, scale: Double(1 << shift))
        }
        let side = ServedTiles.side << -shift
        return Self.scaled(overview, x: key.x * side, y: key.y * side, side: side, scale: 1 / Double(1 << -shift))
    }

    /// The square (`x`, `y`, `side`) of `image` scaled by `scale` to a tile: each tile pixel
    /// takes the source pixel its centre falls in (transparent past the image).
    static func scaled(_ image: Image, x: Int, y: Int, side: Int, scale: Double) -> Image {
        let n = ServedTiles.side
        var out = [UInt8](repeating: 0, count: n * n * 4)
        for ty in 0..<n {
            let sy = y + Int((Double(ty) + 0.5) / scale)
            guard sy < image.height, sy < y + side else { continue }
            for tx in 0..<n {
                let sx = x + Int((Double(tx) + 0.5) / scale)
                guard sx < image.width, sx < x + side else { continue }
                let (s, d) = ((sy * image.width + sx) * 4, (ty * n + tx) * 4)
                out[d] = image.pixels[s]; out[d + 1] = image.pixels[s + 1]; out[d + 2] = image.pixels[s + 2]; out[d + 3] = image.pixels[s + 3]
            }
        }
        return Image(width: n, height: n, pixels: out)
    }
}
