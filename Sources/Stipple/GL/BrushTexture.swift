import CStipple

/// A brush's coverage in the alpha channel of an RGBA texture (colour channels white):
/// bilinear, clamped to its edge (docs/reference.md §4). Row 0 is uploaded first, so with
/// window y = H − canvas y the brush appears upright under both gl_PointCoord and the quads'
/// brush coordinates.
///
/// RGBA rather than GL_ALPHA: llvmpipe samples the four-channel texture faster, and a
/// stamp's fill is most of its cost there (8–14 % less time a fragment from 16 to 100 pixels
/// a side, docs/benchmark-history.md); the alpha it samples is the same, bit for bit, under llvmpipe
/// and softpipe.
final class BrushTexture {
    let id: GLuint
    let width: Int
    let height: Int

    init(gl: GL, brush: Brush) {
        id = gl.genTexture()
        width = brush.width
        height = brush.height
        gl.bindTexture(id)
        gl.pixelStore(GLenum(GL_UNPACK_ALIGNMENT), 1)
        var rgba = [UInt8](repeating: 255, count: brush.coverage.count * 4)
        for (i, c) in brush.coverage.enumerated() { rgba[4 * i + 3] = c }
        rgba.withUnsafeBytes { raw in
            gl.texImage2D(format: GLenum(GL_RGBA), width: brush.width, height: brush.height,
                          pixels: raw.baseAddress, bytes: raw.count)
        }
        gl.texParameter(GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        gl.texParameter(GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        gl.texParameter(GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        gl.texParameter(GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
    }

    func delete(_ gl: GL) { gl.deleteTexture(id) }
}
