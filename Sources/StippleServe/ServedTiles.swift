import Stipple

/// The served drawing's tiles: an xyz pyramid of 256-pixel tiles (as `render --pyramid
/// --layout xyz` writes), zoom 0 the level that fits one tile, the top zoom the canvas itself.
/// Tile (z, x, y) is the exact view of its rectangle at scale 1/2^(top − z), padded with
/// transparent pixels to 256 × 256 past the level's edge.
package struct ServedTiles: Sendable, Equatable {
    package static let side = 256
    package let width: Int, height: Int
    /// The zoom of the canvas's own pixels.
    package let topZoom: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
        var top = 0
        while true {
            let s = View.levelSize(width, height, level: top)
            if max(s.width, s.height) <= ServedTiles.side { break }
            top += 1
        }
        topZoom = top
    }

    /// One tile of the pyramid.
    package struct Key: Hashable, Sendable, CustomStringConvertible {
        package var z: Int, x: Int, y: Int
        package var preview: Bool
        package init(z: Int, x: Int, y: Int, preview: Bool) { self.z = z; self.x = x; self.y = y; self.preview = preview }
        package var description: String { "\(z)/\(x)/\(y)\(preview ? " preview" : "")" }
    }

    /// The view a tile shows; nil for a tile outside the pyramid.
    package func view(_ key: Key) -> View? {
        guard (0...topZoom).contains(key.z), key.x >= 0, key.y >= 0 else { return nil }
        let k = topZoom - key.z
        let level = View.levelSize(width, height, level: k)
        guard key.x * ServedTiles.side < level.width, key.y * ServedTiles.side < level.height else { return nil }
        let span = ServedTiles.side << k
        let x = key.x * span, y = key.y * span
        return try? View(x: x, y: y, width: min(span, width - x), height: min(span, height - y),
                         scale: 1 / Double(1 << k), canvasWidth: width, canvasHeight: height)
    }

    /// The canvas pixels a tile shows.
    package func box(_ key: Key) -> ServedDrawing.Box {
        let span = ServedTiles.side << (topZoom - key.z)
        return ServedDrawing.Box(x0: key.x * span, y0: key.y * span, x1: (key.x + 1) * span, y1: (key.y + 1) * span)
    }

    /// The columns and rows of zoom `z`'s tiles whose boxes meet `box`; nil for none.
    private func span(touching box: ServedDrawing.Box, z: Int) -> (xs: ClosedRange<Int>, ys: ClosedRange<Int>)? {
        let span = ServedTiles.side << (topZoom - z)
        let x1 = min(box.x1, (width + span - 1) / span * span), y1 = min(box.y1, (height + span - 1) / span * span)
        guard x1 > max(0, box.x0), y1 > max(0, box.y0) else { return nil }
        return (max(0, box.x0) / span...(x1 - 1) / span, max(0, box.y0) / span...(y1 - 1) / span)
    }

    /// The tiles of zoom `z` whose boxes meet `box` (as exact tiles), row by row.
    package func keys(touching box: ServedDrawing.Box, z: Int) -> [Key] {
        guard let (xs, ys) = span(touching: box, z: z) else { return [] }
        return ys.flatMap { y in xs.map { x in Key(z: z, x: x, y: y, preview: false) } }
    }

    /// How many tiles of every zoom meet `box`, counted without listing them.
    package func count(touching box: ServedDrawing.Box) -> Int {
        (0...topZoom).reduce(0) { total, z in total + (span(touching: box, z: z).map { $0.xs.count * $0.ys.count } ?? 0) }
    }

    /// The keys among `keys` (a cache's, `count` of them) whose tiles meet `box` (nil:
    /// every key): found tile by tile where the box meets fewer tiles than the cache holds,
    /// else by a walk of the cache.
    package func keys<S: Sequence<Key>>(_ keys: S, count: Int, contains: (Key) -> Bool,
                                        touching box: ServedDrawing.Box?) -> [Key] {
        guard let box else { return Array(keys) }
        guard box.x0 < box.x1, box.y0 < box.y1 else { return [] }
        guard 2 * self.count(touching: box) < count else { return keys.filter { self.box($0).intersects(box) } }
        return (0...topZoom).flatMap { z in
            self.keys(touching: box, z: z).flatMap { key in
                [key, Key(z: key.z, x: key.x, y: key.y, preview: true)].filter(contains)
            }
        }
    }

    /// `image` (a view's, at most a tile) on a transparent 256 × 256 tile, top left.
    package static func padded(_ image: Image) -> Image {
        guard image.width != side || image.height != side else { return image }
        var pixels = [UInt8](repeating: 0, count: side * side * 4)
        image.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for row in 0..<min(image.height, side) {
                    let n = min(image.width, side) * 4
                    dst.baseAddress!.advanced(by: row * side * 4).update(from: src.baseAddress!.advanced(by: row * image.width * 4), count: n)
                }
            }
        }
        return Image(width: side, height: side, pixels: pixels)
    }

    /// The top-left `width` × `height` of a padded tile: the view's pixels again.
    static func unpadded(_ image: Image, width: Int, height: Int) -> Image {
        guard image.width != width || image.height != height else { return image }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for row in 0..<height {
            let from = row * image.width * 4
            pixels.replaceSubrange((row * width * 4)..<((row + 1) * width * 4), with: image.pixels[from..<(from + width * 4)])
        }
        return Image(width: width, height: height, pixels: pixels)
    }

    /// The pixels of quadrant `q` (2·dy + dx) of tile `key` that lie inside the level below:
    /// `width` × `height` of its child; nil when none do.
    private func quadrantSize(_ key: Key, _ q: Int) -> (width: Int, height: Int)? {
        let side = ServedTiles.side
        let below = View.levelSize(width, height, level: topZoom - key.z - 1)
        let bw = min(2 * side, below.width - key.x * 2 * side), bh = min(2 * side, below.height - key.y * 2 * side)
        let cw = min(side, bw - q % 2 * side), ch = min(side, bh - q / 2 * side)
        return cw > 0 && ch > 0 ? (cw, ch) : nil
    }

    /// Child `q` (bit q: 2·dy + dx) of tile `key` halved into its quadrant of `key`, as the
    /// pyramid defines it: each 2 × 2 block of the level below averaged, odd edges averaging
    /// what they have; rows of `(width + 1) / 2` pixels (`quadrantSize`). Empty where the
    /// quadrant lies outside the drawing; nil when the child is not a whole opaque tile: the
    /// mean is of premultiplied colour, which an opaque pixel's straight colour is, and a
    /// translucent one's is not exactly. A quarter of the child's bytes: what a tile being
    /// made keeps of each child while it waits for the others.
    package func quadrant(_ key: Key, _ q: Int, child: Image) -> [UInt8]? {
        let side = ServedTiles.side
        guard let (cw, ch) = quadrantSize(key, q) else { return [] }
        guard child.width == side, child.height == side, Self.opaque(child, width: cw, height: ch) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity((ch + 1) / 2 * (cw + 1) / 2 * 4)
        child.pixels.withUnsafeBytes { all in
            for r in stride(from: 0, to: ch, by: 2) {
                let top = UnsafeRawBufferPointer(rebasing: all[(r * side * 4)..<((r * side + cw) * 4)])
                let bottom = r + 1 < ch ? UnsafeRawBufferPointer(rebasing: all[((r + 1) * side * 4)..<(((r + 1) * side + cw) * 4)]) : nil
                out += HalvingRows.halve(top, bottom, width: cw)
            }
        }
        return out
    }

    /// Tile `key` (below the top zoom) from its children's quadrants (`quadrant`, by q), each
    /// laid where it belongs; a quadrant that is nil is `base`'s (the tile as it was, where
    /// only some children changed). Nil when a quadrant inside the level has neither.
    package func parent(_ key: Key, quadrants: [[UInt8]?], over base: Image? = nil) -> Image? {
        let side = ServedTiles.side
        if let base, base.width != side || base.height != side { return nil }
        guard quadrantSize(key, 0) != nil else { return nil }
        var out = base?.pixels ?? [UInt8](repeating: 0, count: side * side * 4)
        for q in 0..<4 {
            guard let (cw, ch) = quadrantSize(key, q) else { continue }
            guard let made = quadrants[q] else {
                if base == nil { return nil }
                continue
            }
            let row = (cw + 1) / 2 * 4
            guard made.count == (ch + 1) / 2 * row else { return nil }
            for (i, r) in stride(from: 0, to: ch, by: 2).enumerated() {
                let dst = ((q / 2 * side + r) / 2 * side + q % 2 * side / 2) * 4
                out.replaceSubrange(dst..<(dst + row), with: made[(i * row)..<((i + 1) * row)])
            }
        }
        return Image(width: side, height: side, pixels: out)
    }

    /// Every pixel of `image`'s top-left `width` × `height` is opaque.
    private static func opaque(_ image: Image, width: Int, height: Int) -> Bool {
        image.pixels.withUnsafeBufferPointer { p in
            for r in 0..<height {
                let row = r * image.width * 4
                for x in 0..<width where p[row + x * 4 + 3] != 255 { return false }
            }
            return true
        }
    }
}
