/// "Detect edges" on tiled canvases: a stroke's reference is the canvas pixel under its
/// first sample, drawn up to the stroke at the frame the sample is born. A tile cannot read
/// it (the pixel may lie in another tile), so every reference is found before the tiles are
/// drawn, by drawing that one pixel — a 1 × 1 tile with its apron — of the earlier canvas.
extension Renderer {
    /// `scene` at `frame` planned in tiles (`tile`, or the driver's size), every edge
    /// reference resolved.
    package func planTiles(_ scene: Scene, frame: Int, primitive: Primitive = .points, tile: Int? = nil) throws -> TiledFrame {
        let batches = try tiledEdgeResolvedBatches(scene, atFrame: frame, primitive: primitive)
        return try planTiles(canvas: scene.canvas, batches: batches,
                             settings: RenderSettings(effects: scene.effects, primitive: primitive), tile: tile)
    }

    /// The scene's batches at `frame`, each "detect edges" stroke given its reference.
    func tiledEdgeResolvedBatches(_ scene: Scene, atFrame frame: Int, primitive: Primitive) throws -> [StampBatch] {
        var batches = scene.batches(atFrame: frame)
        for i in batches.indices where batches[i].mode?.edgeTolerance != nil && batches[i].edgeReference == nil {
            let anchor = batches[i].edgeAnchor
                ?? batches[i].stamps.first.map { EdgeAnchor(x: $0.x, y: $0.y, frame: frame + scene.session.startFrame, entry: -1) }
            guard let anchor else { continue }
            guard let pixel = anchor.pixel(width: scene.canvas.width, height: scene.canvas.height) else {
                batches[i].edgeReference = .offCanvas
                continue
            }
            let birth = anchor.frame - scene.session.startFrame
            // The entries drawn before this one at its birth frame (this frame's when born now).
            let before: [StampBatch]
            if birth < frame, anchor.entry >= 0 {
                let then = try tiledEdgeResolvedBatches(scene, atFrame: birth, primitive: primitive)
                guard let at = then.firstIndex(where: { $0.edgeAnchor?.entry == anchor.entry }) else { continue }
                before = Array(then[..<at])
            } else {
                before = Array(batches[..<i])
            }
            let p = try canvasPixel(scene.canvas, before, effects: scene.effects, primitive: primitive,
                                    x: pixel.x, y: pixel.y)
            batches[i].edgeReference = .color(p[0], p[1], p[2], p[3])
        }
        return batches
    }

    /// Pixel (`x`, `y`) of `canvas` with `batches` drawn (ages as given), premultiplied 8-bit.
    private func canvasPixel(_ canvas: Canvas, _ batches: [StampBatch], effects: AgeEffects, primitive: Primitive,
                             x: Int, y: Int) throws -> [UInt8] {
        let settings = RenderSettings(effects: effects, primitive: primitive)
        let apron = apron(for: batches, effects: effects)
        let rect = TileRect(x: x, y: y, width: 1, height: 1)
        let target = try device.beginTile(width: 1, height: 1, apron: apron, originX: x, originY: y,
                                          fill: try tileFill(canvas, rect, apron: apron))
        defer { device.endTiles() }
        if batches.contains(where: { $0.mode != nil }) {
            try drawWithModes(batches, canvas: canvas, settings: settings, ageOffset: 0, into: target)
        } else {
            plan.reset(settings: settings, ageOffset: 0)
            planner(canvas, settings, 0).planImmediate(batches, into: &plan)
            try device.draw(plan, layers: [], into: target)
        }
        return try device.readPixel(target, x: x, y: y)
    }
}
