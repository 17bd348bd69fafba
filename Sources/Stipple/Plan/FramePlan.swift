import CStipple

/// What one frame draws, decided on the CPU without GL: which buffers hold the stamps,
/// which brush each batch uses, and the draw runs in compositing order — points from a
/// buffer, or quads whose vertices the plan carries. Every way of drawing (immediate
/// stamps, resident layers, re-uploaded ages, baking onto a surface) is a plan, and one
/// path in `GL/` (`FrameDrawer`) executes plans.
struct FramePlan {
    /// A buffer that point runs draw from.
    enum Source: Equatable {
        /// This plan's own `stamps` (and `rotations`), uploaded when the frame is drawn.
        case immediate
        /// The frame's n-th resident layer, already in GL.
        case layer(Int)
    }

    var settings = RenderSettings()
    /// Added to every stamp's age by the shader (`uAgeOffset`): the frame number for
    /// stamps kept with their ages at frame 0, 0 for stamps aged already.
    var ageOffset: Float = 0
    /// One brush a batch (a draw entry or a layer), by batch index.
    var brushes: [BrushRef] = []
    /// Point buffers, by source index.
    var sources: [Source] = []
    /// The immediate stamps, live ones only, packed in draw order.
    var stamps: [SketchPoint] = []
    /// True when `stamps` is a caller's array taken as it is (no copy): the next frame
    /// must not reuse its storage.
    var stampsBorrowed = false
    /// Their brush turns, when any batch turns its brush.
    var rotations: [Float]?
    /// The draw calls, in compositing order.
    var runs: [DrawRun] = []
    /// Six vertices a stamp that points cannot draw right.
    var quads: [stp_quad_vertex] = []

    /// Empties the plan for another frame, keeping its storage.
    mutating func reset(settings: RenderSettings, ageOffset: Float) {
        self.settings = settings
        self.ageOffset = ageOffset
        brushes.removeAll(keepingCapacity: true)
        sources.removeAll(keepingCapacity: true)
        if stampsBorrowed { stamps = [] } else { stamps.removeAll(keepingCapacity: true) }
        stampsBorrowed = false
        rotations = nil
        runs.removeAll(keepingCapacity: true)
        quads.removeAll(keepingCapacity: true)
    }

    /// True when some point run reads the immediate stamps (they must then be uploaded).
    var drawsImmediatePoints: Bool {
        runs.contains { $0.primitive == .points && sources[$0.source] == .immediate }
    }
}

/// A brush as the plan names it: the key caches its texture (one upload per renderer).
struct BrushRef: Equatable {
    var key: String
    var brush: Brush
}

/// One draw call: `count` stamps from `first` of one buffer, with one batch's brush.
struct DrawRun: Equatable {
    var primitive: Primitive
    /// Which batch (brush) the stamps belong to.
    var batch: Int
    /// For points, which of the plan's sources; unused for quads.
    var source: Int
    /// In stamps: for points, the index in the source buffer; for quads, in the quad buffer.
    var first: Int
    var count: Int
}
