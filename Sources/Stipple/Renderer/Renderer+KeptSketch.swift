import Synchronization

/// A video's sketch kept on the GPU between frames. A frame draws again only the parts of
/// the canvas that can differ from the last one — cells touched by stamps born (or
/// appended by a live stroke) since then, by the stamps of layers shown or hidden since
/// then (undo, redo, clear), and, when stamps age, by every stamp live then or now — each
/// part cleared and drawn with every shown stamp that reaches it, in draw order, so the
/// result is the full redraw's, byte for byte. Only those parts are read back — or, when
/// stamps age (every live one changes each frame), only the cells the stamps drawn now
/// touch, which the compositor blends directly.
///
/// The GPU target and what the last frame drew belong to the renderer (its `keptSketches`,
/// actor-isolated): only its render thread touches them. This handle names them and shows
/// the figures the last frame left; `Renderer.endKept` frees the target.
package final class KeptSketch: Sendable {
    /// What a kept sketch holds between frames, in its renderer.
    struct State {
        var target: Framebuffer?
        var layers: [LayerID] = []
        /// Each shown layer's stamp count after the last frame moved it on.
        var counts: [LayerID: Int] = [:]
        var frame = 0
        /// The cells the stamps drawn at `frame` touch, when stamps age (nil when unknown).
        var ink: DirtyCells?
        /// False after a frame sent whole for direct blending: the compositor's converted copy
        /// is behind, and the next frame that changes little is read back whole for it.
        var planesCurrent = false
        var figures = Figures()
    }

    /// Pixels drawn again, pixels read back, boxes and frames drawn so far (what the
    /// benchmark reports), the most boxes one frame drew, frames drawn whole for direct
    /// blending, and frames that only drew their new stamps over what the target held.
    package struct Figures: Sendable {
        var redrawnPixels = 0
        var readPixels = 0
        var boxesDrawn = 0
        var mostBoxes = 0
        var framesDrawn = 0
        var wholeFrames = 0
        var appendedFrames = 0
    }

    let id = KeptSketch.ids.add(1, ordering: .relaxed).newValue
    private static let ids = Atomic<Int>(0)
    private let published = Mutex(Figures())

    package var redrawnPixels: Int { published.withLock { $0.redrawnPixels } }
    package var readPixels: Int { published.withLock { $0.readPixels } }
    package var boxesDrawn: Int { published.withLock { $0.boxesDrawn } }
    package var mostBoxes: Int { published.withLock { $0.mostBoxes } }
    package var framesDrawn: Int { published.withLock { $0.framesDrawn } }
    package var wholeFrames: Int { published.withLock { $0.wholeFrames } }
    package var appendedFrames: Int { published.withLock { $0.appendedFrames } }

    package init() {}

    /// The most rectangles the cells of a frame that only adds stamps merge into before the
    /// grid coarsens: the cells it changed (read back) and those it draws again (where a new
    /// stamp lies under a stamp of a later layer). Each costs a read-back or a pass; a coarser
    /// grid costs the pixels it adds, read and converted or drawn again, and can tip the frame
    /// over a third of the canvas, drawn whole. Strokes drawn at the same time scatter each
    /// frame's new stamps over the canvas: at 32, 60 such strokes on 1280×720 had 180 of 205
    /// frames drawn whole; at 128, one.
    static let appendingBoxLimit = 128
    /// The same for a frame whose boxes are each cleared and drawn with every stamp that
    /// reaches them (stamps that age, layers shown or hidden): a pass a box. There the passes
    /// cost more than the pixels a coarser grid adds: a dissolving sketch on 1280×720 baked in
    /// 2.0 s at 32 and in 2.3 s at 128.
    static let drawnBoxLimit = 32

    fileprivate func publish(_ figures: Figures) { published.withLock { $0 = figures } }
}

/// What a frame of a video's sketch changed: boxes of the canvas and their new pixels.
struct SketchUpdate: Sendable {
    /// A box and its pixels: premultiplied RGBA, `box.width` a row, rows top to bottom,
    /// or bottom to top when `bottomUp` (as GL reads them).
    struct Patch: Sendable {
        var box: PixelBox
        var pixels: [UInt8]
        var bottomUp: Bool
    }

