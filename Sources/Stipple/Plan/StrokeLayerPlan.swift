/// A rectangle of canvas pixels, rows top to bottom: columns x0..<x1, rows y0..<y1.
struct PixelBox: Equatable {
    var x0: Int, y0: Int, x1: Int, y1: Int

    /// No pixel.
    static let empty = PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)

    var isEmpty: Bool { x0 >= x1 || y0 >= y1 }
    var width: Int { max(0, x1 - x0) }
    var height: Int { max(0, y1 - y0) }

    func grown(x: Int, y: Int) -> PixelBox { PixelBox(x0: x0 - x, y0: y0 - y, x1: x1 + x, y1: y1 + y) }
    func shifted(_ dx: Int, _ dy: Int) -> PixelBox { PixelBox(x0: x0 + dx, y0: y0 + dy, x1: x1 + dx, y1: y1 + dy) }
    func clipped(width: Int, height: Int) -> PixelBox {
        PixelBox(x0: max(0, x0), y0: max(0, y0), x1: min(width, x1), y1: min(height, y1))
    }
    func intersection(_ o: PixelBox) -> PixelBox {
        PixelBox(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
    }
    func union(_ o: PixelBox) -> PixelBox {
        if isEmpty { return o }
        if o.isEmpty { return self }
        return PixelBox(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
    }
}

/// Where "detect edges" picks its reference colour: the stroke's first sample and the frame
/// it is born at (render frames).
package struct EdgeAnchor: Sendable, Equatable {
    package var x: Float, y: Float
    package var frame: Int
    /// The draw entry's index in its script, to find the stroke at another frame.
    package var entry: Int
    package init(x: Float, y: Float, frame: Int, entry: Int) { self.x = x; self.y = y; self.frame = frame; self.entry = entry }

    /// The canvas pixel under the anchor, or nil when it is off a canvas of that size.
    func pixel(width: Int, height: Int) -> (x: Int, y: Int)? {
        guard x.isFinite, y.isFinite, x >= 0, y >= 0, x < Float(width), y < Float(height) else { return nil }
        return (Int(x), Int(y))
    }
}

/// The reference colour of "detect edges", once known.
package enum EdgeReference: Sendable, Equatable {
    /// The canvas pixel under the first sample, premultiplied 8-bit RGBA.
    case color(UInt8, UInt8, UInt8, UInt8)
    /// The first sample was off the canvas: the stroke touches nothing.
    case offCanvas
}

/// One stroke layer's passes as the GPU will run them, decided on the CPU: which mode, the
/// box of the canvas its stamps cover, the box it may change, and the edge reference.
struct StrokeLayerPass {
    var mode: StrokeMode
    /// The live stamps' squares, clipped to the canvas: where L can be non-zero.
    var stamps: PixelBox
    /// The live stamps' squares, not clipped: every pixel a target drawn with them may hold
    /// ink at, the guard band's included.
    var inked: PixelBox
    /// Everything the pass may change: the stamps' box, and the shadow's box.
    var region: PixelBox
    /// The cells of 16 pixels within `region` that hold a live stamp's square or its
    /// shadow's cast, as boxes: the final pass draws these, not the whole region (away from
    /// them its weight is zero and the canvas stays as it was). Empty until `findCover`.
    var cover: [PixelBox] = []
    /// With "detect edges": in each cell of `cover`, the bounds of the stamps' squares there.
    /// The layers of a group lie apart, so their parts never overlap: the final pass draws
    /// each layer's parts with its own reference.
    var coverParts: [PixelBox] = []
    /// The edge reference (8-bit, premultiplied); nil without `edges`.
    var reference: [Float]?
    /// The whole canvas's size (a tile's passes still clamp and clip at the canvas's edges).
    var canvasWidth: Int, canvasHeight: Int
    /// The pixels whose result must be exact (a tile and the cone of later layers around
    /// it); nil: the whole canvas. The passes write nothing outside it that is not read.
    var exact: PixelBox?

    /// What the passes read of L and of the canvas, so what is cleared and copied: the region,
    /// and the stamps grown by the soften/sharpen blur and by twice the shadow's taps (the
    /// shadow's first pass writes R past the stamps and reads R past that).
    var reads: PixelBox {
        region.union(stamps.grown(x: mode.readSpread, y: StrokeMode.blurRadius))
            .clipped(width: canvasWidth, height: canvasHeight)
    }

    /// `box` cut to `exact` grown by `x`, `y`: what a pass must compute.
    func needed(_ box: PixelBox, x: Int = 0, y: Int = 0) -> PixelBox {
        exact.map { box.intersection($0.grown(x: x, y: y)) } ?? box
    }

    /// The squares of the stamps of `stamps` live at `ageOffset`, in order: each the pixels
    /// whose centre lies in the stamp's square, and one more on each side for the driver's
    /// rounding. Worked out once a frame for a pass, its cover and its zone.
    static func squares(_ stamps: UnsafeBufferPointer<SketchPoint>, ageOffset: Float, effects: AgeEffects) -> [PixelBox] {
        var out: [PixelBox] = []
        out.reserveCapacity(stamps.count)
        for p in stamps where effects.isLive(age: p.age + ageOffset) {
            if let b = effects.pixelBox(of: p, age: p.age + ageOffset) { out.append(b) }
        }
        return out
    }

    /// The pass for `stamps` (live at `ageOffset`), or nil when it can change no pixel.
    init?(mode: StrokeMode, stamps: UnsafeBufferPointer<SketchPoint>, ageOffset: Float, effects: AgeEffects,
          width: Int, height: Int, reference: EdgeReference?) {
        self.init(mode: mode, squares: StrokeLayerPass.squares(stamps, ageOffset: ageOffset, effects: effects),
                  width: width, height: height, reference: reference)
    }

    /// The pass for stamps whose live squares are `squares` (`squares(_:ageOffset:effects:)`).
    init?(mode: StrokeMode, squares: [PixelBox], width: Int, height: Int, reference: EdgeReference?) {
        self.mode = mode
        canvasWidth = width; canvasHeight = height
        guard mode.strokeOpacity > 0 else { return nil }
        if mode.edgeTolerance != nil {
            guard case let .color(r, g, b, a)? = reference else { return nil }
            self.reference = [Float(r), Float(g), Float(b), Float(a)]
        }
        let box = squares.reduce(PixelBox.empty) { $0.union($1) }
        let covered = box.clipped(width: width, height: height)
        guard !covered.isEmpty else { return nil }
        self.stamps = covered
        inked = box
        var region = covered
        if let s = mode.shadow {
            let cast = covered.shifted(s.dx, s.dy).grown(x: s.radius, y: s.radius).clipped(width: width, height: height)
            region = region.union(cast)
        }
        self.region = region
    }

    /// Finds `cover` from the same stamps' squares: only a pass that is drawn needs it.
    mutating func findCover(_ squares: [PixelBox]) {
        var cells = PixelCells(within: region)
        StrokeLayerPass.markSquares(mode: mode, squares: squares, grown: 0, into: &cells)
        let marked = cells.marked
        cover = PixelCells.boxes(marked, clippedTo: region)
        // Only layers that may share a group with other references draw by their parts (`LayerGroups.Key`).
        if reference != nil && !mode.readsWeightAround {
            coverParts = marked.map { $0.part.intersection(region) }.filter { !$0.isEmpty }
        }
    }
}

/// The cells of 16 pixels that boxes touch, within bounds (a stamp may be huge or far off),
/// and in each cell the bounds of what was marked there.
struct PixelCells {
    static let shift = 4
    /// Each cell touched, as `cy << 32 | cx`, and a box's part in it: the first `merged` in
    /// key order, each cell once with the bounds of its parts; the rest as marked. (A
    /// dictionary hashed every mark; a frame of stroke layers marks thousands.)
    private var entries: [(key: Int, part: PixelBox)] = []
    private var merged = 0
    private let bounds: PixelBox

    init(within bounds: PixelBox) { self.bounds = bounds }

    static func key(_ cx: Int, _ cy: Int) -> Int { cy << 32 | (cx & 0xFFFF_FFFF) }

    /// The cell `key` names, as a box.
    static func cell(_ key: Int) -> PixelBox {
        let side = 1 << shift
        let cy = key >> 32, cx = Int(Int32(truncatingIfNeeded: key))
        return PixelBox(x0: cx * side, y0: cy * side, x1: cx * side + side, y1: cy * side + side)
    }

    mutating func mark(_ box: PixelBox) {
        let b = box.intersection(bounds)
        guard !b.isEmpty else { return }
        let z = PixelCells.shift, side = 1 << z
        for cy in b.y0 >> z...(b.y1 - 1) >> z {
            let y0 = max(b.y0, cy << z), y1 = min(b.y1, (cy << z) + side)
            for cx in b.x0 >> z...(b.x1 - 1) >> z {
                let part = PixelBox(x0: max(b.x0, cx << z), y0: y0, x1: min(b.x1, (cx << z) + side), y1: y1)
                entries.append((PixelCells.key(cx, cy), part))
            }
        }
        // Merged as they grow, so memory stays the cells', not the marks'.
        if entries.count >= max(4096, 2 * merged) { merge() }
    }

    /// Sorts the entries by cell and makes each cell one entry, the union of its parts.
    private mutating func merge() {
        entries.sort { $0.key < $1.key }
        var n = 0
        for e in entries {
            if n > 0 && entries[n - 1].key == e.key {
                entries[n - 1].part = entries[n - 1].part.union(e.part)
            } else {
                entries[n] = e
                n += 1
            }
        }
        entries.removeLast(entries.count - n)
        merged = n
    }

    /// Each cell touched, in key order, with the bounds of what was marked in it.
    var marked: [(key: Int, part: PixelBox)] {
        var all = self
        all.merge()
        return all.entries
    }

    /// The cells of `marked` (as `marked` gives them) as boxes, each row's runs of
    /// neighbouring cells as one, cut to `clip`.
    static func boxes(_ marked: [(key: Int, part: PixelBox)], clippedTo clip: PixelBox) -> [PixelBox] {
        var out: [PixelBox] = []
        for (key, _) in marked {
            let cell = PixelCells.cell(key)
            if let last = out.last, last.y0 == cell.y0, last.x1 == cell.x0 {
                out[out.count - 1].x1 = cell.x1
            } else {
                out.append(cell)
            }
        }
        return out.map { $0.intersection(clip) }.filter { !$0.isEmpty }
    }
}

/// Where a stroke layer changes pixels or reads them (`StrokeLayerPass.zone`): cells of 16
/// pixels, and in each the bounds of the layer's part of it. Two layers meet when their
/// parts of a cell they share overlap; cells alone tell quickly which pairs to look at.
struct LayerZone: Equatable {
    /// The cells (`PixelCells.key`), sorted, each once.
    var cells: [Int]
    /// For each cell, the bounds of the zone within it.
    var parts: [PixelBox]

    /// A zone of whole cells.
    init(cells: [Int]) {
        self.cells = cells.sorted()
        parts = self.cells.map(PixelCells.cell)
    }

    init(_ marked: PixelCells) {
        let all = marked.marked
        cells = all.map(\.key)
        parts = all.map(\.part)
    }

    /// Whether the two zones overlap anywhere.
    func meets(_ other: LayerZone) -> Bool {
        var (i, j) = (0, 0)
        while i < cells.count, j < other.cells.count {
            if cells[i] < other.cells[j] { i += 1 } else if cells[i] > other.cells[j] { j += 1 } else {
                if !parts[i].intersection(other.parts[j]).isEmpty { return true }
                i += 1; j += 1
            }
        }
        return false
    }
}

extension StrokeLayerPass {
    /// Where the layer's passes can change a pixel, and the pixels around those that they
    /// read (`LayerZone`). A layer changes pixels only under its
    /// live stamps' squares and within R of their shadow's cast (a weight of zero changes
    /// nothing); a changed pixel reads the canvas before the layer up to the soften/sharpen
    /// blur's radius around it, and reads L only where the layer's own stamps or shadow would
    /// change it. So the zone is those squares and casts (R past the cast stamps) grown by the
    /// blur's radius and a pixel: two layers whose zones do not meet neither read nor change
    /// what the other changes, and may share their passes (`LayerGroups`).
    static func zone(mode: StrokeMode, stamps: UnsafeBufferPointer<SketchPoint>, ageOffset: Float,
                     effects: AgeEffects, width: Int, height: Int) -> LayerZone {
        zone(mode: mode, squares: squares(stamps, ageOffset: ageOffset, effects: effects), width: width, height: height)
    }

    /// The zone of stamps whose live squares are `squares`.
    static func zone(mode: StrokeMode, squares: [PixelBox], width: Int, height: Int) -> LayerZone {
        let margin = mode.blurTaps + 1
        // Nothing past the canvas is changed, and a layer reads no further than its margin past it.
        let reach = margin + (mode.shadow?.radius ?? 0)
        let canvas = PixelBox(x0: 0, y0: 0, x1: width, y1: height).grown(x: 2 * reach, y: 2 * reach)
        var cells = PixelCells(within: canvas)
        markSquares(mode: mode, squares: squares, grown: margin, into: &cells)
        return LayerZone(cells)
    }

    /// Marks every live stamp's square, and with a shadow its cast grown by R, each grown
    /// by `grown` pixels.
    static func markSquares(mode: StrokeMode, squares: [PixelBox], grown: Int, into cells: inout PixelCells) {
        let z = PixelCells.shift
        let (dx, dy, r) = mode.shadow.map { ($0.dx, $0.dy, $0.radius) } ?? (0, 0, 0)
        func mark(_ b: PixelBox) {
            cells.mark(b.grown(x: grown, y: grown))
            if mode.shadow != nil { cells.mark(b.shifted(dx, dy).grown(x: r + grown, y: r + grown)) }
        }
        // Neighbouring stamps mostly fall in the same cells: a run of them is marked once, as
        // its bounds (no smaller than their parts in each cell).
        var run: (key: PixelBox, bounds: PixelBox)?
        for b in squares {
            let key = PixelBox(x0: b.x0 >> z, y0: b.y0 >> z, x1: (b.x1 - 1) >> z, y1: (b.y1 - 1) >> z)
            if let r = run, r.key == key {
                run!.bounds = r.bounds.union(b)
                continue
            }
            if let r = run { mark(r.bounds) }
            run = (key, b)
        }
        if let r = run { mark(r.bounds) }
    }
}
