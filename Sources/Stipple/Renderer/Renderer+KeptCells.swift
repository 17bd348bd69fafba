/// Which cells of a kept sketch a frame must draw again (`renderKept`): those its new stamps
/// touch, those the stamps of layers shown or hidden since touched, and, when stamps age,
/// those every live stamp touches; for a frame that only adds stamps, where a new stamp lies
/// under a stamp of a later layer that the target already holds.
extension Renderer {
    /// The cells that can differ between the kept frame and `frame` (the layers as the last
    /// frame left them: this frame has not moved them on yet), or nil when the shown layers
    /// changed their order (then the frame is drawn whole). When stamps age, also the cells
    /// the stamps of `frame` touch: every live stamp changes, so the changed cells are those
    /// and the ones the last frame's stamps touched (`kept.ink`).
    func changedCells(_ kept: KeptSketch.State, shown ids: [LayerID], canvas: Canvas, frame f: Int,
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
    func appendedStamps(_ kept: inout KeptSketch.State, shown ids: [LayerID], canvas: Canvas, frame f: Int,
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
        var asked: [LayerID: KeptSketch.HeldCells] = [:]
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
                // Taken out of the state, so that marking the stamps since does not copy its cells.
                let cells = heldCells(kept.held.removeValue(forKey: ids[i]), of: layer, through: windows[i].lowerBound,
                                      canvas: canvas, effects: effects)
                later.formUnion(cells.cells)
                asked[ids[i]] = cells
            }
        }
        // Only this frame's: a layer that is not after the first to add stamps is not asked about.
        kept.held = asked
        return (windows, redrawn)
    }

    /// The cells `layer`'s stamps `head..<end` touch, when stamps never age: `cached` with
    /// the stamps since marked, or made again when it is stale.
    private func heldCells(_ cached: KeptSketch.HeldCells?, of layer: StampLayer, through end: Int, canvas: Canvas,
                           effects: AgeEffects) -> KeptSketch.HeldCells {
        var entry: KeptSketch.HeldCells
        if let cached, cached.compactions == layer.compactions, cached.effects == effects, cached.from == layer.head,
           cached.count <= end, cached.cells.width == canvas.width, cached.cells.height == canvas.height {
            entry = cached
        } else {
            entry = KeptSketch.HeldCells(compactions: layer.compactions, effects: effects, from: layer.head, count: layer.head,
                                         cells: DirtyCells(width: canvas.width, height: canvas.height))
        }
        if entry.count < end {
            // A stamp that never ages has one box at every age.
            for s in layer.stamps[entry.count..<end] {
                if let b = effects.pixelBox(of: s, age: s.age) { entry.cells.mark(b) }
            }
            entry.count = end
        }
        return entry
    }

    /// The cells the live stamps of `ids` touch at `frame`, or nil when a layer is gone.
    func inkCells(_ ids: [LayerID], canvas: Canvas, frame f: Int, effects: AgeEffects) -> DirtyCells? {
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
