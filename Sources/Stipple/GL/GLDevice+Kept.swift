import CStipple

/// A target kept between frames for a video's sketch: a frame clears and draws only boxes
/// of it (the scissor), and reads back only those boxes.
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

    /// Reads `box` of `target` (canvas pixels, rows top to bottom: x0, y0, x1, y1,
    /// exclusive): premultiplied RGBA, tightly packed, rows as GL reads them — the box's
    /// bottom row first. No copy turns them over: the reader walks them backwards.
    func readKept(_ target: Framebuffer, box: (Int, Int, Int, Int)) throws -> [UInt8] {
        let (x0, _, x1, y1) = box
        let w = x1 - x0, h = box.3 - box.1
        guard w > 0, h > 0 else { return [] }
        target.bind(gl)
        gl.pixelStore(GLenum(GL_PACK_ALIGNMENT), 4)
        var pixels = [UInt8](unsafeUninitializedCapacity: w * h * 4) { _, n in n = w * h * 4 }
        let b = target.guardBand
        pixels.withUnsafeMutableBytes {
            gl.readPixels(x: x0 + b, y: target.targetHeight - (y1 + b), width: w, height: h, into: $0.baseAddress!)
        }
        try gl.checkError("reading back a \(w)×\(h) box of a kept sketch")
        return pixels
    }
}