    /// True when every pixel outside the patches is transparent now; otherwise pixels outside
    /// the patches are as they were.
    var replacesAll: Bool
    var patches: [Patch]
    /// True when the patches hold every pixel of the sketch that is not transparent (the
    /// whole canvas when most of it changed, or the boxes its stamps cover now when every
    /// stamp changes each frame): blending them directly costs less than converting them
    /// first. The converted copy is then behind, and the next update that is not direct
    /// replaces all of it.
    var direct = false

    static let unchanged = SketchUpdate(replacesAll: false, patches: [])
}

extension Renderer {
    /// Frame `frame` of `ids` over a transparent `canvas`, as the change since `kept` last
    /// drew. Stroke layers (brush modes) and image backgrounds draw whole frames.
    func renderKept(_ handle: KeptSketch, layers ids: [LayerID], canvas: Canvas, frame: Int,
                    settings: RenderSettings) throws -> SketchUpdate {
        var kept = keptSketches[handle.id] ?? KeptSketch.State()
        defer { keptSketches[handle.id] = kept; handle.publish(kept.figures) }
        return try renderKept(&kept, layers: ids, canvas: canvas, frame: frame, settings: settings)
    }

    /// Frees a kept sketch's target: after its video's last frame.
    func endKept(_ handle: KeptSketch) {
        keptSketches.removeValue(forKey: handle.id)?.target.map(device.deleteTarget)
    }

    /// Kept sketches this renderer holds (each a canvas-sized target).
    package var keptSketchCount: Int { keptSketches.count }

