/// Frames with stroke layers (docs/brush-modes.md): plain batches are drawn stamp by stamp
/// as always, a batch with a mode becomes a stroke layer that reads the canvas drawn so far.
extension Renderer {
    /// Runs the frame's passes (`FramePasses`) for `batches` onto `target` (filled already):
    /// a run of plain batches as one plan, exactly as a frame without modes draws them; stroke
    /// layers through the mode passes, those that lie apart sharing them (`LayerGroups`).
    /// `exact`: the pixels whose result must be right (a tile and the cone of reads around
    /// it); the layers compute nothing else. `owners`: for each batch, the object whose first
    /// stamps it is when they only ever grow (a resident layer that does not age), so a group
    /// of such layers keeps its layer target from frame to frame and draws only new stamps.
    /// Returns each batch's edge reference as used (nil for batches without edges).
    @discardableResult
    func drawPasses(_ batches: [StampBatch], canvas: Canvas, settings: RenderSettings, ageOffset: Float,
                    into target: Framebuffer, exact: PixelBox? = nil, owners: [AnyObject?]? = nil) throws -> [EdgeReference?] {
        var references = [EdgeReference?](repeating: nil, count: batches.count)
        let planner = planner(canvas, settings, ageOffset)
        // Stroke layers not drawn yet: a run that no plain entry or edges stroke breaks.
        var pending: [(batch: Int, pass: StrokeLayerPass)] = []
        var zones: [LayerZone] = []
        func owned(_ members: [(batch: Int, pass: StrokeLayerPass)]) -> [AnyObject] {
            switches.keepsLayerTargets && exact == nil ? members.compactMap { owners?[$0.batch] ?? nil } : []
        }
        func planAlone(_ members: [(batch: Int, pass: StrokeLayerPass)]) {
            plan.reset(settings: settings, ageOffset: ageOffset)
            planner.planImmediate(members.map { var plain = batches[$0.batch]; plain.mode = nil; return plain }, into: &plan)
        }
        func drawLayers(_ members: [(batch: Int, pass: StrokeLayerPass)]) throws {
            let owned = owned(members)
            let counts = members.map { batches[$0.batch].stamps.count }
            if !owned.isEmpty, owned.count == members.count,
               let (kept, held) = try device.modes.keptLayers.take(owners: owned, counts: counts, settings: settings,
                                                                  like: target) {
                plan.reset(settings: settings, ageOffset: ageOffset)
                planner.planImmediate(zip(members, held).map { m, h in
                    var new = batches[m.batch]
                    new.mode = nil
                    new.stamps = Array(new.stamps[h...])
                    new.rotations = new.rotations.map { Array($0[h...]) }
                    return new
                }, into: &plan)
                do {
                    try device.drawStrokeLayers(members.map(\.pass), stamps: plan, onto: target, kept: kept)
                } catch {
                    device.modes.keptLayers.discard(kept)
                    throw error
                }
                device.modes.keptLayers.keep(kept, owners: owned, counts: counts)
                return
            }
            planAlone(members)
            try device.drawStrokeLayers(members.map(\.pass), stamps: plan, onto: target)
        }
        // Groups drawn in turn whose layer targets are not kept: their stamps go into the
        // atlas's slots in one go, then each group meets the canvas.
        func drawRun(_ run: [[(batch: Int, pass: StrokeLayerPass)]]) throws {
            var start = 0
            while start < run.count {
                let slots = try device.modes.atlas.prepare(groups: run.count - start, like: target)
                let chunk = run[start..<min(run.count, start + slots)]
                for (slot, members) in chunk.enumerated() {
                    planAlone(members)
                    try device.drawLayer(members.map(\.pass), stamps: plan, slot: slot, like: target)
                }
                for (slot, members) in chunk.enumerated() {
                    try device.composeStrokeLayers(members.map(\.pass), slot: slot, onto: target)
                }
                start += chunk.count
            }
        }
        func drawPending() throws {
            guard !pending.isEmpty else { return }
            let groups = switches.mergesLayers
                ? LayerGroups.schedule(zones, modes: pending.map { LayerGroups.Key($0.pass) })
                : pending.indices.map { [$0] }
            var run: [[(batch: Int, pass: StrokeLayerPass)]] = []
            for group in groups {
                let members = group.map { pending[$0] }
                if owned(members).count == members.count {
                    try drawRun(run)
                    run.removeAll()
                    try drawLayers(members)
                } else {
                    run.append(members)
                }
            }
            try drawRun(run)
            pending.removeAll(keepingCapacity: true)
            zones.removeAll(keepingCapacity: true)
        }
        for pass in FramePasses(batches).passes {
            switch pass {
            case let .stamps(range):
                try drawPending()
                plan.reset(settings: settings, ageOffset: ageOffset)
                planner.planImmediate(range.count == batches.count ? batches : Array(batches[range]), into: &plan)
                try device.draw(plan, layers: [], into: target)
            case let .layer(i, mode):
                let batch = batches[i]
                var reference = batch.edgeReference
                // A reference not known yet is read from the canvas drawn so far: every layer
                // before it drawn first, and it shares no passes.
                let readsNow = mode.edgeTolerance != nil && reference == nil
                if readsNow {
                    try drawPending()
                    guard batch.edgeAnchor != nil || !batch.stamps.isEmpty else { continue }
                    reference = try referenceNow(batch, target: target, canvas: canvas)
                }
                references[i] = reference
                // The live stamps' squares, once: the pass, its cover and its zone all start from them.
                let squares = batch.stamps.withUnsafeBufferPointer {
                    StrokeLayerPass.squares($0, ageOffset: ageOffset, effects: settings.effects)
                }
                guard var layerPass = StrokeLayerPass(mode: mode, squares: squares, width: canvas.width,
                                                      height: canvas.height, reference: reference) else { continue }
                // A layer that changes no pixel that must be exact changes nothing a later layer
                // reads into them either (`exact` holds the cone of reads): it is left out.
                if let exact, layerPass.region.intersection(exact).isEmpty { continue }
                layerPass.exact = exact
                layerPass.findCover(squares)
                if readsNow {
                    try drawLayers([(i, layerPass)])
                } else {
                    pending.append((i, layerPass))
                    if switches.mergesLayers {
                        zones.append(StrokeLayerPass.zone(mode: mode, squares: squares, width: canvas.width,
                                                          height: canvas.height))
                    }
                }
            }
        }
        try drawPending()
        return references
    }

