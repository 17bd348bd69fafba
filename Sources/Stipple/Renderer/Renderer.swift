import Synchronization
import Foundation

/// Renders stamps to images on its own GL context and thread.
///
/// An actor whose executor is a `RenderThread`: every method runs on that one thread,
/// which made the context current once, so no GL call can land anywhere else. Several
/// renderers can work side by side, each with its own thread and context.
///
/// Every frame is a `FramePlan` (built here, without GL) executed by the device's one
/// drawing path (`GL/`). Stamps reach a plan in one of two ways: `render(canvas:batches:)`
/// takes them as given (immediate), and layers (`makeLayer`, `append`, `renderLayers`)
/// keep them resident in GL with their ages at frame 0, so a frame tick uploads only what
/// is new. Surfaces (`makeSurface`) are images kept on the GPU that layers are baked onto
/// and that a frame can start from.
public actor Renderer {
    let thread: RenderThread
    let device: GLDevice
    /// The driver: its name, versions and limits (`stipple info` prints them).
    public nonisolated let info: RendererInfo
    /// The frame being planned, kept to reuse its storage from frame to frame.
    var plan = FramePlan()
    var layers: [LayerID: StampLayer] = [:]
    var nextLayer = 0
    var surfaces: [SurfaceID: Framebuffer] = [:]
    var nextSurface = 0
    /// Canvases part-way through frames with stroke layers (see `ModeSnapshots`).
    var modeSnapshots = ModeSnapshots()
    /// The ways of drawing the tests and the benchmark turn off to compare (`DrawingSwitches`).
    var switches = DrawingSwitches()
    /// Video sketches kept between frames (see `KeptSketch`), by id.
    var keptSketches: [Int: KeptSketch.State] = [:]
    /// The last background image's rows as a target takes them, for the next frame over it.
    var background = BackgroundRows()

    /// The renderer's own render thread: every method runs there, with its GL context current.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { thread.asUnownedSerialExecutor() }

    private static let counter = Counter()

    /// Opens EGL (see `EGLPlatform`), starts the render thread and makes the context current on it.
    public init(platform: EGLPlatform = .automatic) throws {
        try self.init(platform: platform, niceness: 0)
    }

    /// As `init(platform:)`, with a CPU driver's rasteriser threads at nice value `niceness`:
    /// above 0, filling pixels yields the cores to the process's other work (a server's live
    /// channel), as background work should. llvmpipe starts its rasterisers with the
    /// process's first context and shares them with every context after it, so this takes
    /// effect when the process's first renderer is made so. The render thread itself runs at
    /// the normal priority (it resumes the callers' tasks).
    package init(platform: EGLPlatform = .automatic, niceness: Int32) throws {
        let context = niceness > 0 ? try GLContext.made(niceness: niceness, platform: platform)
            : try GLContext(platform: platform)
        let thread = try RenderThread(
            name: "stipple-gl-\(Renderer.counter.next())",  // at most 15 bytes: the system keeps no more
            setUp: { try context.makeCurrent() },
            tearDown: { context.close() })
        // Made on the render thread: the device creates GL objects as it starts.
        let (device, info) = try thread.sync { () -> (GLDevice, RendererInfo) in
            let device = GLDevice(context: context)
            return (device, device.queryInfo())
        }
        self.thread = thread
        self.device = device
        self.info = info
    }

    /// Ends the render thread now and waits for its tear-down (the context is released on
    /// it). Call it off the render thread, when no more frames are wanted: a runner that
    /// owns several renderers ends them before the process exits.
    package nonisolated func shutDown() { thread.stop() }

    deinit {
        // GL objects go with the context, which the thread releases as it ends.
        thread.stop()
    }

    /// Everything counted since this renderer was made.
    public func statistics() -> RenderStatistics { device.statistics }

    /// Waits until the GPU has finished everything asked of it (for honest timing).
    public func finish() { device.finish() }

    // MARK: immediate drawing

    /// Draws `batches` over the canvas and returns the image (straight alpha, docs/reference.md §1).
    /// Stamp ages are taken as they are (plus `ageOffset`): dead and unborn stamps are left out.
    public func render(canvas: Canvas, batches: [StampBatch], settings: RenderSettings = RenderSettings(),
                       ageOffset: Float = 0) throws -> Image {
        Image(width: canvas.width, height: canvas.height,
              premultiplied: try renderPremultiplied(canvas: canvas, batches: batches, settings: settings,
                                                     ageOffset: ageOffset))
    }

    /// As `render`, but returns the frame as drawn: premultiplied RGBA, rows top to bottom.
    package func renderPremultiplied(canvas: Canvas, batches: [StampBatch], settings: RenderSettings = RenderSettings(),
                                     ageOffset: Float = 0) throws -> [UInt8] {
        try drawImmediate(canvas: canvas, batches: batches, settings: settings, ageOffset: ageOffset)
        return try readFrame()
    }

    /// Draws without reading back (the benchmark times drawing and reading apart).
    /// `coverage`: into a one-channel target where the driver has one (`readFrame(into:)`
    /// says), for stamps whose colour is white, so that the channel kept, red, is their alpha.
    package func drawImmediate(canvas: Canvas, batches: [StampBatch], settings: RenderSettings = RenderSettings(),
                               ageOffset: Float = 0, coverage: Bool = false) throws {
        precondition(!coverage || batches.allSatisfy { $0.mode == nil }, "a coverage frame holds stamps drawn one by one")
        try drawPasses(batches, canvas: canvas, settings: settings, ageOffset: ageOffset,
                       into: try beginFrame(canvas, coverage: coverage))
    }

    /// Draws a frame of ink as lines: `canvas`'s background, then the chords in `vertices`
    /// (`InkChords`' layout) in white coverage; `coverage` as `drawImmediate`'s.
    package func drawInkLines(canvas: Canvas, vertices: [Float], coverage: Bool = false) throws {
        _ = try beginFrame(canvas, coverage: coverage)
        try device.drawInkLines(vertices)
    }

    // MARK: the steps every frame shares

    func planner(_ canvas: Canvas, _ settings: RenderSettings, _ ageOffset: Float) -> FramePlanner {
        FramePlanner(effects: settings.effects, primitive: settings.primitive,
                     maxPointSize: info.pointSizeRange.upperBound,
                     canvasWidth: Float(canvas.width), canvasHeight: Float(canvas.height), ageOffset: ageOffset,
                     guardBand: Float(guardBand(for: canvas)))
    }

    /// The band kept around a canvas: half the largest point (so any point that can touch
    /// the canvas is centred inside the viewport), at most 64 px, and only what the
    /// driver's largest texture leaves room for.
    package nonisolated func guardBand(for canvas: Canvas) -> Int {
        let half = Int((info.pointSizeRange.upperBound / 2).rounded(.up)) + 1
        let side = info.maxCanvasSide
        let room = (min(side.width, side.height) - max(canvas.width, canvas.height)) / 2
        return max(0, min(64, half, room))
    }

    /// Reads the last frame back: premultiplied RGBA, rows top to bottom.
    package func readFrame() throws -> [UInt8] { try device.readFrame() }

    /// Reads the last frame back into `buffer` (at least width × height × 4 bytes) as GL
    /// holds it: premultiplied RGBA, rows bottom to top, or one byte a pixel after a
    /// `coverage` frame drawn into one channel. No array is made, flipped or copied: for a
    /// caller that reads large frames often and can take the rows in that order. Returns the
    /// bytes a pixel and which of them holds the coverage (alpha, or red in a one-channel frame).
    @discardableResult
    package func readFrame(into buffer: ReadbackBuffer) throws -> (bytesPerPixel: Int, coverage: Int) {
        try device.readFrame(into: buffer.bytes)
    }

    /// The frame target for `canvas`, filled with its background; `coverage` as `drawImmediate`'s.
    func beginFrame(_ canvas: Canvas, coverage: Bool = false) throws -> Framebuffer {
        let limit = info.maxCanvasSide
        guard canvas.width >= 1, canvas.height >= 1, canvas.width <= limit.width, canvas.height <= limit.height else {
            throw RenderError("a \(canvas.width)×\(canvas.height) canvas is larger than the driver allows "
                + "(\(limit.width)×\(limit.height), \(info.glRenderer))")
        }
        return try device.beginFrame(width: canvas.width, height: canvas.height, guardBand: guardBand(for: canvas),
                                     background: fill(for: canvas), coverage: coverage)
    }

    /// Throws unless a background image is the canvas's size.
    func checkBackground(_ image: Image, fits canvas: Canvas) throws {
        guard image.width == canvas.width, image.height == canvas.height else {
            throw RenderError("the background image is \(image.width)×\(image.height), the canvas \(canvas.width)×\(canvas.height)")
        }
    }

    /// What a target of `canvas` starts as.
    func fill(for canvas: Canvas) throws -> TargetFill {
        switch canvas.background {
        case let .color(c):
            // Premultiplied and quantised like any 8-bit pixel, so clearing is exact.
            let (r, g, b, a) = c.premultipliedRGBA8
            return .color(r, g, b, a)
        case let .image(image):
            try checkBackground(image, fits: canvas)
            if let kept = background.rows(for: image) { return .pixels(kept) }
            let rows = BackgroundRows.bottomUp(image)
            background.keep(rows, for: image)
            return .pixels(rows)
        case let .surface(id):
            let s = try surface(id)
            guard s.width == canvas.width, s.height == canvas.height else {
                throw RenderError("\(id) is \(s.width)×\(s.height), the canvas \(canvas.width)×\(canvas.height)")
            }
            return .copy(s)
        }
    }
}

