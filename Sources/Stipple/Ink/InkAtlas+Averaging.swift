/// Averaging a drawn cell down to the output's size: a dataset below 48 pixels a side is
/// drawn `factor` times larger and each `factor` × `factor` block's coverage averaged
/// (docs/ink-formats.md, "Datasets").
extension InkAtlas {
    /// The mean of each `factor` × `factor` block of alpha in RGBA rows, rounded; `o` and the
    /// result count rows top to bottom, and `px` holds its `rows` rows bottom to top, as GL
    /// reads them.
    static func averageRGBA(_ px: UnsafeBufferPointer<UInt8>, stride: Int, rows: Int, at o: (x: Int, y: Int), width: Int,
                            height: Int, factor: Int) -> [UInt8] {
        precondition(o.y + height * factor <= rows && (o.x + width * factor) <= stride && px.count >= rows * stride * 4,
                     "the cell lies in the page")
        let n = UInt32(factor * factor), half = n / 2
        return [UInt8](unsafeUninitializedCapacity: width * height) { out, initialized in
            let src = px.baseAddress!
            // Row r from the top, as a pointer to its first pixel's alpha.
            func row(_ r: Int) -> UnsafePointer<UInt8> { src + ((rows - 1 - r) * stride + o.x) * 4 + 3 }
            for y in 0..<height {
                if factor == 1 {
                    let r = row(o.y + y)
                    for x in 0..<width { out[y * width + x] = r[x * 4] }
                    continue
                }
                for x in 0..<width {
                    var sum: UInt32 = 0
                    for dy in 0..<factor {
                        let p = row(o.y + y * factor + dy) + x * factor * 4
                        for dx in 0..<factor { sum += UInt32(p[dx * 4]) }
                    }
                    out[y * width + x] = UInt8((sum + half) / n)
                }
            }
            initialized = width * height
        }
    }

    /// As `averageRGBA`, over one byte a pixel.
    static func average(_ px: [UInt8], stride: Int, at o: (x: Int, y: Int), width: Int, height: Int, factor: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height)
        let n = UInt32(factor * factor), half = n / 2
        for y in 0..<height {
            for x in 0..<width {
                var sum: UInt32 = 0
                for dy in 0..<factor {
                    for dx in 0..<factor { sum += UInt32(px[(o.y + y * factor + dy) * stride + o.x + x * factor + dx]) }
                }
                out[y * width + x] = UInt8((sum + half) / n)
            }
        }
        return out
    }
}