    /// Gives a layer a brush mode: frames then draw it as a stroke layer.
    public func setMode(_ mode: StrokeMode?, of layer: LayerID) {
        layers[layer]?.mode = mode
    }

    /// Resident layers when some are stroke layers: plain runs drawn from their buffers, each
    /// stroke layer's live window as a batch (ages at frame 0) through the mode passes. A
    /// layer's edge reference is the scene's (`presetEdgeReferences`) from its birth frame on;
    /// a layer without one keeps the reference it read the first time it was drawn born.
    func drawLayerPasses(_ chosen: [StampLayer], canvas: Canvas, frame: Int, settings: RenderSettings,
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
        // Consecutive stroke layers are drawn in one call, to share their passes.
        var run: [(layer: StampLayer, batch: StampBatch, grows: Bool)] = []
        func drawRun() throws {
            guard !run.isEmpty else { return }
            let owners: [AnyObject?] = run.map { $0.grows ? $0.layer : nil }
            let references = try drawPasses(run.map(\.batch), canvas: canvas, settings: settings, ageOffset: f,
                                            into: target, owners: owners)
            for ((layer, _, _), r) in zip(run, references) {
                // Kept once the first stamp is born: read before, it would be the canvas without it.
                if layer.edgeReference == nil, r != nil, let first = layer.stamps.first, first.age + f >= 0 {
                    layer.edgeReference = r
                }
            }
            run.removeAll()
            try boundary(i)
        }
        for pass in FramePasses(modes: chosen.lazy.map(\.mode)).passes {
            switch pass {
            case let .stamps(range):
                guard range.upperBound > i else { continue }
                try drawRun()
                // Plain layers stay resident: drawn from their GL buffers, nothing uploaded again.
                device.bind(target)
                try drawResident(Array(chosen[max(i, range.lowerBound)..<range.upperBound]), canvas: canvas,
                                 frame: frame, settings: settings, into: target, plain: true)
                i = range.upperBound
                try boundary(i)
            case let .layer(index, mode):
                guard index >= i else { continue }
                let layer = chosen[index]
                i = index + 1
                let w = layer.window(at: f, effects: settings.effects)
                var b = StampBatch(brushKey: layer.brush.key, brush: layer.brush.brush, stamps: Array(layer.stamps[w]),
                                   rotations: layer.rotations.map { Array($0[w]) })
                b.mode = mode
                b.edgeReference = layer.edgeReference(at: f)
                if mode.edgeTolerance != nil, let first = layer.stamps.first {
                    b.edgeAnchor = EdgeAnchor(x: first.x, y: first.y, frame: EdgeAnchor.birthFrame(age: first.age), entry: 0)
                }
                // A layer that does not age, its stamps born in order, only grows: the stamps drawn
                // are its first ones, and its layer target can be kept (`drawPasses`).
                run.append((layer, b, layer.onlyGrows(window: w, effects: settings.effects)))
                // The last layers end where snapshots are kept.
                if keys != nil, i >= chosen.count - 2 { try drawRun() }
            }
        }
        try drawRun()
    }

    /// Forgets the snapshots of frames with stroke layers and frees their targets.
    func forgetModeSnapshots() {
        for t in modeSnapshots.removeAll() { device.deleteTarget(t) }
    }

    /// The edge reference read from the canvas as drawn so far in this frame: right when the
    /// stroke's first sample is born at this frame (and for batches that name no anchor).
    func referenceNow(_ batch: StampBatch, target: Framebuffer, canvas: Canvas) throws -> EdgeReference {
        let anchor = batch.edgeAnchor ?? batch.stamps.first.map { EdgeAnchor(x: $0.x, y: $0.y, frame: 0, entry: 0) }
        guard let pixel = anchor?.pixel(width: canvas.width, height: canvas.height) else { return .offCanvas }
        let p = try device.readPixel(target, x: pixel.x, y: pixel.y)
        return .color(p[0], p[1], p[2], p[3])
    }
}
