import CStipple

/// One draw call: `count` stamps from `first` of one buffer, with one batch's brush.
struct DrawRun: Equatable {
    var primitive: Primitive
    var batch: Int
    var first: Int
    var count: Int
}

/// Turns batches of stamps into vertex data and draw runs, in buffer order.
///
/// Live stamps go to the point buffer unless points cannot draw them right: wider than
/// the driver's largest point (it would be clamped), or centred off the canvas (some
/// drivers drop such a point). Those go to the quad buffer, six vertices each. Consecutive
/// stamps of one kind and batch share a run, so the common case is one draw a batch, and
/// the order of compositing is kept (SPEC §4).
struct DrawPlanner {
    var effects: AgeEffects
    var primitive: Primitive
    var maxPointSize: Float
    var canvasWidth: Float
    var canvasHeight: Float
    var ageOffset: Float

    /// Margins keep the CPU's decision safe from the GPU's rounding of the same math.
    static let pointSizeMargin: Float = 2
    static let edgeMargin: Float = 1

    @inline(__always)
    func needsQuad(_ g: AgeEffects.Geometry) -> Bool {
        if primitive == .quads { return true }
        if g.diameter > maxPointSize - DrawPlanner.pointSizeMargin { return true }
        let m = DrawPlanner.edgeMargin
        return g.centreX < m || g.centreY < m || g.centreX > canvasWidth - m || g.centreY > canvasHeight - m
    }

    static let corners: [(Float, Float)] = [(-1, -1), (1, -1), (-1, 1), (-1, 1), (1, -1), (1, 1)]

    func plan(_ batches: [StampBatch], points: inout [SketchPoint], quads: inout [stp_quad_vertex],
              runs: inout [DrawRun]) {
        points.removeAll(keepingCapacity: true)
        quads.removeAll(keepingCapacity: true)
        runs.removeAll(keepingCapacity: true)
        for (index, batch) in batches.enumerated() {
            for p in batch.stamps {
                let age = p.age + ageOffset
                guard effects.isLive(age: age) else { continue }
                let kind: Primitive = needsQuad(effects.geometry(of: p, age: age)) ? .quads : .points
                if kind == .points {
                    extend(&runs, kind, index, at: points.count)
                    points.append(p)
                } else {
                    extend(&runs, kind, index, at: quads.count / 6)
                    let c = stp_sketch_point(x: p.x, y: p.y, radius: p.radius, age: p.age,
                                             dissolve_angle: p.dissolveAngle, red: p.red, green: p.green,
                                             blue: p.blue, alpha: p.alpha)
                    for (cx, cy) in DrawPlanner.corners {
                        quads.append(stp_quad_vertex(point: c, corner_x: cx, corner_y: cy))
                    }
                }
            }
        }
    }

    @inline(__always)
    private func extend(_ runs: inout [DrawRun], _ kind: Primitive, _ batch: Int, at first: Int) {
        if let last = runs.last, last.primitive == kind, last.batch == batch, last.first + last.count == first {
            runs[runs.count - 1].count += 1
        } else {
            runs.append(DrawRun(primitive: kind, batch: batch, first: first, count: 1))
        }
    }
}
