/// "Detect edges" references of a scene (docs/brush-modes.md): a stroke's reference is the
/// canvas pixel under its first sample, as the canvas is just before the stroke at the frame
/// that sample is born, kept for the stroke's life. Every path that draws a scene on its own
/// canvas — one pass, tiles, `--frames` and its shards, videos — takes references from here,
/// so where a run starts never shows. A bake's canvas is the video frame, which no scene
/// holds: it reads the reference from the frame it draws at the same read frame
/// (`Scene.edgeReadFrame`, `Scene.edgeBirthFrames`).
///
/// References are found in birth order and kept in the scene's table
/// (`EdgeReferenceTable`, as long as the scene lives): the canvas before stroke i at its birth
/// frame holds only strokes drawn before it, whose references are found first (once each).
/// A reference is read by drawing that one pixel — a 1 × 1 tile with its apron — so the
/// cost grows with the number of "detect edges" strokes, not exponentially, and a canvas of
/// any size can be read.
extension Renderer {
    /// The scene's batches at render frame `frame` as that frame draws them: each "detect
    /// edges" stroke with its reference (a prefix of them draws what the frame draws so far).
    package func resolvedBatches(_ scene: Scene, atFrame frame: Int, primitive: Primitive = .points) throws -> [StampBatch] {
        var batches = scene.batches(atFrame: frame)
        for i in batches.indices where batches[i].mode?.edgeTolerance != nil && batches[i].edgeReference == nil {
            guard let anchor = batches[i].edgeAnchor else { continue }
            batches[i].edgeReference = try edgeReference(scene, anchor, seenAt: frame, primitive: primitive)
        }
        return batches
    }

    /// The reference of the stroke at `anchor` as drawn at render frame `frame`: read at its
    /// read frame (`Scene.edgeReadFrame`) when that has come, else at `frame` (a `stamps`
    /// entry whose first stamp is born after others).
    func edgeReference(_ scene: Scene, _ anchor: EdgeAnchor, seenAt frame: Int,
                       primitive: Primitive) throws -> EdgeReference {
        let read = scene.edgeReadFrame(anchor)
        let at = read <= frame ? read : frame
        let table = scene.edgeReferences
        let driver = info.glRenderer + (device.modes.blursOnCPU ? ", blurs on the CPU" : "")
        let key = EdgeReferenceTable.Key(entry: anchor.entry, frame: at, primitive: primitive, driver: driver)
        if let known = table[key] { return known }
        guard let pixel = anchor.pixel(width: scene.canvas.width, height: scene.canvas.height) else {
            table[key] = .offCanvas
            return .offCanvas
        }
        // The canvas just before the stroke at that frame: the entries shown then that come
        // before it in the script, their own references found first.
        let state = scene.state(atFrame: at)
        var before = zip(state.entries, scene.batches(atFrame: at)).filter { $0.0 < anchor.entry }.map(\.1)
        for j in before.indices where before[j].mode?.edgeTolerance != nil && before[j].edgeReference == nil {
            guard let earlier = before[j].edgeAnchor else { continue }
            before[j].edgeReference = try edgeReference(scene, earlier, seenAt: at, primitive: primitive)
        }
        let p = try canvasPixel(scene.canvas, before, effects: scene.effects, primitive: primitive, x: pixel.x, y: pixel.y)
        let reference = EdgeReference.color(p[0], p[1], p[2], p[3])
        table[key] = reference
        return reference
    }

    /// Gives the scene's resident layers (`Scene.makeLayers`, same order) their "detect
    /// edges" references from the scene, each holding from the frame it is read at.
    package func presetEdgeReferences(_ scene: Scene, layers: [LayerID], primitive: Primitive = .points) throws {
        for (batch, id) in zip(scene.batches, layers) where batch.mode?.edgeTolerance != nil {
            guard let anchor = batch.edgeAnchor, let layer = self.layers[id] else { continue }
            let read = scene.edgeReadFrame(anchor)
            layer.edgeReference = try edgeReference(scene, anchor, seenAt: read, primitive: primitive)
            layer.edgeReferenceFrom = Float(read + scene.session.startFrame)
        }
    }

    /// Pixel (`x`, `y`) of `canvas` with `batches` drawn (ages as given), premultiplied
    /// 8-bit: a 1 × 1 tile with the apron its passes need there.
    func canvasPixel(_ canvas: Canvas, _ batches: [StampBatch], effects: AgeEffects, primitive: Primitive,
                     x: Int, y: Int) throws -> [UInt8] {
        let settings = RenderSettings(effects: effects, primitive: primitive)
        let rect = TileRect(x: x, y: y, width: 1, height: 1)
        let cone = PassReaches(batches, settings: settings, ageOffset: 0, canvas: canvas).cone(rect.box)
        let apron = apron(for: batches, effects: effects, cone: cone)
        let target = try device.beginTile(width: 1, height: 1, apron: apron, originX: x, originY: y,
                                          fill: try tileFill(canvas, rect, apron: apron))
        defer { device.endTiles() }
        try drawPasses(batches, canvas: canvas, settings: settings, ageOffset: 0, into: target,
                       exact: rect.box.grown(x: cone, y: cone))
        return try device.readPixel(target, x: x, y: y)
    }
}
