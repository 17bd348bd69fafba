/// The layers of a bake's frame for the CPU to compose (`PixelLayerCompositor`), when every
/// one of them acts pixel by pixel: plain entries, every blend and stroke opacity, and the
/// effects lighten, darken, saturate and desaturate (no shadow, blur or edges). Each layer's
/// L (its live stamps over transparent) is drawn on the GPU and kept here from frame to
/// frame: a frame draws only the layers whose stamps changed — for a layer that only grows,
/// only its new stamps, over what it held — and reads only those back.
///
/// The GPU target (`sheet`) belongs to the renderer's render thread: only `Renderer`
/// methods touch it.
// Unchecked: its entries and sheet are read and written only by `Renderer` methods, on the render thread.
package final class PixelLayerCache: @unchecked Sendable {
    struct Entry {
        /// The stamps drawn (a window of the layer), and the frame when their look depends
        /// on it (nil for a layer whose stamps never age and are born in order).
        var window: Range<Int>
        var frame: Float?
        /// The drawing's box on the canvas (clipped to it), and the drawing as
        /// `PixelLayer.planes` and `PixelLayer.spans` give it.
        var box: PixelBox
        var planes: [UInt8]
        var spans: [Int32]

        /// An entry of `pixels` (premultiplied RGBA, the box's bottom row first).
        init(window: Range<Int>, frame: Float?, box: PixelBox, pixels: [UInt8]) {
            (self.window, self.frame, self.box) = (window, frame, box)
            planes = PixelLayer.planes(of: pixels, width: box.width)
            spans = PixelLayer.spans(of: pixels, width: box.width)
        }

        /// The drawing's pixels again, for the GPU to draw new stamps over.
        var pixels: [UInt8] { PixelLayer.pixels(of: planes, width: box.width, rows: box.height) }
    }
    fileprivate var entries: [LayerID: Entry] = [:]
    fileprivate var sheet: Framebuffer?
    /// The most bytes of drawings kept here: a frame whose layers need more is composed a
    /// tile at a time (the same bytes, drawn anew each frame).
    let budget: Int
    static let defaultBudget = 64 << 20

    package init(budget: Int = PixelLayerCache.defaultBudget) { self.budget = budget }

    /// The bytes an entry of a `box` holds.
    static func bytes(_ box: PixelBox) -> Int { 4 * box.height * (box.width + 2 * PixelLayer.pad) }
}

/// A layer whose drawing a frame makes again: its stamps `range` over `old` (what was drawn
/// of it before), into `box`.
private struct PixelLayerJob {
    let id: LayerID, layer: StampLayer, window: Range<Int>, frame: Float?
    let range: Range<Int>, old: PixelLayerCache.Entry?
    let box: PixelBox
}

/// What the CPU composes a frame from, when every layer of it acts pixel by pixel.
enum PixelLayerFrame: Sendable {
    /// Each layer's drawing over the whole frame, in order.
    case whole([PixelLayer])
    /// Drawings too big for the cache (or for the driver's largest target): the frame is
    /// composed one tile at a time, each tile's drawings made for it alone
    /// (`Renderer.pixelLayers(_:in:…)`). The tiles' corners are multiples of 8, so a group
    /// of eight pixels or a 4:2:0 chroma block lies wholly in one: the bytes are those of the
    /// whole frame's composition.
    case tiles([PixelBox])
}

extension Renderer {
    /// The layers `ids` at `frame` on a `width` × `height` canvas for the CPU to compose; nil
    /// when one with live stamps does not act pixel by pixel (the frame's passes then run on
    /// the GPU). A layer with nothing live, or nothing on the canvas, is left out. Drawings
    /// past the cache's `budget`, or wider or taller than a sheet holds, give `.tiles`: the
    /// bytes never depend on the budget, only the time and memory do.
    func pixelLayers(_ ids: [LayerID], frame: Int, settings: RenderSettings, width: Int, height: Int,
                     cache: PixelLayerCache) throws -> PixelLayerFrame? {
        guard let (ids, chosen, ops) = try shownPixelLayers(ids, frame: frame, settings: settings) else { return nil }
        let whole = PixelBox(x0: 0, y0: 0, x1: width, y1: height)
        if let layers = try pixelLayers(ids, chosen, ops, frame: frame, settings: settings,
                                        canvas: Canvas(width: width, height: height), tile: whole, cache: cache,
                                        keeps: true) {
            return .whole(layers)
        }
        cache.entries = [:]
        return .tiles(pixelLayerTiles(layers: ids.count, width: width, height: height, budget: cache.budget))
    }

