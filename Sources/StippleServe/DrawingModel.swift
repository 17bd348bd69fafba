import Stipple

/// The drawing's scene as entries are added: the script's, then each stroke and session
/// event drawn live.
struct DrawingModel: Sendable {
    private(set) var scene: Scene
    /// The frame shown: the first at which every entry has acted (the canvas settles there).
    private(set) var frame: Int
    private let brushes: [String: (key: String, brush: Brush)]
    private let script: Script
    /// Live strokes number after the script's own stroke entries, for their dissolve angles.
    private let firstIndex: Int
    private(set) var liveStrokes = 0
    /// Each entry's pixels (nil for one with no stamps), for the tiles an undo touches.
    private(set) var boxes: [ServedDrawing.Box?]
    /// Whether an entry meets the canvas other than stamp by stamp (a stroke layer, an
    /// effect, detect edges): such an entry reads pixels beyond its own stamps.
    private let hasModes: Bool
    /// The entries shown at `frame`, in draw order.
    private var shown: [Int]
    /// How far a change spreads past its pixels through stroke layers that read the canvas
    /// around them (live strokes, without modes, do not widen it).
    private let spread: Int
    /// The bytes every entry's stamps take.
    private(set) var stampBytes = 0

    init(script: Script) throws {
        self.script = script
        scene = try Scene(script: script)
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
        stampBytes = scene.batches.reduce(0) { $0 + $1.stamps.count * SketchPoint.byteSize }
    }

    /// The scene as a view of `box` draws it: the entries shown whose stamps can touch `box`,
    /// in order, and nothing of the session left to replay, so that drawing a tile costs its
    /// own stamps, not the whole drawing's. The same pixels inside `box`: every stamp is
    /// blended on its own, and those left out touch nothing there. The whole scene when an
    /// entry has a mode (it reads pixels beyond its stamps).
    func scene(touching box: ServedDrawing.Box) -> Scene {
        guard !hasModes else { return scene }
        var culled = scene
        culled.batches = shown.compactMap { i in boxes[i].map { $0.intersects(box) } == true ? scene.batches[i] : nil }
        culled.session = SessionTimeline(ops: [], startFrame: scene.session.startFrame)
        return culled
    }

    /// Adds the stroke's stamps as an entry after every other; returns its pixels.
    mutating func commitStroke(_ start: TouchEvent.StrokeStart, _ samples: [TouchSample]) -> ServedDrawing.Box? {
        let stamps = StrokeBuilder.stamps(for: samples, style: start.style, fps: script.touchRate, seed: script.seed,
                                          strokeIndex: firstIndex + liveStrokes)
        liveStrokes += 1
        let b = brushes[start.brush]!
        let turned = stamps.contains { $0.rotation != 0 }
        let batch = StampBatch(brushKey: b.key, brush: b.brush, stamps: stamps.map(\.point),
                               rotations: turned ? stamps.map(\.rotation) : nil)
        scene.batches.append(batch)
        stampBytes += batch.stamps.count * SketchPoint.byteSize
        let box = DrawingModel.box(of: batch.stamps, effects: scene.effects)
        boxes.append(box)
        let born = stamps.map { $0.point.age }.min().map { -Double($0) } ?? 0
        frame = max(frame, Int(born.rounded(.up)) + 1)
        shown = scene.state(atFrame: frame).entries
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
        guard scene.canvas.background == other.scene.canvas.background else { return nil }
        let (a, b) = (Set(scene.state(atFrame: frame).entries), Set(other.scene.state(atFrame: other.frame).entries))
        var box: ServedDrawing.Box?
        func add(_ x: ServedDrawing.Box?) { if let x { box = box?.union(x) ?? x } }
        for i in 0..<max(scene.batches.count, other.scene.batches.count) {
            let mine = i < scene.batches.count ? scene.batches[i] : nil, theirs = i < other.scene.batches.count ? other.scene.batches[i] : nil
            let same = mine != nil && theirs != nil && mine!.stamps == theirs!.stamps && mine!.brushKey == theirs!.brushKey
                && mine!.mode == theirs!.mode && mine!.rotations == theirs!.rotations && a.contains(i) == b.contains(i)
            if !same {
                if i < boxes.count { add(boxes[i]) }
                if i < other.boxes.count { add(other.boxes[i]) }
            }
        }
        return (spread >= other.spread ? self : other).spreading(box) ?? ServedDrawing.Box(x0: 0, y0: 0, x1: 0, y1: 0)
    }

    /// Appends an undo, redo or clear; returns the pixels of the entries it hid or showed.
    mutating func applySession(_ op: SessionOp) -> ServedDrawing.Box? {
        let before = Set(scene.state(atFrame: max(frame, op.frame + 1)).entries)
        scene.session.ops.append(op)
        frame = max(frame, op.frame + 1)
        shown = scene.state(atFrame: frame).entries
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
