/// A canvas for a program that receives touches as they happen: open a stroke, add
/// samples as they arrive, end it, tick the clock, render frames.
///
/// Stroke geometry is built here as samples arrive (`StrokeBuilder`: the newest sample is
/// covered at once); the stamps go to the renderer's resident layers, one layer a stroke,
/// so a frame uploads only the stamps that are new since the last one. Render requests
/// that arrive while a frame is being drawn coalesce: they all receive the next frame,
/// drawn once from the newest state (Photoshop on the iPad did the same with its
/// high-frequency requests).
///
/// A canvas is also a drawing session (docs/reference.md §12, docs/sessions.md): `undo`, `redo` and
/// `clear` over the newest strokes, kept as data up to `UndoLimits`; older strokes are baked
/// into a backing layer a few at a time per frame; `save(to:)` writes a script and
/// `LiveCanvas(loading:renderer:)` opens one (LiveCanvas+Session.swift and the files beside it).
public actor LiveCanvas {
    /// The renderer that draws this canvas (it may draw other canvases too).
    public nonisolated let renderer: Renderer
    /// The canvas's size and background.
    public nonisolated let canvas: Canvas
    /// Age effects and primitive every frame is drawn with.
    public nonisolated let settings: RenderSettings
    /// Frames a second of the canvas's clock: touch times become frames at this rate.
    public nonisolated let fps: Double
    /// Seeds each stroke's dissolve angles (with the stroke's number), so a drawing repeats exactly.
    public nonisolated let seed: UInt64
    package let upload: UploadStrategy

    /// A stroke opened on this canvas, to add samples to and end.
    public struct StrokeID: Hashable, Sendable { let index: Int }

    struct OpenStroke {
        var builder: StrokeBuilder
        var layer: LayerID
    }
    var strokes: [StrokeID: OpenStroke] = [:]
    var strokeCount = 0
    /// Undo, redo, the kept strokes and the backing layer (LiveCanvas+Session.swift).
    var session: SessionState
    /// The frame the next render shows.
    public internal(set) var frame = 0

    /// Frames actually drawn, and render requests that were served by a frame drawn for
    /// another request.
    public private(set) var framesRendered = 0
    /// Render requests answered by a frame drawn for another request.
    public private(set) var requestsCoalesced = 0

    /// The bake running now (LiveCanvas+Session.swift): a frame's, a clear's or `bakeAll`'s
    /// wait for it, or they would each take the same strokes.
    var bakeInFlight: Task<Void, Error>?

    private var inFlight: Task<Image, Error>?
    private var queued: Task<Image, Error>?

    /// A canvas drawn by `renderer`, its clock at `fps`, its strokes' jitter seeded by `seed`,
    /// keeping up to `limits` undo steps as data.
    public init(renderer: Renderer, canvas: Canvas, settings: RenderSettings = RenderSettings(),
                fps: Double = 30, seed: UInt64 = 0, undo limits: UndoLimits = UndoLimits()) {
        self.init(renderer: renderer, canvas: canvas, settings: settings, fps: fps, seed: seed,
                  upload: .resident, undo: limits)
    }

    /// As the public initialiser, with the way ages reach the GPU chosen (the benchmark
    /// measures both).
    package init(renderer: Renderer, canvas: Canvas, settings: RenderSettings = RenderSettings(),
                 fps: Double = 30, seed: UInt64 = 0, upload: UploadStrategy,
                 undo limits: UndoLimits = UndoLimits()) {
        self.renderer = renderer; self.canvas = canvas; self.settings = settings
        self.fps = fps; self.seed = seed; self.upload = upload
        session = SessionState(limits: limits)
    }

    /// What the canvas holds on its renderer when it goes is freed there: a renderer outlives
    /// the canvases it draws, and a program that opens many keeps only the living ones'.
    deinit {
        let (layers, surfaces) = LiveCanvas.held(session, strokes)
        guard !layers.isEmpty || !surfaces.isEmpty else { return }
        Task { [renderer] in await renderer.release(layers: layers, surfaces: surfaces) }
    }

    /// Frees what the canvas holds on its renderer (a layer a kept stroke, the backing
    /// layers) before the canvas goes, at once rather than when it is freed. The canvas is
    /// then empty, with nothing to undo or redo, as if new; strokes still open are dropped.
    /// Its clock is kept. A render or save of the canvas still running may fail.
    public func close() async {
        let (layers, surfaces) = LiveCanvas.held(session, strokes)
        strokes.removeAll()
        // A save still reading keeps its hold on baking; a bake still drawing stops.
        var fresh = SessionState(limits: session.limits)
        fresh.bakeHolds = session.bakeHolds
        fresh.generation = session.generation + 1
        session = fresh
        await renderer.release(layers: layers, surfaces: surfaces)
    }

    /// The layers and surfaces this canvas made on its renderer and still holds.
    private static func held(_ session: SessionState, _ strokes: [StrokeID: OpenStroke])
        -> (layers: [LayerID], surfaces: [SurfaceID]) {
        let layers = Set(session.kept.values.compactMap(\.layer)).union(strokes.values.map(\.layer))
        return (Array(layers), session.backings.values.compactMap(\.surface))
    }

    /// Opens a stroke drawn with `brush` (cached by `brushKey`) on top of everything so far.
    /// A new stroke empties the redo list; the oldest undo step may fall off the undo depth.
    package func beginStroke(brushKey: String, brush: Brush, style: StrokeStyle) async -> StrokeID {
        await beginStroke(brushKey: brushKey, brush: brush, style: style, seedIndex: strokeCount)
    }

    /// As above, with the stroke's place for its random choices given (a loaded drawing keeps its own).
    func beginStroke(brushKey: String, brush: Brush, style: StrokeStyle, seedIndex: Int) async -> StrokeID {
        let id = StrokeID(index: strokeCount)
        let layer = await renderer.makeLayer(brushKey: brushKey, brush: brush)
        if let mode = style.mode { await renderer.setMode(mode, of: layer) }
        strokes[id] = OpenStroke(builder: StrokeBuilder(style: style, fps: fps, seed: seed, strokeIndex: seedIndex),
                                 layer: layer)
        strokeCount = max(strokeCount, seedIndex) + 1
        await sessionBegan(id, layer: layer, brushKey: brushKey, brush: brush, style: style, seedIndex: seedIndex)
        return id
    }

    /// Adds a touch sample to an open stroke; returns how many stamps it made.
    @discardableResult
    public func add(_ sample: TouchSample, to id: StrokeID) async throws -> Int {
        guard var stroke = strokes[id] else { throw RenderError("stroke \(id.index) is not open") }
        let stamps = stroke.builder.add(sample)
        strokes[id] = stroke
        session.record(sample, stamps: stamps, of: id.index)
        try await send(stamps, to: stroke.layer)
        return stamps.count
    }

    /// Ends a stroke: its last stamp lands exactly on its last sample.
    public func endStroke(_ id: StrokeID) async throws {
        guard var stroke = strokes.removeValue(forKey: id) else { throw RenderError("stroke \(id.index) is not open") }
        let closing = stroke.builder.end()
        session.record(nil, stamps: closing, of: id.index)
        try await send(closing, to: stroke.layer)
        await sessionEnded(id)
    }

    private func send(_ stamps: [Stamp], to layer: LayerID) async throws {
        guard !stamps.isEmpty else { return }
        let rotations = stamps.contains { $0.rotation != 0 } ? stamps.map(\.rotation) : nil
        try await renderer.append(stamps.map(\.point), rotations: rotations, to: layer)
    }

    /// Moves the clock forward (time never goes back on a live canvas).
    public func tick(_ frames: Int = 1) {
        precondition(frames >= 0, "a live canvas's clock does not go back")
        frame += frames
    }

    /// The frame as it stands now. Requests made while a frame is being drawn share the
    /// next frame, which is drawn once, from the newest state.
    public func render() async throws -> Image {
        if let queued {
            requestsCoalesced += 1
            return try await queued.value
        }
        if let running = inFlight {
            let task = Task { () async throws -> Image in
                _ = try? await running.value
                return try await self.drawQueued()
            }
            queued = task
            return try await task.value
        }
        let task = Task { () async throws -> Image in try await self.drawNow() }
        inFlight = task
        defer { if inFlight == task { inFlight = nil } }
        return try await task.value
    }

    private func drawQueued() async throws -> Image {
        inFlight = queued
        queued = nil
        let mine = inFlight
        defer { if inFlight == mine { inFlight = nil } }
        return try await drawNow()
    }

    private func drawNow() async throws -> Image {
        framesRendered += 1
        try await bakeSlice()
        return try await renderer.renderLayers(drawOrder, canvas: frameCanvas, frame: frame, settings: settings,
                                               upload: upload)
    }

    /// The live stamps at the current frame, in draw order, ages as at this frame.
    public func liveStamps() async -> [SketchPoint] {
        await renderer.liveStamps(drawOrder, frame: frame, effects: settings.effects)
    }
}
