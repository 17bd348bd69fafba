import CStipple
import Foundation

/// Renders stamps to images on its own GL context and thread.
///
/// An actor whose executor is a `RenderThread`: every method runs on that one thread,
/// which made the context current once, so no GL call can land anywhere else. Several
/// renderers can work side by side, each with its own thread and context.
///
/// Two ways to draw: `render(canvas:batches:)` uploads the stamps it is given (immediate),
/// and layers (`makeLayer`, `append`, `renderLayers`) keep stamps resident in GL with their
/// ages at frame 0, so a frame tick uploads only what is new (see `StampLayer`).
public actor Renderer {
    let thread: RenderThread
    let gl: GL
    public nonisolated let info: RendererInfo

    private var programs: [Primitive: ShaderProgram] = [:]
    private var brushTextures: [String: BrushTexture] = [:]
    private var framebuffer: Framebuffer?
    // The immediate path's buffers and scratch, kept from frame to frame.
    private let pointBuffer: VertexBuffer
    private let rotationBuffer: VertexBuffer
    private let quadBuffer: VertexBuffer
    private var pointVertices: [SketchPoint] = []
    private var pointRotations: [Float] = []
    var quadVertices: [stp_quad_vertex] = []
    var runs: [DrawRun] = []
    private var readback: [UInt8] = []
    var layers: [LayerID: StampLayer] = [:]
    var nextLayer = 0
    private var textureIDs: [GLuint] = []
    /// How the immediate path writes its buffers each frame (see `VertexUpload`).
    public private(set) var vertexUpload: VertexUpload = .subData

    public func setVertexUpload(_ strategy: VertexUpload) { vertexUpload = strategy }

    public nonisolated var unownedExecutor: UnownedSerialExecutor { thread.asUnownedSerialExecutor() }

    private static let counter = Counter()

    /// Opens EGL (see `EGLPlatform`), starts the render thread and makes the context current on it.
    public init(platform: EGLPlatform = .automatic) throws {
        let context = try GLContext(platform: platform)
        let thread = try RenderThread(
            name: "stipple.render.\(Renderer.counter.next())",
            setUp: { try context.makeCurrent() },
            tearDown: { context.close() })
        let gl = GL(context: context)
        self.thread = thread
        self.gl = gl
        let made = try thread.sync { () throws -> (RendererInfo, [VertexBuffer]) in
            (Renderer.queryInfo(gl), [VertexBuffer(gl: gl), VertexBuffer(gl: gl), VertexBuffer(gl: gl)])
        }
        info = made.0
        pointBuffer = made.1[0]
        rotationBuffer = made.1[1]
        quadBuffer = made.1[2]
    }

    /// Ends the render thread now and waits for its tear-down (the context is released on
    /// it). Call it off the render thread, when no more frames are wanted: a runner that
    /// owns several renderers ends them before the process exits.
    package nonisolated func shutDown() { thread.stop() }

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

    /// Waits until the GPU has finished everything asked of it (for honest timing).
    public func finish() { gl.finish() }

    // MARK: immediate drawing

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
        try drawImmediate(canvas: canvas, batches: batches, settings: settings, ageOffset: ageOffset)
        return try readFrame()
    }

    /// Draws without reading back (the benchmark times drawing and reading apart).
    public func drawImmediate(canvas: Canvas, batches: [StampBatch], settings: RenderSettings = RenderSettings(),
                              ageOffset: Float = 0) throws {
        try prepareCanvas(canvas)
        let planner = planner(canvas, settings, ageOffset)
        // Live stamps only, all batches in one buffer; rotations beside them when any batch turns.
        pointVertices.removeAll(keepingCapacity: true)
        pointRotations.removeAll(keepingCapacity: true)
        let anyRotation = batches.contains { $0.rotations != nil }
        var ranges: [(Int, Int)] = []
        ranges.reserveCapacity(batches.count)
        let effects = settings.effects
        // The common case — one batch, every stamp live, upright — is uploaded straight from
        // the caller's array: no copy of the stamps on the CPU.
        var direct = false
        for batch in batches {
            let start = pointVertices.count
            let allLive = batch.stamps.withUnsafeBufferPointer { stamps in
                !stamps.contains { !effects.isLive(age: $0.age + ageOffset) }
            }
            if allLive && batches.count == 1 && !anyRotation {
                direct = true
                ranges.append((0, batch.stamps.count))
                break
            }
            if allLive {
                pointVertices.append(contentsOf: batch.stamps)
                if anyRotation {
                    if let r = batch.rotations { pointRotations.append(contentsOf: r) } else {
                        pointRotations.append(contentsOf: repeatElement(0, count: batch.stamps.count))
                    }
                }
            } else {
                for (i, p) in batch.stamps.enumerated() where effects.isLive(age: p.age + ageOffset) {
                    pointVertices.append(p)
                    if anyRotation { pointRotations.append(batch.rotations?[i] ?? 0) }
                }
            }
            ranges.append((start, pointVertices.count - start))
        }
        quadVertices.removeAll(keepingCapacity: true)
        runs.removeAll(keepingCapacity: true)
        let plan = { (all: UnsafeBufferPointer<SketchPoint>, rot: UnsafeBufferPointer<Float>) in
            for (index, (start, count)) in ranges.enumerated() {
                let slice = UnsafeBufferPointer(rebasing: all[start..<start + count])
                var bounds = StampBounds()
                for p in slice { bounds.add(p) }
                if planner.pointsSuffice(for: bounds) {
                    // Nothing here can need a quad: one run, no look at each stamp's age.
                    planner.planAllPoints(batch: index, source: 0, first: start, count: count, runs: &self.runs)
                    continue
                }
                let rotations = anyRotation ? UnsafeBufferPointer(rebasing: rot[start..<start + count]) : nil
                planner.plan(batch: index, source: 0, stamps: slice, rotations: rotations, bufferBase: start,
                             keepCulledInRuns: false, quads: &self.quadVertices, runs: &self.runs)
            }
        }
        let stamps = direct ? batches[0].stamps : pointVertices
        stamps.withUnsafeBufferPointer { all in pointRotations.withUnsafeBufferPointer { plan(all, $0) } }
        guard !runs.isEmpty else { return }
        if runs.contains(where: { $0.primitive == .points }) {
            stamps.withUnsafeBufferPointer { pointBuffer.upload(gl, $0, strategy: vertexUpload) }
            if anyRotation { pointRotations.withUnsafeBufferPointer { rotationBuffer.upload(gl, $0, strategy: vertexUpload) } }
        }
        let source = PointSource(stamps: pointBuffer, rotations: anyRotation ? rotationBuffer : nil)
        try drawRuns(canvas: canvas, settings: settings, ageOffset: ageOffset, sources: [source],
                     brushCount: batches.count, brush: { (batches[$0].brushKey, batches[$0].brush) })
    }

    // MARK: frame steps shared by both paths

    func planner(_ canvas: Canvas, _ settings: RenderSettings, _ ageOffset: Float) -> DrawPlanner {
        DrawPlanner(effects: settings.effects, primitive: settings.primitive,
                    maxPointSize: info.pointSizeRange.upperBound,
                    canvasWidth: Float(canvas.width), canvasHeight: Float(canvas.height), ageOffset: ageOffset,
                    guardBand: Float(framebuffer?.guardBand ?? 0))
    }

    /// The band kept around a canvas: half the largest point (so any point that can touch
    /// the canvas is centred inside the viewport), at most 64 px, and only what the
    /// driver's largest texture leaves room for.
    package func guardBand(for canvas: Canvas) -> Int {
        let half = Int((info.pointSizeRange.upperBound / 2).rounded(.up)) + 1
        let room = (min(info.maxTextureSize, info.maxViewport.width, info.maxViewport.height)
                    - max(canvas.width, canvas.height)) / 2
        return max(0, min(64, half, room))
    }

    /// Reads the frame back: premultiplied RGBA, rows top to bottom.
    package func readFrame() throws -> [UInt8] {
        guard let fb = framebuffer else { throw RenderError("no frame has been drawn") }
        fb.read(gl, into: &readback)
        try gl.checkError("reading back the frame")
        return readback
    }

    /// Binds a framebuffer of the canvas's size and fills it with the background.
    func prepareCanvas(_ canvas: Canvas) throws {
        guard gl.checkContextStillCurrent() else { throw RenderError("the render thread's GL context is not current") }
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
            fb = try Framebuffer(gl: gl, width: canvas.width, height: canvas.height, guardBand: guardBand(for: canvas))
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
    }

    private func program(_ primitive: Primitive) throws -> ShaderProgram {
        if let p = programs[primitive] { return p }
        let p = try ShaderProgram(gl: gl, vertex: "sketch.vert", fragment: "sketch.frag",
                                  defines: primitive == .quads ? ["STIPPLE_QUADS"] : [])
        programs[primitive] = p
        return p
    }

    private func texture(key: String, brush: Brush) -> BrushTexture {
        if let t = brushTextures[key] { return t }
        let t = BrushTexture(gl: gl, brush: brush)
        brushTextures[key] = t
        return t
    }

    /// A buffer of stamps drawn as points, with its rotations when it has any.
    struct PointSource {
        var stamps: VertexBuffer
        var rotations: VertexBuffer?
    }

    /// Sets the frame's state once, uploads the quads, and issues `runs` in order.
    func drawRuns(canvas: Canvas, settings: RenderSettings, ageOffset: Float, sources: [PointSource],
                  brushCount: Int, brush: (Int) -> (key: String, brush: Brush)) throws {
        guard !runs.isEmpty else { return }
        gl.disable(GLenum(GL_DITHER))
        gl.disable(GLenum(GL_DEPTH_TEST))
        gl.disable(GLenum(GL_SCISSOR_TEST))
        gl.enable(GLenum(GL_BLEND))
        gl.blendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        if !quadVertices.isEmpty { quadVertices.withUnsafeBufferPointer { quadBuffer.upload(gl, $0, strategy: vertexUpload) } }
        // Each batch's texture, looked up once a frame rather than once a run.
        textureIDs.removeAll(keepingCapacity: true)
        var lastKey: String?
        var lastID: GLuint = 0
        for index in 0..<brushCount {
            let b = brush(index)
            if b.key != lastKey {
                lastID = texture(key: b.key, brush: b.brush).id
                lastKey = b.key
            }
            textureIDs.append(lastID)
        }

        for primitive in Primitive.allCases where runs.contains(where: { $0.primitive == primitive }) {
            let p = try program(primitive)
            gl.useProgram(p.id)
            let fb = framebuffer!
            gl.uniform2f(p.uniform(gl, "uTargetSize"), Float(fb.targetWidth), Float(fb.targetHeight))
            gl.uniform1f(p.uniform(gl, "uGuardBand"), Float(fb.guardBand))
            gl.uniform1f(p.uniform(gl, "uMaxAge"), settings.effects.maxAge)
            gl.uniform1f(p.uniform(gl, "uDissolveDistance"), settings.effects.dissolveDistance)
            gl.uniform1f(p.uniform(gl, "uPointScale"), settings.effects.pointScale)
            gl.uniform1f(p.uniform(gl, "uAgeOffset"), ageOffset)
            gl.uniform1i(p.uniform(gl, "uBrush"), 0)
        }

        var bound: (Primitive, Int)?
        for run in runs {
            gl.bindTexture(textureIDs[run.batch])
            let want = (run.primitive, run.primitive == .quads ? -1 : run.source)
            if bound == nil || bound! != want {
                try gl.useProgram(program(run.primitive).id)
                switch run.primitive {
                case .points: bindAttributes(stamps: sources[run.source].stamps, rotations: sources[run.source].rotations)
                case .quads: bindQuadAttributes()
                }
                bound = want
            }
            switch run.primitive {
            case .points: gl.drawArrays(GLenum(GL_POINTS), first: run.first, count: run.count)
            case .quads: gl.drawArrays(GLenum(GL_TRIANGLES), first: run.first * 6, count: run.count * 6)
            }
        }
        try gl.checkError("drawing \(runs.count) runs of stamps")
    }

    private typealias A = ShaderProgram.Attribute
    private static let stampLayout: [(A, Int, Int)] = [(.position, 2, 0), (.radius, 1, 8), (.age, 1, 12),
                                                       (.dissolveAngle, 1, 16), (.color, 4, 20)]

    private func bindAttributes(stamps: VertexBuffer, rotations: VertexBuffer?) {
        gl.bindArrayBuffer(stamps.id)
        for (attribute, size, offset) in Renderer.stampLayout {
            gl.enableAttribute(attribute.rawValue)
            gl.attributePointer(attribute.rawValue, size: size, stride: SketchPoint.byteSize, offset: offset)
        }
        gl.disableAttribute(A.corner.rawValue)
        if let rotations {
            gl.bindArrayBuffer(rotations.id)
            gl.enableAttribute(A.rotation.rawValue)
            gl.attributePointer(A.rotation.rawValue, size: 1, stride: 4, offset: 0)
        } else {
            gl.disableAttribute(A.rotation.rawValue)
            gl.constantAttribute(A.rotation.rawValue, 0)
        }
    }

    private func bindQuadAttributes() {
        let stride = MemoryLayout<stp_quad_vertex>.stride
        gl.bindArrayBuffer(quadBuffer.id)
        for (attribute, size, offset) in Renderer.stampLayout {
            gl.enableAttribute(attribute.rawValue)
            gl.attributePointer(attribute.rawValue, size: size, stride: stride, offset: offset)
        }
        gl.enableAttribute(A.corner.rawValue)
        gl.attributePointer(A.corner.rawValue, size: 2, stride: stride, offset: 36)
        gl.enableAttribute(A.rotation.rawValue)
        gl.attributePointer(A.rotation.rawValue, size: 1, stride: stride, offset: 44)
    }
}

/// Names render threads uniquely in a process.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
}
