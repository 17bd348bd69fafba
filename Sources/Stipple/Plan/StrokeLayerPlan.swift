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
