@testable import Stipple

/// The pyramid computed the slow, obvious way, to hold the streaming code to: a whole level
/// at a time, each pixel the rounded mean of the 1, 2 or 4 pixels of its block.
struct PyramidReference {
    var width: Int, height: Int
    /// Premultiplied RGBA8.
    var pixels: [UInt8]

    func up() -> PyramidReference {
        let (w, h) = ((width + 1) / 2, (height + 1) / 2)
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                var points: [(Int, Int)] = []
                for dy in 0..<2 where 2 * y + dy < height {
                    for dx in 0..<2 where 2 * x + dx < width { points.append((2 * x + dx, 2 * y + dy)) }
                }
                for c in 0..<4 {
                    let sum = points.reduce(0) { $0 + Int(pixels[($1.1 * width + $1.0) * 4 + c]) }
                    // Rounded to nearest, ties up.
                    out[(y * w + x) * 4 + c] = UInt8((2 * sum + points.count) / (2 * points.count))
                }
            }
        }
        return PyramidReference(width: w, height: h, pixels: out)
    }

    func level(_ k: Int) -> PyramidReference {
        var p = self
        for _ in 0..<k { p = p.up() }
        return p
    }

    /// Pixels x0..<x1, y0..<y1, straight (as a PNG holds them).
    func straightCrop(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> [UInt8] {
        var out: [UInt8] = []
        for y in y0..<y1 { out += pixels[((y * width + x0) * 4)..<((y * width + x1) * 4)] }
        return Image(width: x1 - x0, height: y1 - y0, premultiplied: out).pixels
    }
}
