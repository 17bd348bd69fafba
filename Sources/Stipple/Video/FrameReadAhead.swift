import CStipple
import Foundation

/// A y4m stream's frames read on a thread of its own, one frame ahead of the bake: while the
/// bake composites and writes frame n, frame n + 1 is copied in from the file or pipe.
/// Frames move between the two without a copy: the frame taken hands its buffer back to be
/// read into. Memory: one frame more than reading in line.
///
/// It reads at most `limit` frames, so a bake of some of a stream's frames never takes one
/// it will not write. Errors reach the bake in order, after every frame read before them.
// Unchecked: the reader and the frames in flight are the read thread's until handed over
// under `condition`; the bake's loop alone calls `next`, `finish` and `cancel`.
final class FrameReadAhead: @unchecked Sendable {
    private let reader: Y4MReader
    private let condition = NSCondition()
    /// Frames read and not yet taken, oldest first; buffers to read into.
    private var ready: [Y4MFrame] = [], spare: [Y4MFrame]
    /// Frames the thread may still read.
    private var remaining: Int
    /// The stream failed: the thread's last read threw this.
    private var failure: InputError?
    /// The bake stopped early: the thread ends after the read it is in.
    private var cancelled = false
    /// The thread ended: the stream ended or failed, `remaining` reached 0, or it was cancelled.
    private var exited = false
    /// The thread is inside the reader, reading a frame.
    private var reading = false

    /// Starts reading `reader`'s next frames, at most `limit`.
    init(reader: Y4MReader, limit: Int) {
        self.reader = reader
        remaining = max(0, limit)
        spare = [Y4MFrame(header: reader.header)]
        let thread = Thread { [self] in
            _ = stp_thread_set_name("stipple-read")
            run()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    private func run() {
        condition.lock()
        while true {
            while spare.isEmpty && !cancelled { condition.wait() }
            if cancelled || remaining == 0 { break }
            remaining -= 1
            var frame = spare.removeLast()
            reading = true
            condition.broadcast()
            condition.unlock()
            var read = false, error: InputError?
            do throws(InputError) { read = try reader.read(into: &frame) } catch let e { error = e }
            condition.lock()
            reading = false
            guard read else {
                failure = error
                break
            }
            ready.append(frame)
            condition.broadcast()
        }
        exited = true
        condition.broadcast()
        condition.unlock()
    }

    /// Moves the next frame into `frame` (a frame of this stream), whose buffer goes back to
    /// be read into. Returns false at the end of the stream or of `limit`; throws the
    /// reader's error where the stream failed.
    func next(into frame: inout Y4MFrame) throws(InputError) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !exited { condition.wait() }
        guard !ready.isEmpty else {
            if let failure { throw failure }
            return false
        }
        swap(&frame, &ready[0])
        spare.append(ready.removeFirst())
        condition.broadcast()
        return true
    }

    /// Waits until the thread is inside the reader, reading a frame (tests stop it there).
    func waitUntilReading() {
        condition.lock()
        while !reading && !exited { condition.wait() }
        condition.unlock()
    }

    /// Waits for the thread to end: every frame of `limit` was taken, or the stream ended.
    func finish() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while !exited { condition.wait() }
        condition.unlock()
    }

    /// Stops reading without waiting: the thread ends once the read it may be in returns (a
    /// pipe may hold it), taking at most one frame more from the stream.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
