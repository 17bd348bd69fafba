
/// Names a layer of a `Renderer`.
public struct LayerID: Hashable, Sendable, CustomStringConvertible {
    let value: Int
    /// "layer N".
    public var description: String { "layer \(value)" }
}

/// How a layer's frame reaches GL.
package enum UploadStrategy: String, Sendable, CaseIterable {
    /// Stamps stay resident with their ages at frame 0; the shader adds the frame
    /// (`age = aAge + uAgeOffset`). A tick uploads only new stamps: O(k) bytes.
    case resident
    /// Periscope's way: every frame, every live stamp is uploaded again with its current
    /// age: O(L) bytes. Kept to measure against.
    case reuploadAges = "reupload"
}

/// One brush's stamps, resident in a GL buffer in the order they were added (a stroke,
/// or a script's draw entry).
///
/// Stamps are kept with their ages at frame 0 (`age = −birth frame`). A frame draws the
/// window between the leading run of dead stamps and the trailing run of unborn ones; the
/// shader culls whatever dead or unborn stamps are left inside. When births never go
/// backwards — true of a stroke, since one `maxAge` holds for all (docs/reference.md §3) — the window is
/// exactly the live stamps. Its start moves forward as stamps die, and the dead prefix is
/// dropped from memory once it is half the layer, re-uploading the live rest (amortised O(k)).
/// Time is expected to move forward: a dropped stamp does not come back for an earlier frame.
final class StampLayer {
    let brush: BrushRef
    /// The CPU copy of the buffer: `stamps[i]` is at index i in GL.
    private(set) var stamps: [SketchPoint] = []
    private(set) var rotations: [Float]?
    /// How many stamps GL has: `stamps[uploaded...]` are still to go.
    private(set) var uploaded = 0
    /// The first stamp that may be live.
    private(set) var head = 0
    /// How many times the dead prefix was dropped (each time, `stamps` starts afresh).
    private(set) var compactions = 0
    private(set) var bounds = StampBounds()
    private(set) var blocks = StampBlocks()
    /// True while every stamp is born no earlier than the one before it (ages never rise
    /// along the layer, none NaN): the stamps born by any frame are then a prefix.
    private(set) var bornInOrder = true
    let buffer: VertexBuffer
    let rotationBuffer: VertexBuffer
    /// The layer's brush mode, and its edge reference once read (docs/brush-modes.md).
    var mode: StrokeMode?
    var edgeReference: EdgeReference?
    /// The clock frame from which `edgeReference` holds, when it was given from the scene
    /// (the frame the stroke's first sample is born); nil when the layer read it itself.
    var edgeReferenceFrom: Float?

    /// The edge reference to draw with at clock frame `f`: nil when it must be read now.
    func edgeReference(at f: Float) -> EdgeReference? {
        if let from = edgeReferenceFrom, f < from { return nil }
        return edgeReference
    }

    init(gl: GL, brush: BrushRef) {
        self.brush = brush
        buffer = VertexBuffer(gl: gl)
        rotationBuffer = VertexBuffer(gl: gl)
    }

    func append(_ new: [SketchPoint], rotations newRotations: [Float]?) {
        if newRotations != nil && rotations == nil {
            rotations = [Float](repeating: 0, count: stamps.count)
            uploaded = 0  // the rotation buffer must be filled from the start
        }
        var last = stamps.last?.age ?? .infinity
        for p in new {
            bounds.add(p)
            blocks.add(p)
            if !(p.age <= last) { bornInOrder = false }
            last = p.age
        }
        stamps.append(contentsOf: new)
        if rotations != nil { rotations!.append(contentsOf: newRotations ?? [Float](repeating: 0, count: new.count)) }
    }

    /// Moves the window's start past the stamps dead at `frame`, and drops them when they
    /// are most of the layer.
    func advance(to frame: Float, effects: AgeEffects) {
        while head < stamps.count && effects.isDead(age: stamps[head].age + frame) { head += 1 }
        if head >= 1024 && head * 2 >= stamps.count {
            stamps.removeFirst(head)
            rotations?.removeFirst(head)
            head = 0
            compactions += 1
            uploaded = 0
            bounds = StampBounds()
            blocks = StampBlocks()
            for p in stamps { bounds.add(p); blocks.add(p) }
        }
    }

    /// The stamps that may be live at `frame`: `head..<end`, with unborn ones cut off the end.
    func window(at frame: Float, effects: AgeEffects) -> Range<Int> {
        if let born = bornCount(at: frame, effects: effects) { return head..<max(head, born) }
        var end = stamps.count
        while end > head && effects.isUnborn(age: stamps[end - 1].age + frame) { end -= 1 }
        return head..<end
    }

    /// True when the stamps drawn through `window` are the layer's first ones and only ever
    /// grow from frame to frame: the layer does not age, its stamps are born in order, and the
    /// window starts at its first stamp. What was drawn of it can then be kept and added to.
    func onlyGrows(window: Range<Int>, effects: AgeEffects) -> Bool {
        effects.maxAge == 0 && bornInOrder && window.lowerBound == 0
    }

    /// How many stamps are born by `frame` when they are born in order (a prefix of the
    /// layer, found by bisection); nil otherwise.
    func bornCount(at frame: Float, effects: AgeEffects) -> Int? {
        guard bornInOrder else { return nil }
        var (lo, hi) = (0, stamps.count)
        while lo < hi {
            let mid = (lo + hi) / 2
            if effects.isUnborn(age: stamps[mid].age + frame) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// True when no stamp is left that can be drawn at `frame` or later: every one dead.
    func isSpent(at frame: Float, effects: AgeEffects) -> Bool {
        effects.maxAge > 0 && !stamps[head...].contains { !effects.isDead(age: $0.age + frame) }
    }

    /// The layer as a frame plan sees it at `frame`.
    func view(at frame: Float, effects: AgeEffects) -> LayerView {
        LayerView(brush: brush, stamps: stamps, rotations: rotations, window: window(at: frame, effects: effects),
                  bounds: bounds, blocks: blocks)
    }

    /// Uploads what GL does not have yet: only the new stamps, unless a buffer must grow or
    /// the layer was compacted (then everything, into twice the room).
    func sync(_ gl: GL) {
        guard uploaded < stamps.count else { return }
        _ = stamps.withUnsafeBufferPointer { buffer.append(gl, $0, kept: uploaded) }
        _ = rotations?.withUnsafeBufferPointer { rotationBuffer.append(gl, $0, kept: uploaded) }
        uploaded = stamps.count
    }

    /// The buffers a frame binds for this layer's point runs.
    var pointBuffers: PointBuffers { PointBuffers(stamps: buffer, rotations: rotations == nil ? nil : rotationBuffer) }

    func delete(_ gl: GL) {
        buffer.delete(gl)
        rotationBuffer.delete(gl)
    }
}
