import CStipple
import Foundation

/// Renders stamps to images on its own GL context and thread.
///
/// An actor whose executor is a `RenderThread`: every method runs on that one thread,
/// which made the context current once, so no GL call can land anywhere else. Several
/// renderers can work side by side, each with its own thread and context.
public actor Renderer {
    private let thread: RenderThread
    private let gl: GL
    public nonisolated let info: RendererInfo

    private var programs: [Primitive: ShaderProgram] = [:]
    private var brushTextures: [String: BrushTexture] = [:]
    private var framebuffer: Framebuffer?
    private let pointBuffer: VertexBuffer
    private let quadBuffer: VertexBuffer
    // Scratch kept from frame to frame, so a steady frame allocates nothing new.
    private var pointVertices: [SketchPoint] = []
    private var quadVertices: [stp_quad_vertex] = []
    private var runs: [DrawRun] = []
    private var readback: [UInt8] = []

    public nonisolated var unownedExecutor: UnownedSerialExecutor { thread.asUnownedSerialExecutor() }

    private static let counter = Counter()

    /// Opens EGL (see `EGLPlatform`), starts the render thread and makes the context current on it.
    public init(platform: EGLPlatform = .automatic) throws {
        let context = try GLContext(platform: platform)
        let thread = try RenderThread(
            name: "stipple.render.\(Renderer.counter.next())",
            setUp: { try context.makeCurrent() },
            tearDown: { context.release() })
        let gl = GL(context: context)
        self.thread = thread
        self.gl = gl
        let made = try thread.sync { () throws -> (RendererInfo, VertexBuffer, VertexBuffer) in
            (Renderer.queryInfo(gl), VertexBuffer(gl: gl), VertexBuffer(gl: gl))
        }
        info = made.0
        pointBuffer = made.1
        quadBuffer = made.2
    }

    deinit {
        // GL objects go with the context, which the thread releases as it ends.
        thread.stop()
    }

    private static func queryInfo(_ gl: GL) -> RendererInfo {
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

    /// Everything counted since this renderer was made.
    public func statistics() -> RenderStatistics {
        let s = gl.stats
        return RenderStatistics(glCalls: s.calls, drawCalls: s.draws, bytesUploaded: s.bytesUploaded,
                                textureUploads: s.textureUploads, skippedBinds: s.skippedBinds)
    }

    /// Draws `batches` over the canvas and returns the image (straight alpha, SPEC §1).
    /// Stamp ages are taken as they are (plus `ageOffset`): dead and unborn stamps are left out.
    public func render(canvas: Canvas, batches: [StampBatch], settings: RenderSettings = RenderSettings(),
                       ageOffset: Float = 0) throws -> Image {
        let premultiplied = try renderPremultiplied(canvas: canvas, batches: batches, settings: settings,
                                                    ageOffset: ageOffset)
        return Image(width: canvas.width, height: canvas.height, premultiplied: premultiplied)
    }

    /// As `render`, but returns the framebuffer as it is: premultiplied RGBA, rows top to bottom.
    public func renderPremultiplied(canvas: Canvas, batches: [StampBatch],
                                    settings: RenderSettings = RenderSettings(),
                                    ageOffset: Float = 0) throws -> [UInt8] {
        let fb = try prepareCanvas(canvas)
        try draw(batches: batches, settings: settings, ageOffset: ageOffset, canvas: canvas)
        fb.read(gl, into: &readback)
        try gl.checkError("reading back the frame")
        return readback
    }

    // MARK: frame steps

    private func prepareCanvas(_ canvas: Canvas) throws -> Framebuffer {
        let limit = info.maxCanvasSide
        guard canvas.width >= 1, canvas.height >= 1, canvas.width <= limit.width, canvas.height <= limit.height else {
            throw RenderError("a \(canvas.width)×\(canvas.height) canvas is larger than the driver allows "
                + "(\(limit.width)×\(limit.height), \(info.glRenderer))")
        }
        let fb: Framebuffer
        if let existing = framebuffer, existing.width == canvas.width, existing.height == canvas.height {
            fb = existing
        } else {
            framebuffer?.delete(gl)
            framebuffer = nil
            fb = try Framebuffer(gl: gl, width: canvas.width, height: canvas.height)
            framebuffer = fb
        }
        switch canvas.background {
        case let .color(c):
            fb.bind(gl)
            // Premultiplied and quantised like any 8-bit pixel, so clearing is exact.
            let (r, g, b, a) = c.premultipliedRGBA8
            gl.clear(red: Float(r) / 255, green: Float(g) / 255, blue: Float(b) / 255, alpha: Float(a) / 255)
        case let .image(image):
            guard image.width == canvas.width, image.height == canvas.height else {
                throw RenderError("the background image is \(image.width)×\(image.height), the canvas \(canvas.width)×\(canvas.height)")
            }
            fb.upload(gl, premultipliedTopDown: image.premultiplied())
            fb.bind(gl)
        }
        return fb
    }

    private func program(_ primitive: Primitive) throws -> ShaderProgram {
        if let p = programs[primitive] { return p }
        let p = try ShaderProgram(gl: gl, vertex: "sketch.vert", fragment: "sketch.frag",
                                  defines: primitive == .quads ? ["STIPPLE_QUADS"] : [])
        programs[primitive] = p
        return p
    }

    private func texture(for batch: StampBatch) -> BrushTexture {
        if let t = brushTextures[batch.brushKey] { return t }
        let t = BrushTexture(gl: gl, brush: batch.brush)
        brushTextures[batch.brushKey] = t
        return t
    }

    private func draw(batches: [StampBatch], settings: RenderSettings, ageOffset: Float, canvas: Canvas) throws {
        let planner = DrawPlanner(effects: settings.effects, primitive: settings.primitive,
                                  maxPointSize: info.pointSizeRange.upperBound,
                                  canvasWidth: Float(canvas.width), canvasHeight: Float(canvas.height),
                                  ageOffset: ageOffset)
        planner.plan(batches, points: &pointVertices, quads: &quadVertices, runs: &runs)
        guard !runs.isEmpty else { return }

        // State for the whole frame, set once.
        gl.disable(GLenum(GL_DITHER))
        gl.disable(GLenum(GL_DEPTH_TEST))
        gl.disable(GLenum(GL_SCISSOR_TEST))
        gl.enable(GLenum(GL_BLEND))
        gl.blendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        gl.pixelStore(GLenum(GL_UNPACK_ALIGNMENT), 1)

        pointVertices.withUnsafeBufferPointer { pointBuffer.upload(gl, $0) }
        quadVertices.withUnsafeBufferPointer { quadBuffer.upload(gl, $0) }

        for primitive in Primitive.allCases where runs.contains(where: { $0.primitive == primitive }) {
            let p = try program(primitive)
            gl.useProgram(p.id)
            gl.uniform2f(p.uniform(gl, "uCanvasSize"), Float(canvas.width), Float(canvas.height))
            gl.uniform1f(p.uniform(gl, "uMaxAge"), settings.effects.maxAge)
            gl.uniform1f(p.uniform(gl, "uDissolveDistance"), settings.effects.dissolveDistance)
            gl.uniform1f(p.uniform(gl, "uPointScale"), settings.effects.pointScale)
            gl.uniform1f(p.uniform(gl, "uAgeOffset"), ageOffset)
            gl.uniform1i(p.uniform(gl, "uBrush"), 0)
        }

        var attributesFor: Primitive?
        for run in runs {
            gl.bindTexture(texture(for: batches[run.batch]).id)
            if attributesFor != run.primitive {
                try gl.useProgram(program(run.primitive).id)
                bindAttributes(for: run.primitive)
                attributesFor = run.primitive
            }
            switch run.primitive {
            case .points: gl.drawArrays(GLenum(GL_POINTS), first: run.first, count: run.count)
            case .quads: gl.drawArrays(GLenum(GL_TRIANGLES), first: run.first * 6, count: run.count * 6)
            }
        }
        try gl.checkError("drawing \(runs.count) runs of stamps")
    }

    private func bindAttributes(for primitive: Primitive) {
        typealias A = ShaderProgram.Attribute
        let stride: Int
        switch primitive {
        case .points:
            gl.bindArrayBuffer(pointBuffer.id)
            stride = MemoryLayout<SketchPoint>.stride
            gl.disableAttribute(A.corner.rawValue)
        case .quads:
            gl.bindArrayBuffer(quadBuffer.id)
            stride = MemoryLayout<stp_quad_vertex>.stride
            gl.enableAttribute(A.corner.rawValue)
            gl.attributePointer(A.corner.rawValue, size: 2, stride: stride, offset: 36)
        }
        let layout: [(A, Int, Int)] = [(.position, 2, 0), (.radius, 1, 8), (.age, 1, 12),
                                       (.dissolveAngle, 1, 16), (.color, 4, 20)]
        for (attribute, size, offset) in layout {
            gl.enableAttribute(attribute.rawValue)
            gl.attributePointer(attribute.rawValue, size: size, stride: stride, offset: offset)
        }
    }
}

/// Names render threads uniquely in a process.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
}