    private func renderKept(_ kept: inout KeptSketch.State, layers ids: [LayerID], canvas: Canvas, frame: Int,
                            settings: RenderSettings) throws -> SketchUpdate {
        let whole = PixelBox(x0: 0, y0: 0, x1: canvas.width, y1: canvas.height)
        let shown = try ids.map { id -> StampLayer in
            guard let l = self.layers[id] else { throw RenderError("\(id) does not exist") }
            return l
        }
        guard case let .color(color) = canvas.background, !FramePasses(modes: shown.lazy.map { $0.mode }).hasLayers else {
            kept.target.map(device.deleteTarget)
            kept.target = nil
            kept.ink = nil
            kept.planesCurrent = false
            let pixels = try renderLayersPremultiplied(ids, canvas: canvas, frame: frame, settings: settings)
            return SketchUpdate(replacesAll: true, patches: [.init(box: whole, pixels: pixels, bottomUp: false)], direct: true)
        }
        let fill = color.premultipliedRGBA8
        var boxes = [whole]
        var changed: DirtyCells?
        var replacesAll = true
        // The boxes the stamps cover now, when every one changes each frame (they age).
        var ink: [PixelBox]?
        if let t = kept.target, t.width == canvas.width, t.height == canvas.height, frame >= kept.frame,
           let cells = changedCells(kept, shown: ids, canvas: canvas, frame: frame, effects: settings.effects) {
            changed = cells.changed
            // Boxes cost a read each, but every pixel left out is neither copied nor scanned.
            ink = cells.ink?.boxes(limit: 64)
            kept.ink = cells.ink
            replacesAll = false
        } else {
            kept.target.map(device.deleteTarget)
            kept.ink = settings.effects.maxAge > 0 ? inkCells(ids, canvas: canvas, frame: frame, effects: settings.effects) : nil
            ink = kept.ink?.boxes(limit: 64)
            kept.target = try device.makeKeptTarget(width: canvas.width, height: canvas.height,
                                                    guardBand: guardBand(for: canvas), fill: fill)
        }
        let appended = replacesAll ? nil : appendedStamps(kept, shown: ids, canvas: canvas, frame: frame,
                                                          effects: settings.effects)
        // A frame that only adds stamps draws them in their windows and reads its changed boxes
        // back: those may be many. Otherwise each box is drawn with every stamp that reaches it.
        if let changed { boxes = changed.boxes(limit: appended == nil ? KeptSketch.drawnBoxLimit : KeptSketch.appendingBoxLimit) }
        let chosen = try resolve(ids, frame: frame, effects: settings.effects)
        kept.layers = ids
        kept.frame = frame
        var counts = [LayerID: Int](minimumCapacity: ids.count)
        for (id, layer) in zip(ids, chosen) where counts[id] == nil { counts[id] = layer.stamps.count }
        kept.counts = counts
        guard let target = kept.target else { return .unchanged }
        // When a third of the canvas or more changed, one pass draws it all, and the
        // compositor blends what is read back directly: the whole canvas, or only the boxes
        // with ink when those are known. When every stamp changes each frame, the ink's boxes
        // are read back and blended directly whatever was drawn.
        let drawsWhole = boxes.reduce(0) { $0 + $1.width * $1.height } * 3 >= canvas.width * canvas.height
        if drawsWhole { boxes = [whole] }
        let direct = drawsWhole || ink != nil
        // The compositor's copy is behind: it takes the whole canvas this time.
        let read = ink ?? (direct || !kept.planesCurrent ? [whole] : boxes)
        kept.planesCurrent = !direct
        if boxes.isEmpty && !direct && read.isEmpty { return .unchanged }
        if let appended {
            // The new stamps drawn over the target as it is; then, where one of them lies
            // under a stamp of a later layer drawn before, the box cleared and drawn whole.
            if !boxes.isEmpty {
                device.bind(target)
                try drawResident(chosen, canvas: canvas, frame: frame, settings: settings, into: target,
                                 only: appended.windows)
            }
            kept.figures.appendedFrames += 1
            boxes = appended.redrawn.isEmpty ? [] : appended.redrawn.boxes(limit: KeptSketch.appendingBoxLimit)
        }
        for box in boxes {
            if box == whole {
                // The whole canvas: the driver's fast clear of the whole target, and no scissor.
                try device.fill(target, with: .color(fill.0, fill.1, fill.2, fill.3))
                try drawResident(chosen, canvas: canvas, frame: frame, settings: settings, into: target)
                continue
            }
            device.beginKeptDraw(target, box: (box.x0, box.y0, box.x1, box.y1), fill: fill)
            defer { device.endKeptDraw() }
            try drawResident(chosen, canvas: canvas, frame: frame, settings: settings, into: target, scissored: true,
                             within: box)
        }
        let patches = try read.map {
            SketchUpdate.Patch(box: $0, pixels: try device.readKept(target, box: ($0.x0, $0.y0, $0.x1, $0.y1)),
                               bottomUp: true)
        }
        kept.figures.redrawnPixels += boxes.reduce(0) { $0 + $1.width * $1.height }
        kept.figures.readPixels += read.reduce(0) { $0 + $1.width * $1.height }
        kept.figures.boxesDrawn += boxes.count
        kept.figures.mostBoxes = max(kept.figures.mostBoxes, boxes.count)
        kept.figures.framesDrawn += 1
        if drawsWhole { kept.figures.wholeFrames += 1 }
        return SketchUpdate(replacesAll: replacesAll || read == [whole], patches: patches, direct: direct)
    }

