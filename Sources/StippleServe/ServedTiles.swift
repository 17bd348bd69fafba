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
}
