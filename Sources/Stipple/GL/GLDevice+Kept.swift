import CStipple

/// A target kept between frames for a video's sketch: a frame clears and draws only a box
/// of it (the scissor), and reads back only that box.
extension GLDevice {
    /// A new target for a kept sketch, filled with a premultiplied colour.
    func makeKeptTarget(width: Int, height: Int, guardBand: Int, fill color: (UInt8, UInt8, UInt8, UInt8)) throws -> Framebuffer {
        guard gl.checkContextStillCurrent() else { throw RenderError("the render thread's GL context is not current") }
        let t = try makeTarget(width: width, height: height, guardBand: guardBand)
        t.fill(gl, red: Float(color.0) / 255, green: Float(color.1) / 255, blue: Float(color.2) / 255,
               alpha: Float(color.3) / 255)
        return t
    }

    /// Binds `target`, limits drawing to `box` (canvas pixels, rows top to bottom: x0, y0,
    /// x1, y1, exclusive) and fills it with the colour; drawing stays limited until
    /// `endKeptDraw`.
    func beginKeptDraw(_ target: Framebuffer, box: (Int, Int, Int, Int), fill color: (UInt8, UInt8, UInt8, UInt8)) {
        target.bind(gl)
        let b = target.guardBand
        gl.enable(GLenum(GL_SCISSOR_TEST))
        gl.scissor(x: box.0 + b, y: target.targetHeight - (box.3 + b), width: box.2 - box.0, height: box.3 - box.1)
        gl.clear(red: Float(color.0) / 255, green: Float(color.1) / 255, blue: Float(color.2) / 255,
                 alpha: Float(color.3) / 255)
    }

    /// Ends the limit `beginKeptDraw` set.
    func endKeptDraw() { gl.disable(GLenum(GL_SCISSOR_TEST)) }

    /// Reads `box` of `target` (premultiplied RGBA) into `pixels`, the whole canvas, rows top
    /// to bottom, at the same place.
    func readKept(_ target: Framebuffer, box: (Int, Int, Int, Int), into pixels: inout [UInt8]) throws {
        let (x0, y0, x1, y1) = box
        let w = x1 - x0, h = y1 - y0
        guard w > 0, h > 0 else { return }
        target.bind(gl)
        gl.pixelStore(GLenum(GL_PACK_ALIGNMENT), 4)
        if keptReadback.count < w * h * 4 { keptReadback = [UInt8](repeating: 0, count: w * h * 4) }
        let b = target.guardBand
        keptReadback.withUnsafeMutableBytes {
            gl.readPixels(x: x0 + b, y: target.targetHeight - (y1 + b), width: w, height: h, into: $0.baseAddress!)
        }
        try gl.checkError("reading back a \(w)×\(h) box of a kept sketch")
        let row = w * 4, stride = target.width * 4
        keptReadback.withUnsafeBytes { src in
            pixels.withUnsafeMutableBytes { dst in
                for r in 0..<h {  // GL's rows run bottom to top
                    (dst.baseAddress! + (y0 + r) * stride + x0 * 4)
                        .copyMemory(from: src.baseAddress! + (h - 1 - r) * row, byteCount: row)
                }
            }
        }
    }
}
