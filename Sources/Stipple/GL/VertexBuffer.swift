import CStipple

/// One GL array buffer that grows as needed and is refilled each frame.
///
/// A larger upload than the buffer holds reallocates it with `glBufferData`; anything
/// else is written in place with `glBufferSubData`, so a steady frame size allocates nothing.
final class VertexBuffer {
    let id: GLuint
    private(set) var capacity = 0

    init(gl: GL) { id = gl.genBuffer() }

    /// Replaces the buffer's contents with `count` elements of `values`.
    func upload<T>(_ gl: GL, _ values: UnsafeBufferPointer<T>) {
        let bytes = values.count * MemoryLayout<T>.stride
        gl.bindArrayBuffer(id)
        guard bytes > 0, let base = values.baseAddress else { return }
        if bytes > capacity {
            gl.bufferData(bytes: bytes, data: base, usage: GLenum(GL_DYNAMIC_DRAW))
            capacity = bytes
        } else {
            gl.bufferSubData(offset: 0, bytes: bytes, data: base)
        }
    }

    func delete(_ gl: GL) { gl.deleteBuffer(id) }
}
