/// Memory a frame is read back into and read from again, frame after frame, without an
/// array made for each (a 4096² page is 64 MiB: a new one every frame costs its page faults
/// and, where a reader still holds the last, a copy). The owner decides who reads it when:
/// the renderer writes it only in `Renderer.readFrame(into:)`.
// Unchecked: the owner orders the renderer's writes (awaited) before its own reads (see above).
package final class ReadbackBuffer: @unchecked Sendable {
    package let bytes: UnsafeMutableRawBufferPointer

    package init(byteCount: Int) {
        bytes = .allocate(byteCount: byteCount, alignment: 16)
    }

    deinit { bytes.deallocate() }
}
