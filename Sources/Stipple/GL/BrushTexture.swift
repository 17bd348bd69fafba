import CStipple

/// A brush's coverage in the alpha channel of a GL_ALPHA texture: bilinear, clamped to
/// its edge (docs/reference.md §4). Row 0 is uploaded first, so with window y = H − canvas y the
/// brush appears upright under both gl_PointCoord and the quads' brush coordinates.
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
        brush.coverage.withUnsafeBytes { raw in
            gl.texImage2D(format: GLenum(GL_ALPHA), width: brush.width, height: brush.height,
                          pixels: raw.baseAddress, bytes: raw.count)
        }
        gl.texParameter(GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        gl.texParameter(GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        gl.texParameter(GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        gl.texParameter(GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
    }

    func delete(_ gl: GL) { gl.deleteTexture(id) }
}
