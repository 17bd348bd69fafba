/// The short ways into a live canvas: one that opens its own renderer, strokes whose brush
/// needs no cache key (`Brush.contentKey` names it), and samples in `Double`.
///
///     let canvas = try LiveCanvas(width: 320, height: 240, background: "#101014")
///     let stroke = await canvas.beginStroke(color: "#ff3b30", radius: 6)
///     try await canvas.add(x: 40, y: 120, t: 0, to: stroke)
extension LiveCanvas {
    /// A canvas on a renderer of its own (EGL opened on `platform`): `width`×`height`
    /// pixels over `background`, stamps living `maxAge` frames (0: never aging).
    public init(width: Int, height: Int, background: Color = .transparent, maxAge: Float = 0,
                dissolveDistance: Float = 6, pointScale: Float = 1, primitive: Primitive = .points,
                fps: Double = 30, seed: UInt64 = 0, platform: EGLPlatform = .automatic) throws {
        let effects = AgeEffects(maxAge: maxAge, dissolveDistance: dissolveDistance, pointScale: pointScale)
        self.init(renderer: try Renderer(platform: platform),
                  canvas: Canvas(width: width, height: height, background: .color(background)),
                  settings: RenderSettings(effects: effects, primitive: primitive), fps: fps, seed: seed)
    }

    /// A canvas on a renderer of its own, for a `Canvas` and settings already made.
    public init(canvas: Canvas, settings: RenderSettings = RenderSettings(), fps: Double = 30,
                seed: UInt64 = 0) throws {
        self.init(renderer: try Renderer(), canvas: canvas, settings: settings, fps: fps, seed: seed)
    }

    /// As above, with the way ages reach the GPU chosen (the benchmark measures both).
    package init(canvas: Canvas, settings: RenderSettings = RenderSettings(), fps: Double = 30,
                 seed: UInt64 = 0, upload: UploadStrategy) throws {
        self.init(renderer: try Renderer(), canvas: canvas, settings: settings, fps: fps, seed: seed,
                  upload: upload)
    }

    /// Opens a stroke drawn with `brush` on top of everything so far; the renderer keeps one
    /// texture for equal brushes (keyed by `brush.contentKey`).
    public func beginStroke(brush: Brush = .builtin(.softRound), style: StrokeStyle) async -> StrokeID {
        await beginStroke(brushKey: brush.contentKey, brush: brush, style: style)
    }

    /// Opens a stroke in `color`, `radius` pixels at full pressure, other options at their
    /// defaults (`StrokeStyle`), drawn with `brush` (soft-round unless given).
    public func beginStroke(color: Color, radius: Float, brush: Brush = .builtin(.softRound)) async -> StrokeID {
        await beginStroke(brush: brush, style: StrokeStyle(color: color, radius: radius))
    }

    /// Adds a touch sample at (`x`, `y`) canvas pixels, `t` seconds, with an optional
    /// pressure 0…1; returns how many stamps it made.
    @discardableResult
    public func add(x: Double, y: Double, t: Double, pressure: Double? = nil, to id: StrokeID) async throws -> Int {
        try await add(TouchSample(x: Float(x), y: Float(y), t: t, pressure: pressure.map(Float.init)), to: id)
    }
}
