import CStipple

/// The canvas: an RGBA8 colour texture behind a framebuffer object, premultiplied, with a
/// guard band of `guardBand` pixels on every side.
///
/// Why the band: a driver may clip a point by its centre (softpipe drops a point centred
/// off the viewport, docs/reference.md §4). With the band, a stamp centred up to `guardBand` px off the
/// canvas is still inside the viewport and can be drawn as a point; without it every such
/// stamp must become a quad, which splits draws and re-uploads vertices each frame (a
/// dissolving stamp drifts off the edge for many frames). Only the canvas is read back.
final class Framebuffer {
    /// The canvas's size.
    let width: Int
    let height: Int
    let guardBand: Int
    /// Canvas coordinates of the canvas part's top-left pixel: (0, 0) for a whole canvas,
    /// the tile's corner for a tile (see `GLDevice.beginTile`).
    var originX = 0
    var originY = 0
    /// The texture's size: the canvas plus the band on both sides.
    var targetWidth: Int { width + 2 * guardBand }
    var targetHeight: Int { height + 2 * guardBand }
    /// The viewport, from the target's corner: the smallest powers of two that hold it, so
    /// that mapping window pixels to clip space and back is exact (GLSL/sketch.vert).
    var viewWidth: Int { Framebuffer.powerOfTwo(atLeast: targetWidth) }
    var viewHeight: Int { Framebuffer.powerOfTwo(atLeast: targetHeight) }

    static func powerOfTwo(atLeast n: Int) -> Int {
        var p = 1
        while p < n { p *= 2 }
        return p
    }
    private let fbo: GLuint
    let texture: GLuint
    /// Made on the first whole read (a tile target is read in strips and never needs it).
    private var readBuffer: [UInt8] = []
    let format: Format

    /// What a target's texels hold.
    enum Format: Equatable {
        /// Premultiplied 8-bit RGBA: every frame but a coverage page.
        case rgba
        /// One 8-bit channel (red): a page of coverage drawn in white, where red is alpha, at a
        /// quarter of the bytes to clear, blend and read. `internalFormat`: GL_R8 in OpenGL ES
        /// 3, GL_RED_EXT in ES 2 with GL_EXT_texture_rg; `readsRed`: glReadPixels gives it as
        /// one byte a pixel (the implementation's read format), else as RGBA, red first.
        case red(internalFormat: GLenum, readsRed: Bool)
    }

    /// Bytes a pixel as `read(_:into:)` gives them, and which of them holds the coverage.
    var readLayout: (bytesPerPixel: Int, coverage: Int) {
        switch format {
        case .rgba: (4, 3)
        case let .red(_, readsRed): readsRed ? (1, 0) : (4, 0)
        }
    }

