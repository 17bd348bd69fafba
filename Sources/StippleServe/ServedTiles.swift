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

    /// Tile `key` (below the top zoom) from its children at the next zoom (`children[dy][dx]`,
    /// nil past the level's edge), as the pyramid defines it: each 2 × 2 block of the level
    /// below averaged, odd edges averaging what they have. Nil when a child the tile needs
    /// is missing or not opaque: the mean is of premultiplied colour, which an opaque pixel's
    /// straight colour is, and a translucent one's is not exactly.
    package func parent(_ key: Key, children: [[Image?]]) -> Image? {
        let k = topZoom - key.z
        let below = View.levelSize(width, height, level: k - 1)
        let x0 = key.x * 2 * ServedTiles.side, y0 = key.y * 2 * ServedTiles.side
        let bw = min(2 * ServedTiles.side, below.width - x0), bh = min(2 * ServedTiles.side, below.height - y0)
        guard bw > 0, bh > 0 else { return nil }
        // The block of the level below, row by row.
        var rows = [UInt8](repeating: 0, count: bw * bh * 4)
        for dy in 0..<2 {
            for dx in 0..<2 {
                let cw = min(ServedTiles.side, bw - dx * ServedTiles.side), ch = min(ServedTiles.side, bh - dy * ServedTiles.side)
                guard cw > 0, ch > 0 else { continue }
                guard let child = children[dy][dx], child.width == ServedTiles.side else { return nil }
                for r in 0..<ch {
                    let src = r * ServedTiles.side * 4, dst = ((dy * ServedTiles.side + r) * bw + dx * ServedTiles.side) * 4
                    if (0..<cw).contains(where: { child.pixels[src + $0 * 4 + 3] != 255 }) { return nil }
                    rows.replaceSubrange(dst..<(dst + cw * 4), with: child.pixels[src..<(src + cw * 4)])
                }
            }
        }
        let half = (bw + 1) / 2
        var out = [UInt8](repeating: 0, count: ServedTiles.side * ServedTiles.side * 4)
        rows.withUnsafeBytes { all in
            for r in stride(from: 0, to: bh, by: 2) {
                let top = UnsafeRawBufferPointer(rebasing: all[(r * bw * 4)..<((r + 1) * bw * 4)])
                let bottom = r + 1 < bh ? UnsafeRawBufferPointer(rebasing: all[((r + 1) * bw * 4)..<((r + 2) * bw * 4)]) : nil
                let halved = HalvingRows.halve(top, bottom, width: bw)
                let dst = (r / 2) * ServedTiles.side * 4
                out.replaceSubrange(dst..<(dst + half * 4), with: halved)
            }
        }
        return Image(width: ServedTiles.side, height: ServedTiles.side, pixels: out)
    }
}
