import CStipple

/// The target a bake with stroke layers draws each frame into (see `ModeBakeTarget`): only
/// boxes of it are filled with the frame's colour, drawn over and read back.
extension GLDevice {
    /// Replaces `boxes` of `target`'s canvas with opaque pixels (one array a box, rows as GL
    /// reads them: the box's bottom row first). Around each box the guard band it borders is
    /// cleared to transparent, as a whole-frame upload leaves it.
    func uploadBoxes(_ target: Framebuffer, boxes: [PixelBox], pixels: [[UInt8]]) throws {
        precondition(boxes.count == pixels.count, "one array a box")
        target.bind(gl)
        let b = target.guardBand
        gl.enable(GLenum(GL_SCISSOR_TEST))
        for box in boxes {
            // The box and the band beyond it, clipped to the target.
            let x0 = max(0, box.x0), x1 = min(target.targetWidth, box.x1 + 2 * b)
            let top = max(0, box.y0), bottom = min(target.targetHeight, box.y1 + 2 * b)
            gl.scissor(x: x0, y: target.targetHeight - bottom, width: x1 - x0, height: bottom - top)
            gl.clear(red: 0, green: 0, blue: 0, alpha: 0)
        }
        gl.disable(GLenum(GL_SCISSOR_TEST))
        gl.bindTexture(target.texture)
        gl.pixelStore(GLenum(GL_UNPACK_ALIGNMENT), 4)
        for (box, p) in zip(boxes, pixels) where !box.isEmpty {
            precondition(p.count == box.width * box.height * 4, "a box's pixels")
            p.withUnsafeBytes { raw in
                gl.texSubImage2D(x: box.x0 + b, y: target.targetHeight - (box.y1 + b), width: box.width,
                                 height: box.height, format: GLenum(GL_RGBA), pixels: raw.baseAddress!, bytes: raw.count)
            }
        }
        try gl.checkError("filling boxes of a bake's frame")
    }
}