    init(gl: GL, width: Int, height: Int, guardBand: Int, format: Format = .rgba) throws {
        self.width = width
        self.height = height
        self.guardBand = guardBand
        self.format = format
        let (tw, th) = (width + 2 * guardBand, height + 2 * guardBand)
        texture = gl.genTexture()
        gl.bindTexture(texture)
        switch format {
        case .rgba: gl.texImage2D(format: GLenum(GL_RGBA), width: tw, height: th, pixels: nil, bytes: 0)
        case let .red(internalFormat, _):
            gl.texImage2D(format: Framebuffer.red, internalFormat: internalFormat, width: tw, height: th, pixels: nil, bytes: 0)
        }
        gl.texParameter(GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        gl.texParameter(GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        fbo = gl.genFramebuffer()
        gl.bindFramebuffer(fbo)
        gl.framebufferTexture(texture)
        let status = gl.framebufferStatus()
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            gl.deleteFramebuffer(fbo)
            gl.deleteTexture(texture)
            throw RenderError("a \(tw)×\(th) \(format == .rgba ? "RGBA8" : "R8") framebuffer is incomplete (status 0x\(String(status, radix: 16)))")
        }
        try gl.checkError("creating a \(tw)×\(th) framebuffer")
    }

    func bind(_ gl: GL) {
        gl.bindFramebuffer(fbo)
        gl.viewport(viewWidth, viewHeight)
    }

    /// Fills the whole target (canvas and band) with a premultiplied colour, 0…1 a channel.
    func fill(_ gl: GL, red: Float, green: Float, blue: Float, alpha: Float) {
        bind(gl)
        gl.clear(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Makes this target an exact copy of `other` (same size and band), then binds it.
    func copy(_ gl: GL, from other: Framebuffer) {
        precondition(other.targetWidth == targetWidth && other.targetHeight == targetHeight, "copy between equal targets")
        other.bind(gl)
        gl.bindTexture(texture)
        gl.copyToBoundTexture(width: targetWidth, height: targetHeight)
        bind(gl)
    }

    /// Replaces the canvas with a premultiplied image, rows bottom to top (GL's order); the
    /// band is cleared to transparent (it is never read).
    func upload(_ gl: GL, premultipliedBottomUp pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "the canvas's pixels")
        bind(gl)
        gl.clear(red: 0, green: 0, blue: 0, alpha: 0)
        gl.bindTexture(texture)
        gl.pixelStore(GLenum(GL_UNPACK_ALIGNMENT), 4)
        pixels.withUnsafeBytes { raw in
            gl.texSubImage2D(x: guardBand, y: guardBand, width: width, height: height, format: GLenum(GL_RGBA),
                             pixels: raw.baseAddress!, bytes: raw.count)
        }
    }

    /// The canvas as premultiplied 8-bit RGBA, rows top to bottom, in a new array: GL's rows
    /// are read into a buffer kept with the target and copied once, turned, into an array the
    /// caller owns alone (one it may change in place, or keep, without a copy).
    func read(_ gl: GL) -> [UInt8] {
        precondition(format == .rgba, "an RGBA target")
        if readBuffer.count != width * height * 4 { readBuffer = [UInt8](repeating: 0, count: width * height * 4) }
        readBuffer.withUnsafeMutableBytes { read(gl, into: $0) }
        return Framebuffer.flippedRows(readBuffer, width: width, height: height)
    }

    /// Rows `rows` of the canvas (row 0 at the bottom, GL's order) as premultiplied 8-bit
    /// RGBA in a new buffer, bottom row first.
    func readRows(_ gl: GL, _ rows: Range<Int>) -> [UInt8] {
        precondition(rows.lowerBound >= 0 && rows.upperBound <= height && format == .rgba, "rows of an RGBA canvas")
        gl.pixelStore(GLenum(GL_PACK_ALIGNMENT), 4)
        return [UInt8](unsafeUninitializedCapacity: width * rows.count * 4) { buffer, count in
            gl.readPixels(x: guardBand, y: guardBand + rows.lowerBound, width: width, height: rows.count,
                          into: buffer.baseAddress!)
            count = width * rows.count * 4
        }
    }

    /// The canvas as GL holds it (row 0 at the bottom), premultiplied 8-bit RGBA or one byte a
    /// pixel (`readLayout`), into `buffer`, which holds at least `width` × `height` × 4 bytes:
    /// no flip and no copy.
    func read(_ gl: GL, into buffer: UnsafeMutableRawBufferPointer) {
        precondition(buffer.count >= width * height * readLayout.bytesPerPixel, "room for the canvas")
        let one = readLayout.bytesPerPixel == 1
        gl.pixelStore(GLenum(GL_PACK_ALIGNMENT), one ? 1 : 4)
        gl.readPixels(x: guardBand, y: guardBand, width: width, height: height, into: buffer.baseAddress!,
                      format: one ? Framebuffer.red : GLenum(GL_RGBA))
    }

    /// GL_RED (GL_RED_EXT in ES 2's GL_EXT_texture_rg: the same number).
    static let red = GLenum(0x1903)
    /// GL_R8, OpenGL ES 3's sized one-channel format.
    static let r8 = GLenum(0x8229)

    /// RGBA rows `width` pixels wide in the other order (top to bottom ⇄ bottom to top), in a
    /// new array.
    static func flippedRows(_ src: [UInt8], width: Int, height: Int) -> [UInt8] {
        let row = width * 4
        precondition(src.count >= row * height, "the rows to turn")
        return [UInt8](unsafeUninitializedCapacity: row * height) { out, count in
            src.withUnsafeBufferPointer { s in
                for y in 0..<height {
                    (out.baseAddress! + y * row).initialize(from: s.baseAddress! + (height - 1 - y) * row, count: row)
                }
            }
            count = row * height
        }
    }

    func delete(_ gl: GL) {
        gl.deleteFramebuffer(fbo)
        gl.deleteTexture(texture)
    }
}
