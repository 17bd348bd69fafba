import CStipple

/// Builds frame plans (`FramePlan`): turns stamps into draw runs, in buffer order.
///
/// Live stamps are drawn as points unless points cannot draw them right: wider than the
/// driver's largest point (it would be clamped), or centred off the canvas (some drivers
/// drop such a point). Those become quads, six vertices each, in the quad buffer.
/// Consecutive stamps of one kind share a run, so the common case is one draw a batch,
/// and the order of compositing is kept (docs/reference.md §4).
struct FramePlanner {
    var effects: AgeEffects
    var primitive: Primitive
    var maxPointSize: Float
    var canvasWidth: Float
    var canvasHeight: Float
    var ageOffset: Float
    /// Pixels of framebuffer beyond each canvas edge: a point centred in the band is still
    /// inside the viewport, so no driver drops it.
    var guardBand: Float = 0

    /// Margins keep the CPU's decision safe from the GPU's rounding of the same math (the
    /// GPU's cos and sin of a dissolving stamp can differ from the CPU's by ~1e-5 px). They
    /// are kept small: every stamp sent to quads splits a run and costs a program switch.
    static let pointSizeMargin: Float = 2
    static let edgeMargin: Float = 0.01

    /// How a live stamp is drawn, or not at all.
    enum Kind { case point, quad, invisible }

    @inline(__always)
    func kind(of g: AgeEffects.Geometry) -> Kind {
        let half = g.diameter / 2
        // No pixel centre of the canvas can lie in its square: nothing to draw.
        if g.centreX + half < 0 || g.centreY + half < 0 || g.centreX - half > canvasWidth
            || g.centreY - half > canvasHeight { return .invisible }
        if primitive == .quads || g.diameter > maxPointSize - FramePlanner.pointSizeMargin { return .quad }
        let m = FramePlanner.edgeMargin - guardBand
        let offViewport = g.centreX < m || g.centreY < m || g.centreX > canvasWidth - m || g.centreY > canvasHeight - m
        return offViewport ? .quad : .point
    }

    /// True when no stamp within `bounds` can need a quad at any age: every centre stays
    /// inside the canvas (after the largest drift) and every stamp stays narrower than a point.
    func pointsSuffice(for bounds: StampBounds) -> Bool {
        guard primitive == .points, !bounds.isEmpty else { return primitive == .points }
        // The widest a stamp gets is twice its size (the intro), and it drifts at most D.
        let widest = 2 * bounds.maxRadius * effects.pointScale * (effects.maxAge > 0 ? 2 : 1)
        let drift = effects.maxAge > 0 ? abs(effects.dissolveDistance) : 0
        let m = FramePlanner.edgeMargin + drift + 0.01 - guardBand
        return widest <= maxPointSize - FramePlanner.pointSizeMargin - 0.01
            && bounds.minX >= m && bounds.minY >= m
            && bounds.maxX <= canvasWidth - m && bounds.maxY <= canvasHeight - m
    }

    static let corners: [(Float, Float)] = [(-1, -1), (1, -1), (-1, 1), (-1, 1), (1, -1), (1, 1)]

    /// Plans `stamps`, which sit at `bufferBase + i` in point buffer `source`.
    ///
    /// Stamps that are not live are left out of the runs, unless `keepCulledInRuns`: then a
    /// point run may span them and the vertex shader culls them (a buffer that holds dead
    /// and unborn stamps is drawn with fewer calls that way).
    func plan(batch: Int, source: Int, stamps: UnsafeBufferPointer<SketchPoint>,
              rotations: UnsafeBufferPointer<Float>?, bufferBase: Int, keepCulledInRuns: Bool,
              quads: inout [stp_quad_vertex], runs: inout [DrawRun]) {
        for i in 0..<stamps.count {
            let p = stamps[i]
            let age = p.age + ageOffset
            let kind: Primitive
            if !effects.isLive(age: age) {
                guard keepCulledInRuns else { continue }
                kind = .points
            } else {
                switch self.kind(of: effects.geometry(of: p, age: age)) {
                case .point: kind = .points
                case .quad: kind = .quads
                case .invisible:
                    // Left out; in a resident buffer a point run may span it, as it spans
                    // dead stamps: drawn as a point it can fill no pixel of the canvas.
                    guard keepCulledInRuns else { continue }
                    kind = .points
                }
            }
            if kind == .points {
                extend(&runs, .points, batch, source, at: bufferBase + i)
            } else {
                extend(&runs, .quads, batch, source, at: quads.count / 6)
                let c = stp_sketch_point(x: p.x, y: p.y, radius: p.radius, age: p.age,
                                         dissolve_angle: p.dissolveAngle, red: p.red, green: p.green,
                                         blue: p.blue, alpha: p.alpha)
                let rotation = rotations?[i] ?? 0
                for (cx, cy) in FramePlanner.corners {
                    quads.append(stp_quad_vertex(point: c, corner_x: cx, corner_y: cy, rotation: rotation))
                }
            }
        }
    }

