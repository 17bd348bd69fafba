import CStipple

/// How a buffer refilled every frame is written (the benchmark measures each).
package enum BufferWrite: String, Sendable, CaseIterable {
    /// `glBufferSubData` in place; `glBufferData` only when the buffer must grow. The default:
    /// a steady frame size allocates nothing.
    case subData
    /// `glBufferData` with the data every frame: a new allocation each time.
    case bufferData
    /// Orphaning: `glBufferData(NULL)` then `glBufferSubData`, so the driver may hand out
    /// fresh storage instead of waiting for draws that still read the old.
    case orphan
}

/// One GL array buffer that grows as needed: refilled whole each frame (`upload`), or
/// appended to and kept (`append`, for resident stamps).
final class VertexBuffer {
    let id: GLuint
    /// Bytes the GL buffer can hold.
    private(set) var capacity = 0

    init(gl: GL) { id = gl.genBuffer() }

    /// Replaces the buffer's contents with `values`.
    func upload<T>(_ gl: GL, _ values: UnsafeBufferPointer<T>, write: BufferWrite = .subData) {
        let bytes = values.count * MemoryLayout<T>.stride
        gl.bindArrayBuffer(id)
        guard bytes > 0, let base = values.baseAddress else { return }
        switch write {
        case .subData where bytes <= capacity:
            gl.bufferSubData(offset: 0, bytes: bytes, data: base)
        case .subData, .bufferData:
            gl.bufferData(bytes: bytes, data: base, usage: GLenum(GL_DYNAMIC_DRAW))
            capacity = bytes
        case .orphan:
            gl.bufferData(bytes: max(bytes, capacity), data: nil, usage: GLenum(GL_STREAM_DRAW))
            capacity = max(bytes, capacity)
            gl.bufferSubData(offset: 0, bytes: bytes, data: base)
        }
    }

    /// Makes the buffer hold `values[0..<values.count]` when it already holds the first
    /// `kept` of them: uploads only the rest, unless the buffer must grow (then all of them,
    /// into twice the room, so growth is amortised). Returns whether it re-uploaded all.
    @discardableResult
    func append<T>(_ gl: GL, _ values: UnsafeBufferPointer<T>, kept: Int) -> Bool {
        let stride = MemoryLayout<T>.stride
        guard kept < values.count, let base = values.baseAddress else { return false }
        gl.bindArrayBuffer(id)
        var from = kept
        var whole = false
        if values.count * stride > capacity || kept == 0 {
            // Room for 16 at least: a live stroke is a layer of its own, and most hold a few stamps.
            capacity = max(values.count * 2, 16) * stride
            gl.bufferData(bytes: capacity, data: nil, usage: GLenum(GL_DYNAMIC_DRAW))
            from = 0
            whole = true
        }
        gl.bufferSubData(offset: from * stride, bytes: (values.count - from) * stride,
                         data: UnsafeRawPointer(base + from))
        return whole
    }

    func delete(_ gl: GL) { gl.deleteBuffer(id) }
}
