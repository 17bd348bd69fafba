import CStipple

/// The renderer's GL side: its context's state cache and counters, the frame target
/// (reused while the canvas size stays), surfaces, read-back, and the `FrameDrawer` that
/// executes plans. Everything here runs on the render thread; the `Renderer` actor above
/// it decides what to draw and never calls GL itself.
final class GLDevice {
    let gl: GL
    let drawer: FrameDrawer
    /// The brush modes' targets and programs, made on the first stroke layer.
    var modes: ModePasses {
        if let m = madeModes { return m }
        let m = ModePasses(gl: gl, maxTextureSize: Int(gl.getInteger(GLenum(GL_MAX_TEXTURE_SIZE))[0]))
        m.blursOnCPU = ModePasses.isSoftware(renderer: gl.getString(GLenum(GL_RENDERER)))
        madeModes = m
        return m
    }
    private(set) var madeModes: ModePasses?
    /// Ink drawn as lines, made on first use.
    private(set) lazy var inkLines = InkLineDrawer(gl: gl)
    /// The target frames are drawn into, kept while the canvas size stays the same.
    private(set) var frameTarget: Framebuffer?
    /// The target tiles are drawn into (see GLDevice+Tiles), kept while the tile size stays.
    var tileTarget: Framebuffer?
    var tileReadback: [UInt8] = []

    init(context: GLContext) {
        gl = GL(context: context)
        drawer = FrameDrawer(gl: gl)
    }

    /// What the driver is and can do.
    func queryInfo() -> RendererInfo {
        let points = gl.getFloat(GLenum(GL_ALIASED_POINT_SIZE_RANGE), count: 2)
        let viewport = gl.getInteger(GLenum(GL_MAX_VIEWPORT_DIMS), count: 2)
        let c = gl.context
        return RendererInfo(
            platform: c.platform, platformReason: c.platformReason, eglVersion: c.eglVersion,
            eglVendor: c.eglVendor, device: c.device,
            glVendor: gl.getString(GLenum(GL_VENDOR)), glRenderer: gl.getString(GLenum(GL_RENDERER)),
            glVersion: gl.getString(GLenum(GL_VERSION)),
            glslVersion: gl.getString(GLenum(GL_SHADING_LANGUAGE_VERSION)),
            pointSizeRange: min(points[0], points[1])...max(points[0], points[1]),
            maxTextureSize: Int(gl.getInteger(GLenum(GL_MAX_TEXTURE_SIZE))[0]),
            maxViewport: (Int(viewport[0]), Int(viewport[1])))
    }

    var statistics: RenderStatistics {
        let s = gl.stats
        return RenderStatistics(glCalls: s.calls, drawCalls: s.draws, bytesUploaded: s.bytesUploaded,
                                textureUploads: s.textureUploads, skippedBinds: s.skippedBinds)
    }

    func finish() { gl.finish() }

    /// A new target of a canvas's size with `guardBand` px around it.
    func makeTarget(width: Int, height: Int, guardBand: Int, format: Framebuffer.Format = .rgba) throws -> Framebuffer {
        try Framebuffer(gl: gl, width: width, height: height, guardBand: guardBand, format: format)
    }

    /// The one-channel format coverage pages take, nil where the driver renders into none
    /// (OpenGL ES 2 without GL_EXT_texture_rg): asked once, with a small target made and read.
    private(set) lazy var redFormat: Framebuffer.Format? = {
        guard gl.hasES3(orExtension: "GL_EXT_texture_rg") else { return nil }
        // ES 3 takes the sized format; ES 2's extension the unsized one.
        let internalFormat = gl.isES3 ? Framebuffer.r8 : Framebuffer.red
        guard let probe = try? Framebuffer(gl: gl, width: 4, height: 4, guardBand: 0,
                                           format: .red(internalFormat: internalFormat, readsRed: false)) else { return nil }
        defer { probe.delete(gl) }
        probe.bind(gl)
        // GL_IMPLEMENTATION_COLOR_READ_FORMAT and _TYPE of the bound framebuffer.
        let readsRed = gl.getInteger(GLenum(0x8B9B))[0] == GLint(Framebuffer.red)
            && gl.getInteger(GLenum(0x8B9A))[0] == GLint(GL_UNSIGNED_BYTE)
        return .red(internalFormat: internalFormat, readsRed: readsRed)
    }()

