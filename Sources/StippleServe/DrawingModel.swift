import Stipple

/// The drawing's scene as entries are added: the script's, then each stroke and session
/// event drawn live.
///
/// A stroke drawn live is kept as its touch samples, not its stamps: about a tenth of the
/// bytes (a stroke of 40 samples lays some 400 stamps of 36 bytes each), so the drawing's
/// memory grows with what people drew, not with how densely it is stamped. Its stamps are
/// laid again, the same each time, when a tile that it touches is drawn.
struct DrawingModel: Sendable {
    /// The script's scene, with the session events drawn live appended to its own.
    private var base: Scene
    /// The frame shown: the first at which every entry has acted (the canvas settles there).
    private(set) var frame: Int
    private let brushes: [String: (key: String, brush: Brush)]
    private let script: Script
    /// Live strokes number after the script's own stroke entries, for their dissolve angles.
    private let firstIndex: Int
    /// The strokes drawn live, entries after the script's.
    private var live: [LiveStroke] = []
    var liveStrokes: Int { live.count }
    /// Each entry's pixels (nil for one with no stamps), for the tiles an undo touches.
    private(set) var boxes: [ServedDrawing.Box?]
    /// Whether an entry meets the canvas other than stamp by stamp (a stroke layer, an
    /// effect, detect edges): such an entry reads pixels beyond its own stamps.
    let hasModes: Bool
    /// Entries so far, shown or not.
    var entries: Int { boxes.count }
    /// The entries shown at `frame`, in draw order.
    private var shown: [Int]
    /// How far a change spreads past its pixels through stroke layers that read the canvas
    /// around them (live strokes, without modes, do not widen it).
    private let spread: Int
    /// The bytes the drawing is kept in: the script's stamps, the live strokes' samples.
    private(set) var bytes = 0

    /// A stroke drawn live, as drawn: what its stamps are laid from.
    struct LiveStroke: Sendable, Equatable {
        var start: TouchEvent.StrokeStart
        var samples: [TouchSample]
        /// Its brush's key: a brush file changed under the same name changes the stroke.
        var brushKey: String
        /// Its number among the drawing's strokes (its dissolve angle, its jitter).
        var index: Int
        var bytes: Int { samples.count * MemoryLayout<TouchSample>.stride }
    }

    init(script: Script) throws {
        self.script = script
        let scene = try Scene(script: script)
        base = scene
        brushes = try Scene.brushes(of: script)
        firstIndex = script.draw.filter { $0.stroke != nil }.count
        frame = scene.timeline.settledFrame
        let effects = scene.effects
        let (stills, settled) = (scene, frame)
        // A stroke layer changes more than its stamps' squares (a shadow's cast).
        boxes = scene.batches.indices.map { i in
            let stamps = DrawingModel.box(of: stills.batches[i].stamps, effects: effects)
            guard let r = stills.layerRegion(ofEntry: i, atFrame: settled) else { return stamps }
            let region = ServedDrawing.Box(x0: r.x0, y0: r.y0, x1: r.x1, y1: r.y1)
            return stamps.map { $0.union(region) } ?? region
        }
        hasModes = scene.batches.contains { $0.mode != nil }
        spread = hasModes ? scene.changeSpread(atFrame: frame) : 0
        shown = scene.state(atFrame: frame).entries
        bytes = scene.batches.reduce(0) { $0 + $1.stamps.count * SketchPoint.byteSize }
    }

    /// The whole scene: every live stroke's stamps laid (for drawing all of it at once).
    var scene: Scene {
        var whole = base
        whole.batches += live.map(batch(of:))
        return whole
    }

    /// The stamps of a stroke drawn live, laid from its samples as when it was drawn.
    private func batch(of stroke: LiveStroke) -> StampBatch {
        let (points, rotations) = MadeStamps.split(StrokeBuilder.stamps(for: stroke.samples, style: stroke.start.style,
                                                                         fps: script.touchRate, seed: script.seed,
                                                                         strokeIndex: stroke.index))
        return StampBatch(brushKey: stroke.brushKey, brush: brushes[stroke.start.brush]!.brush, stamps: points,
                          rotations: rotations)
    }

    /// Entry `i`'s stamps.
    private func entry(_ i: Int) -> StampBatch {
        i < base.batches.count ? base.batches[i] : batch(of: live[i - base.batches.count])
    }

    /// The scene as a view of `box` draws it: the entries shown whose stamps can touch `box`,
    /// in order, and nothing of the session left to replay, so that drawing a tile costs its
    /// own stamps, not the whole drawing's. The same pixels inside `box`: every stamp is
    /// blended on its own, and those left out touch nothing there. The whole scene when an
    /// entry has a mode (it reads pixels beyond its stamps).
    /// From entry `first` on when given (those before are drawn already): never with a mode.
    func scene(touching box: ServedDrawing.Box, from first: Int = 0) -> Scene {
        guard !hasModes else { return scene }
        var culled = base
        culled.batches = shown.compactMap { i in i >= first && boxes[i].map { $0.intersects(box) } == true ? entry(i) : nil }
        culled.session = SessionTimeline(ops: [], startFrame: base.session.startFrame)
        return culled
    }