/// A background image premultiplied, rows bottom to top (as a target is filled), kept for
/// the frames after: a sequence of frames over one image premultiplies and turns it once,
/// not every frame. One image is kept, up to `maxBytes`; a larger one is made each time
/// rather than held beside the image for the renderer's life.
struct BackgroundRows: Sendable {
    static let maxBytes = 64 << 20
    private var kept: (image: Image, rows: [UInt8])?

    /// The rows made for `image`, when it is the one kept (the same storage answers at once;
    /// other pixels are compared).
    func rows(for image: Image) -> [UInt8]? {
        guard let kept, kept.image == image else { return nil }
        return kept.rows
    }

    mutating func keep(_ rows: [UInt8], for image: Image) {
        kept = rows.count <= BackgroundRows.maxBytes ? (image, rows) : nil
    }

    /// `image` premultiplied (as `Image.premultiplied()`), rows bottom to top.
    static func bottomUp(_ image: Image) -> [UInt8] {
        Framebuffer.flippedRows(image.premultiplied(), width: image.width, height: image.height)
    }
}

/// Names render threads uniquely in a process.
private final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func next() -> Int { value.add(1, ordering: .relaxed).newValue }
}

/// Ways of drawing that give the same bytes as the plain way, faster: the tests and the
/// benchmark turn each off to compare (`Renderer.setMergesLayers`, `setKeepsLayerTargets`).
struct DrawingSwitches: Sendable {
    /// Stroke layers that lie apart share their passes (`LayerGroups`); off, each is drawn alone.
    var mergesLayers = true
    /// Groups of resident layers that do not age keep their layer target from frame to frame
    /// (`KeptLayers`); off, it is drawn whole each frame.
    var keepsLayerTargets = true
}
