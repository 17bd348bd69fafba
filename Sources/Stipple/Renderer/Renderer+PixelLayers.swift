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

        /// `old` with new stamps drawn over it: its drawing in `box` (which holds old's), with
        /// `pixels` (premultiplied RGBA, `dirty`'s bottom row first) in place of what it held
        /// in `dirty`, the only pixels the new stamps reach.
        init(window: Range<Int>, frame: Float?, box: PixelBox, old: Entry, dirty: PixelBox, pixels: [UInt8]) {
            (self.window, self.frame, self.box) = (window, frame, box)
            let pad = PixelLayer.pad, stride = box.width + 2 * pad, plane = box.height * stride
            let oldStride = old.box.width + 2 * pad, oldPlane = old.box.height * oldStride
            let dx = old.box.x0 - box.x0
            var planes: [UInt8], spans: [Int32]
            if box == old.box {
                (planes, spans) = (old.planes, old.spans)
            } else {
                planes = [UInt8](repeating: 0, count: 4 * plane)
                spans = [Int32](repeating: 0, count: 2 * box.height)
                planes.withUnsafeMutableBufferPointer { to in
                    old.planes.withUnsafeBufferPointer { from in
                        for y in old.box.y0..<old.box.y1 {
                            let (r, o) = (box.y1 - 1 - y, old.box.y1 - 1 - y)
                            for p in 0..<4 {
                                (to.baseAddress! + p * plane + r * stride + pad + dx)
                                    .update(from: from.baseAddress! + p * oldPlane + o * oldStride + pad, count: old.box.width)
                            }
                            if old.spans[2 * o] < old.spans[2 * o + 1] {
                                (spans[2 * r], spans[2 * r + 1]) = (old.spans[2 * o] + Int32(dx), old.spans[2 * o + 1] + Int32(dx))
                            }
                        }
                    }
                }
            }
            planes.withUnsafeMutableBufferPointer { to in
                pixels.withUnsafeBufferPointer { p in
                    for y in dirty.y0..<dirty.y1 {
                        let (r, j) = (box.y1 - 1 - y, dirty.y1 - 1 - y)
                        let row = to.baseAddress! + r * stride + pad
                        for x in 0..<dirty.width {
                            let at = x + dirty.x0 - box.x0, i = (j * dirty.width + x) * 4
                            for c in 0..<4 { row[c * plane + at] = p[i + c] }
                        }
                        // The row's span again, from its alpha.
                        let alpha = row + 3 * plane
                        if let first = (0..<box.width).first(where: { alpha[$0] != 0 }) {
                            let last = (first..<box.width).last { alpha[$0] != 0 }!
                            (spans[2 * r], spans[2 * r + 1]) = (Int32(first), Int32(last + 1))
                        } else {
                            (spans[2 * r], spans[2 * r + 1]) = (0, 0)
                        }
                    }
                }
            }
            (self.planes, self.spans) = (planes, spans)
        }

        /// The drawing's pixels in `part` (inside its box): premultiplied RGBA, the part's
        /// bottom row first, for the GPU to draw new stamps over.
        func pixels(in part: PixelBox) -> [UInt8] { PixelLayer.pixels(of: planes, box: box, in: part) }
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
/// of it before), into `box`. Only `dirty`, the pixels those stamps reach, is drawn and read
/// back (the whole box without `old`).
private struct PixelLayerJob {
    let id: LayerID, layer: StampLayer, window: Range<Int>, frame: Float?
    let range: Range<Int>, old: PixelLayerCache.Entry?
    let box: PixelBox, dirty: PixelBox
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
            var dirty = PixelBox.empty
            for s in layer.stamps[from..<w.upperBound] where effects.isLive(age: s.age + f) {
                if let b = effects.pixelBox(of: s, age: s.age + f) { dirty = dirty.union(b) }
            }
            let box = (old?.box ?? .empty).union(dirty).intersection(tile)
            dirty = dirty.intersection(tile)
            bytes += PixelLayerCache.bytes(box)
            // Room on a sheet, its band (at most half the largest point) and rounding included.
            guard bytes <= cache.budget || !keeps, box.width <= side.width - 384, box.height <= side.height - 640 else {
                return nil
            }
            jobs.append(PixelLayerJob(id: id, layer: layer, window: w, frame: key, range: from..<w.upperBound, old: old,
                                      box: box, dirty: old == nil ? box : dirty))
        }
        for job in jobs where job.dirty.isEmpty {
            // Nothing new drawn: the drawing as it was (none for an empty box).
            var entry = job.old ?? .init(window: job.window, frame: job.frame, box: job.box, pixels: [])
            (entry.window, entry.frame) = (job.window, job.frame)
            entries[job.id] = entry
        }
        let drawn = jobs.filter { !$0.dirty.isEmpty }
        try draw(drawn, frame: f, settings: settings, canvas: canvas, cache: cache) { i, pixels in
            let job = drawn[i]
            if let old = job.old {
                entries[job.id] = .init(window: job.window, frame: job.frame, box: job.box, old: old, dirty: job.dirty,
                                        pixels: pixels)
            } else {
                entries[job.id] = .init(window: job.window, frame: job.frame, box: job.box, pixels: pixels)
            }
        }
        // Layers no longer shown are forgotten; one shown again is drawn again.
        if keeps { cache.entries = entries }
        return zip(ids, ops).compactMap { id, op in
            guard let e = entries[id], !e.box.isEmpty else { return nil }
            return PixelLayer(op: op.0, opacity: op.1, box: e.box, planes: e.planes, spans: e.spans)
        }
    }

    /// Draws each job's stamps over its old drawing into its dirty box, layers one above
    /// another on the sheet (as many sheets as the driver's largest target needs), and hands
    /// job i's dirty box's pixels to `done`.
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
            while end < jobs.count, end == start || rows + jobs[end].dirty.height <= side.height - 2 * band - 255 {
                rows += jobs[end].dirty.height
                end += 1
            }
            let width = jobs[start..<end].map(\.dirty.width).max() ?? 1
            let sheet = try device.beginSheet(cache.sheet, width: width, height: rows, band: band)
            cache.sheet = sheet
            var row = 0, placed: [Int] = []
            for i in start..<end {
                placed.append(row)
                row += jobs[i].dirty.height
            }
            // What was drawn before under the new stamps, every layer's before any is drawn.
            for (i, row) in zip(start..<end, placed) {
                let box = jobs[i].dirty
                guard let old = jobs[i].old else { continue }
                let under = box.intersection(old.box)
                if !under.isEmpty { device.putOnSheet(sheet, box: box, row: row, old: (under, old.pixels(in: under))) }
            }
            do {
                // The scissor each placement sets is turned off however the drawing ends.
                defer { device.endSheetDraw() }
                for (i, row) in zip(start..<end, placed) {
                    device.placeOnSheet(sheet, box: jobs[i].dirty, row: row)
                    plan.reset(settings: settings, ageOffset: f)
                    planner.planImmediate([batches[i]], into: &plan)
                    try device.draw(plan, layers: [], into: sheet, scissored: true)
                }
            }
            for (i, row) in zip(start..<end, placed) {
                done(i, try device.readSheet(sheet, box: jobs[i].dirty, row: row))
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