    /// Adds the stroke as an entry after every other; returns its pixels.
    mutating func commitStroke(_ start: TouchEvent.StrokeStart, _ samples: [TouchSample]) -> ServedDrawing.Box? {
        let stroke = LiveStroke(start: start, samples: samples, brushKey: brushes[start.brush]!.key, index: firstIndex + live.count)
        let stamps = batch(of: stroke).stamps
        live.append(stroke)
        bytes += stroke.bytes
        let box = DrawingModel.box(of: stamps, effects: base.effects)
        boxes.append(box)
        let born = stamps.map(\.age).min().map { -Double($0) } ?? 0
        frame = max(frame, Int(born.rounded(.up)) + 1)
        shown = base.session.state(atFrame: frame, count: boxes.count).entries
        return spreading(box)
    }

    /// `box` grown by how far a change there spreads through the drawing's stroke layers.
    private func spreading(_ box: ServedDrawing.Box?) -> ServedDrawing.Box? {
        guard spread > 0, let box else { return box }
        return ServedDrawing.Box(x0: box.x0 - spread, y0: box.y0 - spread, x1: box.x1 + spread, y1: box.y1 + spread)
    }

    /// The pixels that differ between this drawing and `other` (of the same canvas): the
    /// entries whose stamps, brush or mode differ, or that one of them shows and the other
    /// not, before and after; nil (all of them) when the background changed.
    func changed(to other: DrawingModel) -> ServedDrawing.Box? {
        guard base.canvas.background == other.base.canvas.background else { return nil }
        let (a, b) = (Set(shown), Set(other.shown))
        var box: ServedDrawing.Box?
        func add(_ x: ServedDrawing.Box?) { if let x { box = box?.union(x) ?? x } }
        func same(_ i: Int) -> Bool {
            guard i < boxes.count, i < other.boxes.count, a.contains(i) == b.contains(i) else { return false }
            let (n, m) = (base.batches.count, other.base.batches.count)
            switch (i < n, i < m) {
            case (true, true):
                let (mine, theirs) = (base.batches[i], other.base.batches[i])
                return mine.stamps == theirs.stamps && mine.brushKey == theirs.brushKey && mine.mode == theirs.mode
                    && mine.rotations == theirs.rotations
            case (false, false):
                // Laid the same way from the same samples: the same stamps.
                return live[i - n] == other.live[i - m] && script.touchRate == other.script.touchRate && script.seed == other.script.seed
            default:
                return false
            }
        }
        for i in 0..<max(boxes.count, other.boxes.count) where !same(i) {
            if i < boxes.count { add(boxes[i]) }
            if i < other.boxes.count { add(other.boxes[i]) }
        }
        return (spread >= other.spread ? self : other).spreading(box) ?? ServedDrawing.Box(x0: 0, y0: 0, x1: 0, y1: 0)
    }

    /// Appends an undo, redo or clear; returns the pixels of the entries it hid or showed.
    mutating func applySession(_ op: SessionOp) -> ServedDrawing.Box? {
        let count = boxes.count
        let before = Set(base.session.state(atFrame: max(frame, op.frame + 1), count: count).entries)
        base.session.ops.append(op)
        frame = max(frame, op.frame + 1)
        shown = base.session.state(atFrame: frame, count: count).entries
        let after = Set(shown)
        return spreading(before.symmetricDifference(after).compactMap { boxes[$0] }.reduce(nil as ServedDrawing.Box?) { $0?.union($1) ?? $1 })
    }

    /// The canvas pixels `stamps` can touch (drawn still: the drawing does not age).
    static func box(of stamps: [SketchPoint], effects: AgeEffects) -> ServedDrawing.Box? {
        guard !stamps.isEmpty else { return nil }
        var (x0, y0, x1, y1, r) = (Float.infinity, Float.infinity, -Float.infinity, -Float.infinity, Float(0))
        for p in stamps {
            x0 = min(x0, p.x); x1 = max(x1, p.x); y0 = min(y0, p.y); y1 = max(y1, p.y); r = max(r, p.radius)
        }
        let reach = 2 * r * abs(effects.pointScale) + 2
        guard [x0, x1, y0, y1, reach].allSatisfy(\.isFinite) else { return nil }
        return ServedDrawing.Box(x0: Int((x0 - reach).rounded(.down)), y0: Int((y0 - reach).rounded(.down)),
                   x1: Int((x1 + reach).rounded(.up)) + 1, y1: Int((y1 + reach).rounded(.up)) + 1)
    }

}