    /// A whole range as one point run, with no look at the stamps (see `pointsSuffice`).
    func planAllPoints(batch: Int, source: Int, first: Int, count: Int, runs: inout [DrawRun]) {
        guard count > 0 else { return }
        runs.append(DrawRun(primitive: .points, batch: batch, source: source, first: first, count: count))
    }

    @inline(__always)
    private func extend(_ runs: inout [DrawRun], _ kind: Primitive, _ batch: Int, _ source: Int, at first: Int) {
        if let last = runs.last, last.primitive == kind, last.batch == batch,
           kind == .quads || last.source == source, last.first + last.count == first {
            runs[runs.count - 1].count += 1
        } else {
            runs.append(DrawRun(primitive: kind, batch: batch, source: source, first: first, count: 1))
        }
    }
}

/// The extent of a set of stamps before age effects: centres and largest radius.
struct StampBounds: Equatable {
    var minX = Float.infinity, minY = Float.infinity
    var maxX = -Float.infinity, maxY = -Float.infinity
    var maxRadius: Float = 0

    var isEmpty: Bool { minX > maxX }

    mutating func add(_ p: SketchPoint) {
        minX = min(minX, p.x); maxX = max(maxX, p.x)
        minY = min(minY, p.y); maxY = max(maxY, p.y)
        maxRadius = max(maxRadius, p.radius)
    }

    /// False when no stamp inside can touch `box` at any age under `effects` (bounds that
    /// are not finite never rule a box out).
    func mayTouch(_ box: PixelBox, effects: AgeEffects) -> Bool {
        let reach = effects.reach(radius: maxRadius)
        let inside = minX - reach < Float(box.x1) && maxX + reach > Float(box.x0)
            && minY - reach < Float(box.y1) && maxY + reach > Float(box.y0)
        return inside || ![minX, maxX, minY, maxY, reach].allSatisfy(\.isFinite)
    }
}

/// What a frame needs to know of a batch's stamps, read in one pass (`stp_stamp_extent_of`):
/// their bounds, and their ages' range for `LiveStamps.allLive`.
struct StampExtent {
    let count: Int
    let bounds: StampBounds
    let minAge: Float, maxAge: Float
    /// Some age is NaN (such a stamp is never drawn).
    let nanAge: Bool

    init(_ stamps: UnsafeBufferPointer<SketchPoint>) {
        var e = stp_stamp_extent()
        if let base = stamps.baseAddress {
            stp_stamp_extent_of(UnsafeRawPointer(base).assumingMemoryBound(to: stp_sketch_point.self), stamps.count, &e)
        } else {
            stp_stamp_extent_of(nil, 0, &e)
        }
        count = stamps.count
        // The C pass leaves NaN out as StampBounds.add does; a radius below 0 counts as 0.
        var b = StampBounds()
        b.minX = e.min.0; b.minY = e.min.1
        b.maxX = e.max.0; b.maxY = e.max.1
        b.maxRadius = max(0, e.max.2)
        bounds = b
        minAge = e.min.3; maxAge = e.max.3
        nanAge = e.nan_age != 0
    }
}

/// A layer's stamps in runs of `size`, with each run's bounds: a box far from a run skips
/// its stamps unseen (`LayerView.window(touching:…)`).
struct StampBlocks {
    static let size = 64
    private(set) var bounds: [StampBounds] = []
    /// The stamps added.
    private(set) var count = 0

    mutating func add(_ p: SketchPoint) {
        if count % Self.size == 0 { bounds.append(StampBounds()) }
        bounds[bounds.count - 1].add(p)
        count += 1
    }
}

/// A resident layer as the planner sees it: its stamps (ages at frame 0) and the window
/// that may be live at the frame. No GL.
struct LayerView {
    var brush: BrushRef
    var stamps: [SketchPoint]
    var rotations: [Float]?
    var window: Range<Int>
    var bounds: StampBounds
    /// The stamps' runs, when the layer keeps them (all its stamps, or none).
    var blocks = StampBlocks()
}