    /// The drawings of the layers `ids` at `frame` inside `tile` (one of `.tiles`), made
    /// for it alone and not kept.
    func pixelLayers(_ ids: [LayerID], in tile: PixelBox, frame: Int, settings: RenderSettings, width: Int,
                     height: Int, cache: PixelLayerCache) throws -> [PixelLayer] {
        guard let (ids, chosen, ops) = try shownPixelLayers(ids, frame: frame, settings: settings),
              let layers = try pixelLayers(ids, chosen, ops, frame: frame, settings: settings,
                                           canvas: Canvas(width: width, height: height), tile: tile,
                                           cache: cache, keeps: false)
        else { throw RenderError("a tile of \(tile.width)×\(tile.height) pixels does not fit the stroke layers' sheet") }
        return layers
    }

    /// The layers of `ids` with live stamps at `frame`, and each one's op; nil when one of
    /// them does not act pixel by pixel.
    private func shownPixelLayers(_ ids: [LayerID], frame: Int, settings: RenderSettings) throws
        -> ([LayerID], [StampLayer], [(PixelLayer.Op, Float)])? {
        let f = Float(frame), effects = settings.effects
        var (ids, chosen) = (ids, try resolve(ids, frame: frame, effects: settings.effects))
        // A layer with nothing live now draws nothing, whatever its mode: left out.
        let drawing = chosen.map { layer in
            layer.stamps[layer.window(at: f, effects: effects)].contains { effects.isLive(age: $0.age + f) }
        }
        (ids, chosen) = (zip(ids, drawing).filter(\.1).map(\.0), zip(chosen, drawing).filter(\.1).map(\.0))
        let ops = chosen.map { PixelLayer.op($0.mode) }
        guard !ops.contains(where: { $0 == nil }) else { return nil }
        return (ids, chosen, ops.map { $0! })
    }

    /// Tiles of a `width` × `height` frame, full rows where a sheet is wide enough, small
    /// enough that `layers` drawings each as big as one stay within `budget` and fit a sheet.
    /// Their corners are multiples of 8 (or the frame's edge).
    func pixelLayerTiles(layers: Int, width: Int, height: Int, budget: Int) -> [PixelBox] {
        let side = info.maxCanvasSide
        let most = max(8, (side.width - 384) / 8 * 8)
        let columns = (width + most - 1) / most
        let w = min(most, ((width + columns - 1) / columns + 7) / 8 * 8)
        let perRow = max(1, layers) * PixelLayerCache.bytes(PixelBox(x0: 0, y0: 0, x1: w, y1: 1))
        let h = max(8, min(side.height - 640, budget / perRow) / 8 * 8)
        return stride(from: 0, to: height, by: h).flatMap { y in
            stride(from: 0, to: width, by: w).map { x in
                PixelBox(x0: x, y0: y, x1: min(x + w, width), y1: min(y + h, height))
            }
        }
    }

