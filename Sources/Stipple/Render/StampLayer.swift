import CStipple

/// Names a layer of a `Renderer`.
public struct LayerID: Hashable, Sendable, CustomStringConvertible {
    let value: Int
    public var description: String { "layer \(value)" }
}

/// How a layer's frame reaches GL.
public enum UploadStrategy: String, Sendable, CaseIterable {
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
/// backwards — true of a stroke, since one `maxAge` holds for all (SPEC §3) — the window is
/// exactly the live stamps. Its start moves forward as stamps die, and the dead prefix is
/// dropped from memory once it is half the layer, re-uploading the live rest (amortised O(k)).
/// Time is expected to move forward: a dropped stamp does not come back for an earlier frame.
final class StampLayer {
    let brushKey: String
    let brush: Brush
    /// The CPU copy of the buffer: `stamps[i]` is at index i in GL.
    private(set) var stamps: [SketchPoint] = []
    private(set) var rotations: [Float]?
    /// How many stamps GL has: `stamps[uploaded...]` are still to go.
    private(set) var uploaded = 0
    private(set) var capacity = 0
    /// The first stamp that may be live.
    private(set) var head = 0
    private(set) var bounds = StampBounds()
    let buffer: VertexBuffer
    let rotationBuffer: VertexBuffer

    init(gl: GL, brushKey: String, brush: Brush) {
        self.brushKey = brushKey
        self.brush = brush
        buffer = VertexBuffer(gl: gl)
        rotationBuffer = VertexBuffer(gl: gl)
    }

    func append(_ new: [SketchPoint], rotations newRotations: [Float]?) {
        if newRotations != nil && rotations == nil {
            rotations = [Float](repeating: 0, count: stamps.count)
            uploaded = 0  // the rotation buffer must be filled from the start
        }
        for p in new { bounds.add(p) }
        stamps.append(contentsOf: new)
        if rotations != nil { rotations!.append(contentsOf: newRotations ?? [Float](repeating: 0, count: new.count)) }
    }

    /// Moves the window's start past the stamps dead at `frame`, and drops them when they
    /// are most of the layer.
    func advance(to frame: Float, effects: AgeEffects) {
        guard effects.maxAge > 0 else { return }
        while head < stamps.count && stamps[head].age + frame >= effects.maxAge { head += 1 }
        if head >= 1024 && head * 2 >= stamps.count {
            stamps.removeFirst(head)
            rotations?.removeFirst(head)
            head = 0
            uploaded = 0
            bounds = StampBounds()
            for p in stamps { bounds.add(p) }
        }
    }

    /// The stamps that may be live at `frame`: `head..<end`, with unborn ones cut off the end.
    func window(at frame: Float) -> Range<Int> {
        var end = stamps.count
        while end > head && stamps[end - 1].age + frame < 0 { end -= 1 }
        return head..<end
    }

    /// Uploads what GL does not have yet: only the new stamps, unless the buffer must grow
    /// (then everything, into a buffer twice the size) or was compacted.
    func sync(_ gl: GL) {
        guard uploaded < stamps.count else { return }
        let stride = SketchPoint.byteSize
        if stamps.count > capacity || uploaded == 0 {
            capacity = max(stamps.count * 2, 256)
            gl.bindArrayBuffer(buffer.id)
            gl.bufferData(bytes: capacity * stride, data: nil, usage: GLenum(GL_DYNAMIC_DRAW))
            if rotations != nil {
                gl.bindArrayBuffer(rotationBuffer.id)
                gl.bufferData(bytes: capacity * 4, data: nil, usage: GLenum(GL_DYNAMIC_DRAW))
            }
            uploaded = 0
        }
        let count = stamps.count - uploaded
        gl.bindArrayBuffer(buffer.id)
        stamps.withUnsafeBytes { raw in
            gl.bufferSubData(offset: uploaded * stride, bytes: count * stride, data: raw.baseAddress! + uploaded * stride)
        }
        if let rotations {
            gl.bindArrayBuffer(rotationBuffer.id)
            rotations.withUnsafeBytes { raw in
                gl.bufferSubData(offset: uploaded * 4, bytes: count * 4, data: raw.baseAddress! + uploaded * 4)
            }
        }
        uploaded = stamps.count
    }

    func delete(_ gl: GL) {
        buffer.delete(gl)
        rotationBuffer.delete(gl)
    }
}
