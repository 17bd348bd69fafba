import CStipple

/// Averaging a drawn cell down to the output's size: a dataset below 48 pixels a side is
/// drawn `factor` times larger and each `factor` × `factor` block's coverage averaged
/// (docs/ink-formats.md, "Datasets"). With `inverted`, each byte is 255 minus the coverage:
/// dark ink on white, as a PNG file of the dataset shows it.
extension InkAtlas {
    /// The mean of each `factor` × `factor` block of coverage in a read-back page, rounded:
    /// `layout` says its bytes a pixel and which holds the coverage (RGBA: alpha, byte 3). `o`
    /// and the result count rows top to bottom, and `px` holds its `rows` rows bottom to top,
    /// as GL reads them.
    static func averagePage(_ px: UnsafeBufferPointer<UInt8>, layout: (bytesPerPixel: Int, coverage: Int) = (4, 3),
                            stride: Int, rows: Int, at o: (x: Int, y: Int), width: Int, height: Int, factor: Int,
                            inverted: Bool = false) -> [UInt8] {
        precondition(o.y + height * factor <= rows && (o.x + width * factor) <= stride
                     && px.count >= rows * stride * layout.bytesPerPixel, "the cell lies in the page")
        return [UInt8](unsafeUninitializedCapacity: width * height) { out, initialized in
            stp_cell_coverage(px.baseAddress, Int32(stride), Int32(rows), 0, Int32(layout.bytesPerPixel), Int32(layout.coverage),
                              Int32(o.x), Int32(o.y), Int32(width), Int32(height), Int32(factor), inverted ? 1 : 0,
                              out.baseAddress)
            initialized = width * height
        }
    }

    /// As `averagePage`, over one byte a pixel, rows top to bottom.
    static func average(_ px: [UInt8], stride: Int, at o: (x: Int, y: Int), width: Int, height: Int, factor: Int,
                        inverted: Bool = false) -> [UInt8] {
        precondition((o.y + height * factor) * stride <= px.count && o.x + width * factor <= stride, "the cell lies in the image")
        return [UInt8](unsafeUninitializedCapacity: width * height) { out, initialized in
            px.withUnsafeBufferPointer {
                stp_cell_coverage($0.baseAddress, Int32(stride), Int32(px.count / stride), 1, 1, 0, Int32(o.x), Int32(o.y),
                                  Int32(width), Int32(height), Int32(factor), inverted ? 1 : 0, out.baseAddress)
            }
            initialized = width * height
        }
    }
}
