/// Frames with stroke layers (docs/brush-modes.md): plain batches are drawn stamp by stamp
/// as always, a batch with a mode becomes a stroke layer that reads the canvas drawn so far.
extension Renderer {
    /// Draws `batches` onto `target` (filled already); returns each batch's edge reference
    /// as used (nil for batches without edges).
    @discardableResult
    func drawWithModes(_ batches: [StampBatch], canvas: Canvas, settings: RenderSettings, ageOffset: Float,
                       into target: Framebuffer) throws -> [EdgeReference?] {
        var references = [EdgeReference?](repeating: nil, count: batches.count)
        let planner = planner(canvas, settings, ageOffset)
        var i = 0
        while i < batches.count {
            var j = i
            while j < batches.count, batches[j].mode == nil { j += 1 }
            if j > i {
                // A run of plain batches: one plan, exactly as a frame without modes draws them.
                plan.reset(settings: settings, ageOffset: ageOffset)
                planner.planImmediate(Array(batches[i..<j]), into: &plan)
                try device.draw(plan, layers: [], into: target)
                i = j
                continue
            }
            let batch = batches[i]
            i += 1
            let mode = batch.mode!
            var reference = batch.edgeReference
            if mode.edgeTolerance != nil, reference == nil {
                guard batch.edgeAnchor != nil || !batch.stamps.isEmpty else { continue }
                reference = try referenceNow(batch, target: target, canvas: canvas)
            }
            references[i - 1] = reference
            let pass = batch.stamps.withUnsafeBufferPointer {
                StrokeLayerPass(mode: mode, stamps: $0, ageOffset: ageOffset, effects: settings.effects,
                                width: canvas.width, height: canvas.height, reference: reference)
            }
            guard let pass else { continue }
            plan.reset(settings: settings, ageOffset: ageOffset)
            var plain = batch
            plain.mode = nil
            planner.planImmediate([plain], into: &plan)
            try device.drawStrokeLayer(pass, stamps: plan, onto: target)
        }
        return references
    }

    /// Gives a layer a brush mode: frames then draw it as a stroke layer.
    public func setMode(_ mode: StrokeMode?, of layer: LayerID) {
        layers[layer]?.mode = mode
    }

    /// Resident layers when some have a mode: each layer's live window as a batch (ages at
    /// frame 0), drawn through the stroke-layer path. A layer keeps the edge reference it
    /// read the first time it was drawn (the frame its first sample was drawn live).
    func drawLayersWithModes(_ chosen: [StampLayer], canvas: Canvas, frame: Int, settings: RenderSettings,
                             into target: Framebuffer) throws {
        let f = Float(frame)
        var i = 0
        // Frames drawn into the frame target start from the newest snapshot whose layers are unchanged.
        let base = ModeSnapshots.Base(width: canvas.width, height: canvas.height, background: canvas.background,
                                      settings: settings)
        let keys = target === device.frameTarget
            ? ModeSnapshots.keys(chosen, frame: f, settings: settings, background: canvas.background) : nil
        if let keys {
            for t in modeSnapshots.removeAll(notSized: canvas.width, canvas.height) { device.deleteTarget(t) }
            if let (count, snapshot) = modeSnapshots.longest(base, keys) {
                try device.fill(target, with: .copy(snapshot))
                i = count
            }
        }
        func boundary(_ b: Int) throws {
            guard let keys, b > 0, b >= chosen.count - 2, !modeSnapshots.has(base, keys[..<b]) else { return }
            let snapshot = try modeSnapshots.keep(base, Array(keys[..<b])) {
                try device.makeTarget(width: target.width, height: target.height, guardBand: target.guardBand)
            }
            try device.fill(snapshot, with: .copy(target))
            device.bind(target)
        }
        while i < chosen.count {
            var j = i
            while j < chosen.count, chosen[j].mode == nil { j += 1 }
            if j > i {
                // Plain layers stay resident: drawn from their GL buffers, nothing uploaded again.
                device.bind(target)
                try drawResident(Array(chosen[i..<j]), canvas: canvas, frame: frame, settings: settings, into: target)
                i = j
                try boundary(i)
                continue
            }
            let layer = chosen[i]
            i += 1
            let w = layer.window(at: f, effects: settings.effects)
            var b = StampBatch(brushKey: layer.brush.key, brush: layer.brush.brush, stamps: Array(layer.stamps[w]),
                               rotations: layer.rotations.map { Array($0[w]) })
            b.mode = layer.mode
            b.edgeReference = layer.edgeReference
            if layer.mode?.edgeTolerance != nil, let first = layer.stamps.first {
                b.edgeAnchor = EdgeAnchor(x: first.x, y: first.y, frame: Int(-first.age), entry: 0)
            }
            let r = try drawWithModes([b], canvas: canvas, settings: settings, ageOffset: f, into: target)[0]
            // Kept once the first stamp is born: read before, it would be the canvas without it.
            if layer.edgeReference == nil, r != nil, let first = layer.stamps.first, first.age + f >= 0 {
                layer.edgeReference = r
            }
            try boundary(i)
        }
    }

    /// Forgets the snapshots of frames with stroke layers and frees their targets.
    func forgetModeSnapshots() {
        for t in modeSnapshots.removeAll() { device.deleteTarget(t) }
    }

    /// The edge reference read from the canvas as drawn so far in this frame: right when the
    /// stroke's first sample is born at this frame (and for batches that name no anchor).
    private func referenceNow(_ batch: StampBatch, target: Framebuffer, canvas: Canvas) throws -> EdgeReference {
        let anchor = batch.edgeAnchor ?? batch.stamps.first.map { EdgeAnchor(x: $0.x, y: $0.y, frame: 0, entry: 0) }
        guard let pixel = anchor?.pixel(width: canvas.width, height: canvas.height) else { return .offCanvas }
        let p = try device.readPixel(target, x: pixel.x, y: pixel.y)
        return .color(p[0], p[1], p[2], p[3])
    }

    /// The scene's batches at `frame`, each "detect edges" stroke born before `frame` given
    /// its reference: the pixel under its first sample in the canvas drawn up to it at the
    /// frame it was born (rendered again here, from the scene).
    func edgeResolvedBatches(_ scene: Scene, atFrame frame: Int, primitive: Primitive = .points) throws -> [StampBatch] {
        var batches = scene.batches(atFrame: frame)
        for i in batches.indices where batches[i].mode?.edgeTolerance != nil && batches[i].edgeReference == nil {
            guard let anchor = batches[i].edgeAnchor else { continue }
            let birth = anchor.frame - scene.session.startFrame
            guard birth < frame else { continue }  // born now: read while the frame is drawn
            guard let pixel = anchor.pixel(width: scene.canvas.width, height: scene.canvas.height) else {
                batches[i].edgeReference = .offCanvas
                continue
            }
            let then = try edgeResolvedBatches(scene, atFrame: birth, primitive: primitive)
            guard let at = then.firstIndex(where: { $0.edgeAnchor?.entry == anchor.entry }) else { continue }
            let settings = RenderSettings(effects: scene.effects, primitive: primitive)
            try drawImmediate(canvas: scene.canvas, batches: Array(then[..<at]), settings: settings)
            guard let target = device.frameTarget else { continue }
            let p = try device.readPixel(target, x: pixel.x, y: pixel.y)
            batches[i].edgeReference = .color(p[0], p[1], p[2], p[3])
        }
        return batches
    }
}