    func deleteTarget(_ target: Framebuffer) { target.delete(gl) }

    /// The frame target for a canvas, bound and filled with `background`: a premultiplied
    /// colour, a premultiplied image (rows top to bottom), or a copy of another target.
    /// `coverage`: one channel where the driver draws into one (`redFormat`), for a page whose
    /// ink is white (its red is its alpha).
    func beginFrame(width: Int, height: Int, guardBand: Int, background: TargetFill, coverage: Bool = false) throws -> Framebuffer {
        guard gl.checkContextStillCurrent() else { throw RenderError("the render thread's GL context is not current") }
        let format = coverage ? redFormat ?? .rgba : .rgba
        let target: Framebuffer
        if let t = frameTarget, t.width == width, t.height == height, t.format == format {
            target = t
        } else {
            frameTarget?.delete(gl)
            frameTarget = nil
            target = try makeTarget(width: width, height: height, guardBand: guardBand, format: format)
            frameTarget = target
        }
        try fill(target, with: background)
        return target
    }

    /// Fills a whole target with a background.
    func fill(_ target: Framebuffer, with background: TargetFill) throws {
        switch background {
        case let .color(r, g, b, a):
            target.fill(gl, red: Float(r) / 255, green: Float(g) / 255, blue: Float(b) / 255, alpha: Float(a) / 255)
        case let .pixels(premultiplied):
            target.upload(gl, premultipliedBottomUp: premultiplied)
        case let .copy(source):
            target.copy(gl, from: source)
        }
    }

    /// Binds `target` for drawing more onto it, as it is.
    func bind(_ target: Framebuffer) { target.bind(gl) }

    /// `scissored`: the scissor set before stays on (every other state is the stamps').
    func draw(_ plan: FramePlan, layers: [PointBuffers], into target: Framebuffer, scissored: Bool = false) throws {
        try drawer.draw(plan, layers: layers, into: target, scissored: scissored)
    }

    /// Reads a target back: premultiplied RGBA, rows top to bottom.
    func read(_ target: Framebuffer) throws -> [UInt8] {
        target.bind(gl)
        let pixels = target.read(gl)
        try gl.checkError("reading back the frame")
        return pixels
    }

    /// Reads rows of a target back (row 0 at the bottom, GL's order) into a new buffer,
    /// premultiplied: a band of a read-back spread over several render-thread jobs.
    func readRows(_ target: Framebuffer, _ rows: Range<Int>) throws -> [UInt8] {
        target.bind(gl)
        let pixels = target.readRows(gl, rows)
        try gl.checkError("reading back rows \(rows.lowerBound)..<\(rows.upperBound) of a \(target.width)×\(target.height) surface")
        return pixels
    }

    /// The last frame drawn, read back.
    func readFrame() throws -> [UInt8] {
        guard let t = frameTarget else { throw RenderError("no frame has been drawn") }
        return try read(t)
    }

    /// Draws chords of ink as lines (`InkLineDrawer`) over the frame target.
    func drawInkLines(_ vertices: [Float]) throws {
        guard let t = frameTarget else { throw RenderError("no frame has been begun") }
        try vertices.withUnsafeBufferPointer { try inkLines.draw($0, into: t) }
    }

    /// The last frame drawn, read into `buffer` as GL holds it (rows bottom to top); its
    /// bytes a pixel and the one that holds the coverage.
    func readFrame(into buffer: UnsafeMutableRawBufferPointer) throws -> (bytesPerPixel: Int, coverage: Int) {
        guard let t = frameTarget else { throw RenderError("no frame has been drawn") }
        t.bind(gl)
        t.read(gl, into: buffer)
        try gl.checkError("reading back the frame")
        return t.readLayout
    }

    /// Runs code that calls GL directly, then forgets what the state cache believed.
    func runForeign<T>(_ body: () throws -> T) rethrows -> T {
        precondition(gl.context.isCurrentHere(), "foreign GL must run on the render thread")
        defer { gl.invalidateStateCache() }
        return try body()
    }
}

/// What a target starts as.
enum TargetFill {
    /// A premultiplied 8-bit colour.
    case color(UInt8, UInt8, UInt8, UInt8)
    /// A premultiplied RGBA image of the canvas's size, rows bottom to top.
    case pixels([UInt8])
    /// An exact copy of another target of the same size.
    case copy(Framebuffer)
}