    /// The cells that can differ between the kept frame and `frame` (the layers as the last
    /// frame left them: this frame has not moved them on yet), or nil when the shown layers
    /// changed their order (then the frame is drawn whole). When stamps age, also the cells
    /// the stamps of `frame` touch: every live stamp changes, so the changed cells are those
    /// and the ones the last frame's stamps touched (`kept.ink`).
    private func changedCells(_ kept: KeptSketch.State, shown ids: [LayerID], canvas: Canvas, frame f: Int,
                              effects: AgeEffects) -> (changed: DirtyCells, ink: DirtyCells?)? {
        let old = Set(kept.layers), now = Set(ids)
        guard kept.layers.filter(now.contains) == ids.filter(old.contains) else { return nil }
        if effects.maxAge > 0 {
            guard var cells = kept.ink, let ink = inkCells(ids, canvas: canvas, frame: f, effects: effects) else { return nil }
            cells.formUnion(ink)
            return (cells, ink)
        }
        let (p, ff) = (Float(kept.frame), Float(f))
        var cells = DirtyCells(width: canvas.width, height: canvas.height)
        func mark(_ s: SketchPoint, age: Float) {
            if let b = effects.pixelBox(of: s, age: age) { cells.mark(b) }
        }
        // Hidden since: every stamp it showed then.
        for id in kept.layers where !now.contains(id) {
            guard let layer = layers[id] else { return nil }
            let count = min(kept.counts[id] ?? 0, layer.stamps.count)
            for s in layer.stamps[min(layer.head, count)..<count] where effects.isLive(age: s.age + p) { mark(s, age: s.age + p) }
        }
        for id in ids {
            guard let layer = layers[id] else { return nil }
            // Stamps the last frame had (none, for a layer shown since).
            let had = old.contains(id) ? min(kept.counts[id] ?? 0, layer.stamps.count) : 0
            let stamps = layer.stamps
            // Stamps born in order: none past those born now can be live then or now.
            let end = layer.bornCount(at: ff, effects: effects) ?? stamps.count
            if let bornThen = layer.bornCount(at: p, effects: effects),
               let bornNow = layer.bornCount(at: ff, effects: effects) {
                // Born in order: only the stamps past what the last frame drew.
                for s in stamps[min(bornThen, had)..<bornNow] { mark(s, age: s.age + ff) }
            } else {
                for j in layer.head..<end {
                    let s = stamps[j]
                    if effects.isLive(age: s.age + ff) && !(j < had && effects.isLive(age: s.age + p)) { mark(s, age: s.age + ff) }
                }
            }
        }
        return (cells, nil)
    }

    /// The stamps `frame` adds (a window for each of `ids`), when stamps never age and the
    /// shown layers are those the target holds: drawn over the target as it is, a new stamp
    /// blends after the stamps already there, as the full redraw blends it — unless a stamp
    /// of a later layer, drawn before, lies over it (strokes drawn at the same time): the
    /// cells where that can be (`redrawn`) are cleared and drawn whole afterwards. Nil when
    /// the frame cannot be drawn so (layers shown or hidden since, stamps born out of
    /// order): the changed boxes are then all cleared and drawn again.
    private func appendedStamps(_ kept: KeptSketch.State, shown ids: [LayerID], canvas: Canvas, frame f: Int,
                                effects: AgeEffects) -> (windows: [Range<Int>], redrawn: DirtyCells)? {
        guard effects.maxAge == 0, kept.layers == ids, f >= kept.frame else { return nil }
        let (p, ff) = (Float(kept.frame), Float(f))
        var shown: [StampLayer] = [], windows: [Range<Int>] = []
        shown.reserveCapacity(ids.count); windows.reserveCapacity(ids.count)
        for id in ids {
            guard let layer = layers[id], let bornThen = layer.bornCount(at: p, effects: effects),
                  let bornNow = layer.bornCount(at: ff, effects: effects) else { return nil }
            // What the target holds of it, and what this frame adds.
            let held = max(layer.head, min(bornThen, kept.counts[id] ?? 0, layer.stamps.count))
            shown.append(layer)
            windows.append(held..<max(held, bornNow))
        }
        // From the last layer back: the cells held stamps of later layers reach, and the new
        // stamps under them. Only the layers after the first that adds stamps can hold any.
        var later = DirtyCells(width: canvas.width, height: canvas.height)
        var redrawn = DirtyCells(width: canvas.width, height: canvas.height)
        guard let first = windows.firstIndex(where: { !$0.isEmpty }) else { return (windows, redrawn) }
        for i in windows.indices.reversed() where i >= first {
            let layer = shown[i]
            if !later.isEmpty {
                // Only the cells where a held stamp of a later layer can be: elsewhere in the new
                // stamp's box nothing lies over it, and drawn over the target it is already right.
                for s in layer.stamps[windows[i]] {
                    if let b = effects.pixelBox(of: s, age: s.age + ff) { redrawn.mark(b, whereMarkedIn: later) }
                }
            }
            if i > first {
                for s in layer.stamps[layer.head..<windows[i].lowerBound] {
                    if let b = effects.pixelBox(of: s, age: s.age + ff) { later.mark(b) }
                }
            }
        }
        return (windows, redrawn)
    }

