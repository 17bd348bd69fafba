extension Renderer {
    /// A new, empty layer of stamps drawn with `brush` (its texture cached by `brushKey`).
    package func makeLayer(brushKey: String, brush: Brush) -> LayerID {
        nextLayer += 1
        let id = LayerID(value: nextLayer)
        layers[id] = StampLayer(gl: device.gl, brush: BrushRef(key: brushKey, brush: brush))
        return id
    }

    /// Adds stamps to a layer, with their ages at frame 0 (`age = −birth frame`). They reach
    /// GL on the next frame that draws the layer.
    public func append(_ stamps: [SketchPoint], rotations: [Float]? = nil, to layer: LayerID) throws {
        guard let l = layers[layer] else { throw RenderError("\(layer) does not exist") }
        precondition(rotations == nil || rotations!.count == stamps.count, "one rotation a stamp")
        l.append(stamps, rotations: rotations)
    }

    /// Frees a layer and its GL buffers.
    public func removeLayer(_ layer: LayerID) {
        layers.removeValue(forKey: layer)?.delete(device.gl)
    }

    /// Frees each of `ids` (one trip to the render thread).
    package func removeLayers(_ ids: [LayerID]) {
        for id in ids { removeLayer(id) }
    }

    /// The layers this renderer holds.
    package var layerCount: Int { layers.count }

    /// True when every stamp of `layer` is dead at `frame` and later (with `maxAge` > 0):
    /// nothing it holds can be drawn again, so it can be removed.
    public func isSpent(_ layer: LayerID, at frame: Int, effects: AgeEffects) -> Bool {
        layers[layer]?.isSpent(at: Float(frame), effects: effects) ?? true
    }

    /// The stamps of `layers` live at `frame`, in draw order, ages as at that frame: what
    /// `.reuploadAges` uploads.
    public func liveStamps(_ ids: [LayerID], frame: Int, effects: AgeEffects) -> [SketchPoint] {
        ids.compactMap { layers[$0] }.flatMap { layer in
            LiveStamps.batch(batch(of: layer, at: Float(frame), effects: effects), atFrame: frame, effects: effects).stamps
        }
    }

    /// Draws `ids` in order at `frame` and returns the image.
    public func renderLayers(_ ids: [LayerID], canvas: Canvas, frame: Int,
                             settings: RenderSettings = RenderSettings()) throws -> Image {
        try renderLayers(ids, canvas: canvas, frame: frame, settings: settings, upload: .resident)
    }

    /// As above, with the way ages reach the GPU chosen (the benchmark measures both).
    package func renderLayers(_ ids: [LayerID], canvas: Canvas, frame: Int, settings: RenderSettings = RenderSettings(),
                              upload: UploadStrategy) throws -> Image {
        try drawLayers(ids, canvas: canvas, frame: frame, settings: settings, upload: upload)
        return Image(width: canvas.width, height: canvas.height, premultiplied: try readFrame())
    }

    /// As `renderLayers`, but the frame as read back: premultiplied RGBA, rows top to bottom
    /// (no un-premultiplying on the render thread).
    package func renderLayersPremultiplied(_ ids: [LayerID], canvas: Canvas, frame: Int,
                                           settings: RenderSettings = RenderSettings()) throws -> [UInt8] {
        try drawLayers(ids, canvas: canvas, frame: frame, settings: settings)
        return try readFrame()
    }

    /// Draws `ids` in order at `frame` without reading back.
    package func drawLayers(_ ids: [LayerID], canvas: Canvas, frame: Int, settings: RenderSettings = RenderSettings(),
                            upload: UploadStrategy = .resident) throws {
        let chosen = try resolve(ids, frame: frame, effects: settings.effects)
        if upload == .reuploadAges {
            // Every live stamp again, ages as at this frame, through the immediate path.
            let batches = chosen.map {
                LiveStamps.batch(batch(of: $0, at: Float(frame), effects: settings.effects), atFrame: frame,
                                 effects: settings.effects)
            }
            try drawImmediate(canvas: canvas, batches: batches, settings: settings, ageOffset: 0)
            return
        }
        let target = try beginFrame(canvas)
        try drawResident(chosen, canvas: canvas, frame: frame, settings: settings, into: target)
    }

    /// Plans and draws resident layers onto a bound target.
    /// `scissored`: drawing stays limited to the scissor set before; `within`, the box it
    /// limits drawing to, also leaves out the stamps that cannot touch it. `plain`: the
    /// caller ran the frame's passes and these layers are one run of plain ones. `only`: a
    /// window a layer, the stamps drawn cut to it.
    func drawResident(_ chosen: [StampLayer], canvas: Canvas, frame: Int, settings: RenderSettings,
                      into target: Framebuffer, scissored: Bool = false, within box: PixelBox? = nil,
                      plain: Bool = false, only windows: [Range<Int>]? = nil) throws {
        if !plain, FramePasses(modes: chosen.lazy.map(\.mode)).hasLayers {
            return try drawLayerPasses(chosen, canvas: canvas, frame: frame, settings: settings, into: target)
        }
        let f = Float(frame)
        plan.reset(settings: settings, ageOffset: f)
        for layer in chosen { layer.sync(device.gl) }
        var views = chosen.map { $0.view(at: f, effects: settings.effects) }
        if let box {
            for i in views.indices { views[i].window = views[i].window(touching: box, frame: f, effects: settings.effects) }
        }
        if let windows {
            for i in views.indices { views[i].window = views[i].window.clamped(to: windows[i]) }
        }
        planner(canvas, settings, f).planLayers(views, into: &plan)
        try device.draw(plan, layers: chosen.map(\.pointBuffers), into: target, scissored: scissored)
    }

    /// The layers named, moved forward to `frame` (their dead prefix dropped).
    func resolve(_ ids: [LayerID], frame: Int, effects: AgeEffects) throws -> [StampLayer] {
        try ids.map { id -> StampLayer in
            guard let l = layers[id] else { throw RenderError("\(id) does not exist") }
            l.advance(to: Float(frame), effects: effects)
            return l
        }
    }

    /// A layer's window at `frame` as a batch, ages at frame 0.
    private func batch(of layer: StampLayer, at frame: Float, effects: AgeEffects) -> StampBatch {
        let w = layer.window(at: frame, effects: effects)
        return StampBatch(brushKey: layer.brush.key, brush: layer.brush.brush, stamps: Array(layer.stamps[w]),
                          rotations: layer.rotations.map { Array($0[w]) })
    }
}
