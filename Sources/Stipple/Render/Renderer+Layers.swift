import CStipple

extension Renderer {
    /// A new, empty layer of stamps drawn with `brush` (cached by `brushKey`).
    public func makeLayer(brushKey: String, brush: Brush) -> LayerID {
        nextLayer += 1
        let id = LayerID(value: nextLayer)
        layers[id] = StampLayer(gl: gl, brushKey: brushKey, brush: brush)
        return id
    }

    /// Adds stamps to a layer, with their ages at frame 0 (`age = −birth frame`). They reach
    /// GL on the next frame that draws the layer.
    public func append(_ stamps: [SketchPoint], rotations: [Float]? = nil, to layer: LayerID) throws {
        guard let l = layers[layer] else { throw RenderError("\(layer) does not exist") }
        precondition(rotations == nil || rotations!.count == stamps.count, "one rotation a stamp")
        l.append(stamps, rotations: rotations)
    }

    public func removeLayer(_ layer: LayerID) {
        layers.removeValue(forKey: layer)?.delete(gl)
    }

    /// The stamps of `layers` live at `frame`, in draw order, ages as at that frame: what
    /// `.reuploadAges` uploads.
    public func liveStamps(_ ids: [LayerID], frame: Int, effects: AgeEffects) -> [SketchPoint] {
        let f = Float(frame)
        return ids.compactMap { layers[$0] }.flatMap { layer in
            layer.stamps[layer.window(at: f)].compactMap { p -> SketchPoint? in
                var q = p
                q.age += f
                return effects.isLive(age: q.age) ? q : nil
            }
        }
    }

    /// Draws `ids` in order at `frame` and returns the image.
    public func renderLayers(_ ids: [LayerID], canvas: Canvas, frame: Int, settings: RenderSettings = RenderSettings(),
                             upload: UploadStrategy = .resident) throws -> Image {
        try drawLayers(ids, canvas: canvas, frame: frame, settings: settings, upload: upload)
        return Image(width: canvas.width, height: canvas.height, premultiplied: try readFrame())
    }

    /// Draws `ids` in order at `frame` without reading back.
    public func drawLayers(_ ids: [LayerID], canvas: Canvas, frame: Int, settings: RenderSettings = RenderSettings(),
                           upload: UploadStrategy = .resident) throws {
        let chosen = try ids.map { id -> StampLayer in
            guard let l = layers[id] else { throw RenderError("\(id) does not exist") }
            return l
        }
        let f = Float(frame)
        for layer in chosen { layer.advance(to: f, effects: settings.effects) }

        if upload == .reuploadAges {
            // Every live stamp again, ages as at this frame, through the immediate path.
            let batches = chosen.map { layer -> StampBatch in
                let window = layer.window(at: f)
                var stamps: [SketchPoint] = [], rotations: [Float]? = layer.rotations == nil ? nil : []
                stamps.reserveCapacity(window.count)
                for i in window {
                    var q = layer.stamps[i]
                    q.age += f
                    guard settings.effects.isLive(age: q.age) else { continue }
                    stamps.append(q)
                    rotations?.append(layer.rotations![i])
                }
                return StampBatch(brushKey: layer.brushKey, brush: layer.brush, stamps: stamps, rotations: rotations)
            }
            try drawImmediate(canvas: canvas, batches: batches, settings: settings, ageOffset: 0)
            return
        }

        try prepareCanvas(canvas)
        let planner = planner(canvas, settings, f)
        quadVertices.removeAll(keepingCapacity: true)
        runs.removeAll(keepingCapacity: true)
        var sources: [PointSource] = []
        for (index, layer) in chosen.enumerated() {
            layer.sync(gl)
            sources.append(PointSource(stamps: layer.buffer, rotations: layer.rotations == nil ? nil : layer.rotationBuffer))
            let window = layer.window(at: f)
            if planner.pointsSuffice(for: layer.bounds) {
                // Nothing in this layer can need a quad: one draw, no look at the stamps.
                planner.planAllPoints(batch: index, source: index, first: window.lowerBound, count: window.count, runs: &runs)
            } else {
                layer.stamps.withUnsafeBufferPointer { all in
                    let slice = UnsafeBufferPointer(rebasing: all[window])
                    if let rotations = layer.rotations {
                        rotations.withUnsafeBufferPointer { rot in
                            planner.plan(batch: index, source: index, stamps: slice,
                                         rotations: UnsafeBufferPointer(rebasing: rot[window]),
                                         bufferBase: window.lowerBound, keepCulledInRuns: true,
                                         quads: &quadVertices, runs: &runs)
                        }
                    } else {
                        planner.plan(batch: index, source: index, stamps: slice, rotations: nil,
                                     bufferBase: window.lowerBound, keepCulledInRuns: true,
                                     quads: &quadVertices, runs: &runs)
                    }
                }
            }
        }
        try drawRuns(canvas: canvas, settings: settings, ageOffset: f, sources: sources,
                     brushCount: chosen.count, brush: { (chosen[$0].brushKey, chosen[$0].brush) })
    }
}