extension FramePlanner {
    /// Plans `batches` drawn from the plan's own buffer: only the stamps live at
    /// `ageOffset` are packed into `plan.stamps`, in draw order, keeping their ages.
    func planImmediate(_ batches: [StampBatch], into plan: inout FramePlan) {
        plan.sources = [.immediate]
        // Batches are read in place, by index: `for batch in batches` (or `contains`, or a
        // lazy map) copies each one, a retain and a release of every field it holds.
        let anyRotation = batches.indices.contains { batches[$0].rotations != nil }
        plan.rotations = anyRotation ? [] : nil
        // Each batch's stamps in the plan, and their bounds where they all went in as they are
        // (else the bounds of those selected are taken below).
        var ranges: [(range: Range<Int>, bounds: StampBounds?)] = []
        ranges.reserveCapacity(batches.count)
        for b in batches.indices {
            plan.brushes.append(BrushRef(key: batches[b].brushKey, brush: batches[b].brush))
            let start = plan.stamps.count
            let extent = batches[b].stamps.withUnsafeBufferPointer { StampExtent($0) }
            let allLive = LiveStamps.allLive(extent, offset: ageOffset, effects: effects)
            if allLive && batches.count == 1 && !anyRotation {
                // The common case: the caller's array is the buffer (no copy on the CPU).
                plan.stamps = batches[b].stamps
                plan.stampsBorrowed = true
            } else if allLive {
                plan.stamps.append(contentsOf: batches[b].stamps)
                if anyRotation { plan.rotations!.append(contentsOf: batches[b].rotations ?? .init(repeating: 0, count: batches[b].stamps.count)) }
            } else {
                _ = batches[b].stamps.withUnsafeBufferPointer { stamps in
                    if let r = batches[b].rotations {
                        r.withUnsafeBufferPointer { rot in
                            LiveStamps.select(stamps, rotations: rot, offset: ageOffset, effects: effects, rebase: false,
                                              into: &plan.stamps, rotations: &plan.rotations)
                        }
                    } else {
                        LiveStamps.select(stamps, rotations: nil, offset: ageOffset, effects: effects, rebase: false,
                                          into: &plan.stamps, rotations: &plan.rotations)
                    }
                }
            }
            ranges.append((start..<plan.stamps.count, allLive ? extent.bounds : nil))
        }
        let rotations = plan.rotations ?? []
        plan.stamps.withUnsafeBufferPointer { all in
            rotations.withUnsafeBufferPointer { rot in
                for (index, (range, known)) in ranges.enumerated() {
                    let slice = UnsafeBufferPointer(rebasing: all[range])
                    if pointsSuffice(for: known ?? StampExtent(slice).bounds) {
                        // Nothing here can need a quad: one run, no look at each stamp.
                        planAllPoints(batch: index, source: 0, first: range.lowerBound, count: range.count,
                                      runs: &plan.runs)
                        continue
                    }
                    self.plan(batch: index, source: 0, stamps: slice,
                         rotations: anyRotation ? UnsafeBufferPointer(rebasing: rot[range]) : nil,
                         bufferBase: range.lowerBound, keepCulledInRuns: false, quads: &plan.quads, runs: &plan.runs)
                }
            }
        }
    }

    /// Plans resident layers, each drawn from its own buffer: a run may span dead or unborn
    /// stamps inside a layer's window (the shader culls them), so a layer is one draw unless
    /// some of its stamps need quads.
    func planLayers(_ layers: [LayerView], into plan: inout FramePlan) {
        for (index, layer) in layers.enumerated() {
            plan.brushes.append(layer.brush)
            plan.sources.append(.layer(index))
            let window = layer.window
            if pointsSuffice(for: layer.bounds) {
                planAllPoints(batch: index, source: index, first: window.lowerBound, count: window.count, runs: &plan.runs)
                continue
            }
            layer.stamps.withUnsafeBufferPointer { all in
                let slice = UnsafeBufferPointer(rebasing: all[window])
                if let rotations = layer.rotations {
                    rotations.withUnsafeBufferPointer { rot in
                        self.plan(batch: index, source: index, stamps: slice, rotations: UnsafeBufferPointer(rebasing: rot[window]),
                             bufferBase: window.lowerBound, keepCulledInRuns: true, quads: &plan.quads, runs: &plan.runs)
                    }
                } else {
                    self.plan(batch: index, source: index, stamps: slice, rotations: nil, bufferBase: window.lowerBound,
                         keepCulledInRuns: true, quads: &plan.quads, runs: &plan.runs)
                }
            }
        }
    }
}
