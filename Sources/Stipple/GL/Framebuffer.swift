import CStipple

/// The canvas: an RGBA8 colour texture behind a framebuffer object, premultiplied. Read
/// back into a buffer that is kept from frame to frame.
final class Framebuffer {
    let width: Int
    let height: Int
    private let fbo: GLuint
    private let texture: GLuint
    private var readBuffer: [UInt8]

    init(gl: GL, width: Int, height: Int) throws {
        self.width = width
        self.height = height
        texture = gl.genTexture()
        gl.bindTexture(texture)
        gl.texImage2D(format: GLenum(GL_RGBA), width: width, height: height, pixels: nil, bytes: 0)
        gl.texParameter(GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        gl.texParameter(GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        fbo = gl.genFramebuffer()
        gl.bindFramebuffer(fbo)
        gl.framebufferTexture(texture)
        let status = gl.framebufferStatus()
        readBuffer = [UInt8](repeating: 0, count: width * height * 4)
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            gl.deleteFramebuffer(fbo)
            gl.deleteTexture(texture)
            throw RenderError("a \(width)×\(height) RGBA8 framebuffer is incomplete (status 0x\(String(status, radix: 16)))")
        }
        try gl.checkError("creating a \(width)×\(height) framebuffer")
    }

    func bind(_ gl: GL) {
        gl.bindFramebuffer(fbo)
        gl.viewport(width, height)
    }

    /// Replaces the canvas with a premultiplied image (rows top to bottom).
    func upload(_ gl: GL, premultipliedTopDown pixels: [UInt8]) {
        var flipped = [UInt8](repeating: 0, count: pixels.count)
        Framebuffer.flipRows(pixels, into: &flipped, width: width, height: height)
        gl.bindTexture(texture)
        gl.pixelStore(GLenum(GL_UNPACK_ALIGNMENT), 4)
        flipped.withUnsafeBytes { raw in
            gl.texImage2D(format: GLenum(GL_RGBA), width: width, height: height, pixels: raw.baseAddress, bytes: raw.count)
        }
    }

    /// The canvas as premultiplied 8-bit RGBA, rows top to bottom, written into `out`.
    func read(_ gl: GL, into out: inout [UInt8]) {
        gl.pixelStore(GLenum(GL_PACK_ALIGNMENT), 4)
        readBuffer.withUnsafeMutableBytes { gl.readPixels(width: width, height: height, into: $0.baseAddress!) }
        if out.count != readBuffer.count { out = [UInt8](repeating: 0, count: readBuffer.count) }
        Framebuffer.flipRows(readBuffer, into: &out, width: width, height: height)
    }

    static func flipRows(_ src: [UInt8], into dst: inout [UInt8], width: Int, height: Int) {
        let row = width * 4
        src.withUnsafeBytes { s in
            dst.withUnsafeMutableBytes { d in
                for y in 0..<height {
                    (d.baseAddress! + y * row).copyMemory(from: s.baseAddress! + (height - 1 - y) * row, byteCount: row)
                }
            }
        }
    }

    func delete(_ gl: GL) {
        gl.deleteFramebuffer(fbo)
        gl.deleteTexture(texture)
    }
}