    /// The cells the live stamps of `ids` touch at `frame`, or nil when a layer is gone.
    private func inkCells(_ ids: [LayerID], canvas: Canvas, frame f: Int, effects: AgeEffects) -> DirtyCells? {
        var ink = DirtyCells(width: canvas.width, height: canvas.height)
        let ff = Float(f)
        for id in ids {
            guard let layer = layers[id] else { return nil }
            // Stamps born in order: none past those born now is live.
            let end = layer.bornCount(at: ff, effects: effects) ?? layer.stamps.count
            for s in layer.stamps[layer.head..<end] where effects.isLive(age: s.age + ff) {
                if let b = effects.pixelBox(of: s, age: s.age + ff) { ink.mark(b) }
            }
        }
        return ink
    }
}

extension AgeEffects {
    /// The pixels a live stamp can touch at `age`: those whose centre lies in its square,
    /// and one more each way for the driver's rounding. Nil when it lands nowhere.
    func pixelBox(of s: SketchPoint, age: Float) -> PixelBox? {
        let g = geometry(of: s, age: age)
        let half = g.diameter / 2
        guard g.centreX.isFinite, g.centreY.isFinite, half.isFinite else { return nil }
        return PixelBox(x0: Int(max(-1e7, (g.centreX - half).rounded(.down))) - 1,
                        y0: Int(max(-1e7, (g.centreY - half).rounded(.down))) - 1,
                        x1: Int(min(1e7, (g.centreX + half).rounded(.up))) + 1,
                        y1: Int(min(1e7, (g.centreY + half).rounded(.up))) + 1)
    }

    /// How far from its position a stamp of `radius` can reach at any age: half its largest
    /// diameter, its drift, and a pixel of rounding.
    func reach(radius: Float) -> Float {
        max(2 * radius * abs(pointScale), 0.5) + abs(dissolveDistance) + 2
    }
}

extension LayerView {
    /// The window cut to the stamps from the first to the last that can touch `box` at
    /// `frame` (those between are drawn too: the box's scissor keeps them out).
    func window(touching box: PixelBox, frame: Float, effects: AgeEffects) -> Range<Int> {
        let none = window.lowerBound..<window.lowerBound
        guard bounds.mayTouch(box, effects: effects), !window.isEmpty else { return none }
        func touches(_ j: Int) -> Bool {
            let s = stamps[j]
            guard effects.isLive(age: s.age + frame) else { return false }
            guard let b = effects.pixelBox(of: s, age: s.age + frame) else { return false }
            return b.x0 < box.x1 && b.x1 > box.x0 && b.y0 < box.y1 && b.y1 > box.y0
        }
        guard blocks.count == stamps.count else {
            guard let first = window.first(where: touches) else { return none }
            return first..<(window.reversed().first(where: touches)! + 1)
        }
        // Run by run, skipping the runs whose bounds cannot reach the box.
        let size = StampBlocks.size
        let runs = (window.lowerBound / size)..<((window.upperBound + size - 1) / size)
        func indices(of run: Int) -> Range<Int> {
            max(run * size, window.lowerBound)..<min(run * size + size, window.upperBound)
        }
        func reaches(_ run: Int) -> Bool { blocks.bounds[run].mayTouch(box, effects: effects) }
        guard let first = runs.lazy.filter(reaches).compactMap({ indices(of: $0).first(where: touches) }).first
        else { return none }
        let last = runs.reversed().lazy.filter(reaches).compactMap({ indices(of: $0).reversed().first(where: touches) }).first!
        return first..<(last + 1)
    }
}
