import Foundation

/// Live touch events as JSON lines (docs/video.md), read while a video streams.
///
/// A regular file is read and checked whole before the first frame: its events are known,
/// so the bake is deterministic and a bad line stops it before anything is written. A pipe
/// or FIFO ("-" is stdin) is read by a thread of its own into a queue; the bake takes what
/// has arrived and never waits on the source, so a FIFO that stays silent does not stall the
/// video. Errors name `file:line:column`.
// Unchecked: every field the reader thread and the bake share is guarded by `lock`.
package final class EventStream: @unchecked Sendable {
    package let name: String
    private let lock = NSCondition()
    /// Whether the source is open: a FIFO's writer has opened it (or it is stdin, or a file).
    private var opened = false
    private var queue: [TouchEvent] = []
    private var head = 0
    private var failure: InputError?
    private var finished = false

    /// `script`: the baked script (`VideoBake.loadScript`): its brushes are the names events
    /// may draw with, its fps turns their times into frames, its canvas culls their strokes,
    /// and its stamps count against the same limits. `path` is a regular file, a FIFO, or
    /// "-" (stdin); anything else (a folder, a device, a socket) is refused.
    package init(path: String, script: Script) throws {
        name = path == "-" ? "stdin" : path
        if path != "-" {
            try FileSystem.checkPath(path)
            var info = stat()
            guard stat(path, &info) == 0 else {
                let code = errno
                throw InputError(file: path, code == ENOENT ? "file not found" : "cannot read the events: \(String(cString: strerror(code)))")
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                var decoder = EventDecoder(file: name, script: script)
                let bytes = try FileSystem.readBytes(path: path)
                var line = 0
                for chunk in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
                    line += 1
                    if let e = try decoder.decode(Array(chunk), line: line) { queue.append(e) }
                }
                finished = true
                return
            case S_IFIFO: break
            default:
                throw InputError(file: path, "is \(FileSystem.kindName(info.st_mode)); --events reads a regular file, "
                                 + "a FIFO (named pipe) or - (stdin)")
            }
        }
        // A FIFO or stdin. Opening a FIFO blocks until a writer opens it, so even the open is
        // the thread's: the video never waits for it. The thread reads until the writer closes.
        let file = name
        Thread.detachNewThread { [self] in
            var decoder = EventDecoder(file: file, script: script)
            let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return fail(InputError(file: path, "cannot read the events: \(String(cString: strerror(errno)))")) }
            defer { if fd != 0 { close(fd) } }
            lock.lock(); opened = true; lock.broadcast(); lock.unlock()
            var info = stat()
            if fd != 0, fstat(fd, &info) == 0, (info.st_mode & S_IFMT) != S_IFIFO {
                return fail(InputError(file: path, "is \(FileSystem.kindName(info.st_mode)) now, no longer a FIFO"))
            }
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 14)
            var line = 0
            while true {
                let n = chunk.withUnsafeMutableBytes { sysRead(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n < 0 { return fail(InputError(file: file, "cannot read the events: \(String(cString: strerror(errno)))")) }
                if n == 0 { break }
                pending.append(contentsOf: chunk[0..<n])
                var from = 0
                while let nl = pending[from...].firstIndex(of: 0x0A) {
                    line += 1
                    do throws(InputError) {
                        if let e = try decoder.decode(Array(pending[from..<nl]), line: line) { push(e) }
                    } catch {
                        return fail(error)
                    }
                    from = nl + 1
                }
                pending.removeSubrange(..<from)
                // A line is an event: one longer than a script may be is not waited for.
                if pending.count > Limits.maxTextFileBytes {
                    return fail(InputError(file: file, location: .text(line: line + 1, column: 1),
                                           "a line longer than \(Limits.maxTextFileBytes) bytes"))
                }
            }
            if !pending.isEmpty {
                do throws(InputError) {
                    if let e = try decoder.decode(pending, line: line + 1) { push(e) }
                } catch { return fail(error) }
            }
            lock.lock(); finished = true; lock.broadcast(); lock.unlock()
        }
    }

    private func push(_ e: TouchEvent) { lock.lock(); queue.append(e); lock.broadcast(); lock.unlock() }
    private func fail(_ e: InputError) { lock.lock(); failure = e; finished = true; lock.broadcast(); lock.unlock() }

    /// The events that have arrived and fall in frame `n` or before, in order. Only a FIFO
    /// no writer has opened yet is waited for (a writer that comes late is not missed, and
    /// until one comes no event can); once open, this never waits, and an event that
    /// arrives after its frame has been drawn applies to the next one.
    package func take(throughFrame n: Int, fps: Double) throws -> [TouchEvent] {
        lock.lock(); defer { lock.unlock() }
        while !opened && !finished { lock.wait() }
        var out: [TouchEvent] = []
        while head < queue.count && queue[head].frame(fps: fps) <= n {
            out.append(queue[head])
            head += 1
        }
        if head > 4096 { queue.removeFirst(head); head = 0 }
        if out.isEmpty, let failure { throw failure }
        return out
    }

    /// Whether every event has been read (the source ended).
    package var isFinished: Bool { lock.lock(); defer { lock.unlock() }; return finished && head == queue.count }
}
