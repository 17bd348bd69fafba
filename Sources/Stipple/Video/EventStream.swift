import Foundation

/// Live touch events as JSON lines (docs/video.md), read while a video streams.
///
/// A regular file is read and checked whole before the first frame: its events are known,
/// so the bake is deterministic and a bad line stops it before anything is written. A pipe
/// or FIFO ("-" is stdin) is read by a thread of its own into a queue; the bake takes what
/// has arrived and never waits on the source, so a FIFO that stays silent does not stall the
/// video. Errors name `file:line:column`.
public final class EventStream: @unchecked Sendable {
    public let name: String
    private let lock = NSLock()
    private var queue: [TouchEvent] = []
    private var head = 0
    private var failure: InputError?
    private var finished = false

    /// `brushes`: the names events may draw with (the script's); `fps` turns their times into frames.
    public init(path: String, brushes: Set<String>, fps: Double) throws {
        name = path == "-" ? "stdin" : path
        if path != "-" && FileSystem.entry(at: path) == .file {
            var info = stat()
            if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
                var decoder = EventDecoder(file: name, brushes: brushes, fps: fps)
                let bytes = try FileSystem.readBytes(path: path)
                var line = 0
                for chunk in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
                    line += 1
                    if let e = try decoder.decode(Array(chunk), line: line) { queue.append(e) }
                }
                finished = true
                return
            }
        }
        if path != "-" && FileSystem.entry(at: path) == .missing { throw InputError(file: path, "file not found") }
        // A pipe or FIFO: opening a FIFO waits for a writer, so even the open is the thread's.
        let file = name
        Thread.detachNewThread { [self] in
            var decoder = EventDecoder(file: file, brushes: brushes, fps: fps)
            let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return fail(InputError(file: path, "cannot read the events: \(String(cString: strerror(errno)))")) }
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 14)
            var line = 0
            while true {
                let n = chunk.withUnsafeMutableBytes { sysRead(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                pending.append(contentsOf: chunk[0..<n])
                while let nl = pending.firstIndex(of: 0x0A) {
                    line += 1
                    do throws(InputError) {
                        if let e = try decoder.decode(Array(pending[..<nl]), line: line) { push(e) }
                    } catch {
                        return fail(error)
                    }
                    pending.removeSubrange(...nl)
                }
            }
            if !pending.isEmpty {
                do throws(InputError) {
                    if let e = try decoder.decode(pending, line: line + 1) { push(e) }
                } catch { return fail(error) }
            }
            if fd != 0 { close(fd) }
            lock.lock(); finished = true; lock.unlock()
        }
    }

    private func push(_ e: TouchEvent) { lock.lock(); queue.append(e); lock.unlock() }
    private func fail(_ e: InputError) { lock.lock(); failure = e; finished = true; lock.unlock() }

    /// The events that have arrived and fall in frame `n` or before, in order; never waits.
    /// An event that arrives after its frame has been drawn applies to the next one.
    public func take(throughFrame n: Int, fps: Double) throws -> [TouchEvent] {
        lock.lock(); defer { lock.unlock() }
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
    public var isFinished: Bool { lock.lock(); defer { lock.unlock() }; return finished && head == queue.count }
}