    /// The drawings of `chosen` (their `ids` and `ops`) inside `tile` of `canvas`; nil when they pass
    /// the cache's budget or a sheet's size. `keeps`: drawings are taken from the cache where
    /// still good, a growing layer's drawn over, and the cache left holding this frame's.
    private func pixelLayers(_ ids: [LayerID], _ chosen: [StampLayer], _ ops: [(PixelLayer.Op, Float)], frame: Int,
                             settings: RenderSettings, canvas: Canvas, tile: PixelBox, cache: PixelLayerCache,
                             keeps: Bool) throws -> [PixelLayer]? {
        let f = Float(frame), effects = settings.effects
        let side = info.maxCanvasSide
        var entries: [LayerID: PixelLayerCache.Entry] = [:]
        var jobs: [PixelLayerJob] = []
        var bytes = 0
        for (id, layer) in zip(ids, chosen) {
            let w = layer.window(at: f, effects: effects)
            let grows = layer.onlyGrows(window: w, effects: effects)
            let key: Float? = grows ? nil : f
            let known = keeps ? cache.entries[id] : nil
            if let known, known.window == w, known.frame == key {
                entries[id] = known
                bytes += PixelLayerCache.bytes(known.box)
                continue
            }
            // A layer that only grows draws its new stamps over what it held.
            let old = grows ? known.flatMap { $0.frame == nil && $0.window.lowerBound == 0
                && $0.window.upperBound <= w.upperBound ? $0 : nil } : nil
            let from = old?.window.upperBound ?? w.lowerBound
            var box = old?.box ?? .empty
            for s in layer.stamps[from..<w.upperBound] where effects.isLive(age: s.age + f) {
                if let b = effects.pixelBox(of: s, age: s.age + f) { box = box.union(b) }
            }
            box = box.intersection(tile)
            bytes += PixelLayerCache.bytes(box)
            // Room on a sheet, its band (at most half the largest point) and rounding included.
            guard bytes <= cache.budget || !keeps, box.width <= side.width - 384, box.height <= side.height - 640 else {
                return nil
            }
            jobs.append(PixelLayerJob(id: id, layer: layer, window: w, frame: key, range: from..<w.upperBound, old: old,
                                      box: box))
        }
        for job in jobs where job.box.isEmpty {
            entries[job.id] = .init(window: job.window, frame: job.frame, box: job.box, pixels: [])
        }
        let drawn = jobs.filter { !$0.box.isEmpty }
        try draw(drawn, frame: f, settings: settings, canvas: canvas, cache: cache) { i, pixels in
            let job = drawn[i]
            entries[job.id] = .init(window: job.window, frame: job.frame, box: job.box, pixels: pixels)
        }
        // Layers no longer shown are forgotten; one shown again is drawn again.
        if keeps { cache.entries = entries }
        return zip(ids, ops).compactMap { id, op in
            guard let e = entries[id], !e.box.isEmpty else { return nil }
            return PixelLayer(op: op.0, opacity: op.1, box: e.box, planes: e.planes, spans: e.spans)
        }
    }

    /// Draws each job's stamps over its old drawing into its box, layers one above another on
    /// the sheet (as many sheets as the driver's largest target needs), and hands job i's box's
    /// pixels to `done`.
    private func draw(_ jobs: [PixelLayerJob], frame f: Float, settings: RenderSettings, canvas: Canvas,
                      cache: PixelLayerCache, done: (Int, [UInt8]) -> Void) throws {
        guard !jobs.isEmpty else { return }
        let batches = jobs.map { job in
            StampBatch(brushKey: job.layer.brush.key, brush: job.layer.brush.brush, stamps: Array(job.layer.stamps[job.range]),
                       rotations: job.layer.rotations.map { Array($0[job.range]) })
        }
        // Every stamp that touches a box is centred within this of it: inside the sheet.
        let band = (pointApron(for: batches, effects: settings.effects) + 15) / 16 * 16
        let side = info.maxCanvasSide
        let planner = planner(canvas, settings, f)
        var start = 0
        while start < jobs.count {
            // The layers that fit one above another.
            var end = start, rows = 0
            while end < jobs.count, end == start || rows + jobs[end].box.height <= side.height - 2 * band - 255 {
                rows += jobs[end].box.height
                end += 1
            }
            let width = jobs[start..<end].map(\.box.width).max() ?? 1
            let sheet = try device.beginSheet(cache.sheet, width: width, height: rows, band: band)
            cache.sheet = sheet
            var row = 0, placed: [Int] = []
            do {
                // The scissor each placement sets is turned off however the drawing ends.
                defer { device.endSheetDraw() }
                for i in start..<end {
                    let box = jobs[i].box
                    device.placeOnSheet(sheet, box: box, row: row, old: jobs[i].old.map { ($0.box, $0.pixels) })
                    plan.reset(settings: settings, ageOffset: f)
                    planner.planImmediate([batches[i]], into: &plan)
                    try device.draw(plan, layers: [], into: sheet, scissored: true)
                    placed.append(row)
                    row += box.height
                }
            }
            for (i, row) in zip(start..<end, placed) {
                done(i, try device.readSheet(sheet, box: jobs[i].box, row: row))
            }
            start = end
        }
    }

    /// Frees the sheet of `cache` and forgets its layers.
    func release(_ cache: PixelLayerCache) {
        cache.sheet.map(device.deleteTarget)
        cache.sheet = nil
        cache.entries = [:]
    }
}
