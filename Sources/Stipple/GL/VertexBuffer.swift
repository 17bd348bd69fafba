import CStipple

/// How a buffer refilled every frame is written (the benchmark measures each).
public enum VertexUpload: String, Sendable, CaseIterable {
    /// `glBufferSubData` in place; `glBufferData` only when the buffer must grow. The default:
    /// a steady frame size allocates nothing.
    case subData
    /// `glBufferData` with the data every frame: a new allocation each time.
    case bufferData
    /// Orphaning: `glBufferData(NULL)` then `glBufferSubData`, so the driver may hand out
    /// fresh storage instead of waiting for draws that still read the old.
    case orphan
}

/// One GL array buffer that grows as needed and is refilled each frame.
final class VertexBuffer {
    let id: GLuint
    private(set) var capacity = 0

    init(gl: GL) { id = gl.genBuffer() }

    /// Replaces the buffer's contents with `count` elements of `values`.
    func upload<T>(_ gl: GL, _ values: UnsafeBufferPointer<T>, strategy: VertexUpload = .subData) {
        let bytes = values.count * MemoryLayout<T>.stride
        gl.bindArrayBuffer(id)
        guard bytes > 0, let base = values.baseAddress else { return }
        switch strategy {
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

    func delete(_ gl: GL) { gl.deleteBuffer(id) }
}
