import CStipple

/// What a tile's target starts as.
enum TileFill {
    /// A premultiplied 8-bit colour over the whole target, apron included.
    case color(UInt8, UInt8, UInt8, UInt8)
    /// Transparent, then a premultiplied image (rows top to bottom) at `x`, `y` from the
    /// target's top-left corner: the part of a background image the tile and its apron cover.
    case region(pixels: [UInt8], x: Int, y: Int, width: Int, height: Int)
}

/// Tiles: a canvas drawn piece by piece into one reused target of the tile's size plus an
/// apron on every side. The target's origin is the canvas position of its top-left pixel,
/// so every stamp lands on the same pixels as in a one-pass render (GLSL/sketch.vert).
extension GLDevice {
    /// The tile target, bound, its canvas part at (`originX`, `originY`) on the canvas, filled.
    /// Targets are `width` × `height` plus `apron` on each side; a smaller tile at the canvas's
    /// edge uses the top-left part of it.
    func beginTile(width: Int, height: Int, apron: Int, originX: Int, originY: Int, fill: TileFill) throws -> Framebuffer {
        guard gl.checkContextStillCurrent() else { throw RenderError("the render thread's GL context is not current") }
        let target: Framebuffer
        if let t = tileTarget, t.width == width, t.height == height, t.guardBand == apron {
            target = t
        } else {
            tileTarget?.delete(gl)
            tileTarget = nil
            target = try makeTarget(width: width, height: height, guardBand: apron)
            tileTarget = target
        }
        target.originX = originX
        target.originY = originY
        switch fill {
        case let .color(r, g, b, a):
            target.fill(gl, red: Float(r) / 255, green: Float(g) / 255, blue: Float(b) / 255, alpha: Float(a) / 255)
        case let .region(pixels, x, y, w, h):
            target.fill(gl, red: 0, green: 0, blue: 0, alpha: 0)
            guard w > 0, h > 0 else { break }
            let flipped = Framebuffer.flippedRows(pixels, width: w, height: h)
            gl.bindTexture(target.texture)
            gl.pixelStore(GLenum(GL_UNPACK_ALIGNMENT), 4)
            flipped.withUnsafeBytes { raw in
                gl.texSubImage2D(x: x, y: target.targetHeight - y - h, width: w, height: h, format: GLenum(GL_RGBA),
                                 pixels: raw.baseAddress!, bytes: raw.count)
            }
        }
        try gl.checkError("starting a \(width)×\(height) tile")
        return target
    }

    /// Frees the tile target, its staging buffer and the brush modes' targets (a later tile
    /// makes them again).
    func endTiles() {
        tileTarget?.delete(gl)
        tileTarget = nil
        tileReadback = []
        madeModes?.releaseTargets()
    }

    /// Reads the top-left `width` × `height` of the tile's canvas part into `band`
    /// (premultiplied RGBA, rows top to bottom, `rowBytes` a row) at row `row`, column `column`.
    func readTile(_ target: Framebuffer, width: Int, height: Int, into band: UnsafeMutableRawBufferPointer,
                  rowBytes: Int, row: Int, column: Int) throws {
        precondition(width <= target.width && height <= target.height, "a tile inside its target")
        target.bind(gl)
        // In strips, so the staging buffer stays small whatever the tile's size.
        let line = width * 4
        let strip = max(1, min(height, TileStrip.bytes / line))
        if tileReadback.count < strip * line { tileReadback = [UInt8](repeating: 0, count: strip * line) }
        gl.pixelStore(GLenum(GL_PACK_ALIGNMENT), 4)
        let g = target.guardBand
        var top = 0
        while top < height {
            let rows = min(strip, height - top)
            // GL counts rows from the bottom of the target.
            tileReadback.withUnsafeMutableBytes {
                gl.readPixels(x: g, y: target.targetHeight - g - top - rows, width: width, height: rows, into: $0.baseAddress!)
            }
            try gl.checkError("reading back a \(width)×\(height) tile")
            tileReadback.withUnsafeBytes { src in
                for y in 0..<rows {
                    let from = src.baseAddress! + (rows - 1 - y) * line
                    (band.baseAddress! + (row + top + y) * rowBytes + column * 4).copyMemory(from: from, byteCount: line)
                }
            }
            top += rows
        }
    }
}

/// The staging buffer a tile is read back through, in bytes.
enum TileStrip {
    static let bytes = 8 << 20
}
