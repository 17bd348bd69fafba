import Foundation

/// The served drawing's events, appended as JSON lines to a file that `bake --events` reads
/// (and `serve` reads back on a restart). Lines are written at once and made durable by
/// `flush`, which the server calls every second: a crash loses at most that second.
final class DrawingJournal: Sendable {
    private let fd: Int32
    let path: String

    init(path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw ServeError("cannot write the drawing's journal \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(fd) }

    /// Appends `lines`, each ended by a newline, in one write (a reader never sees half of them
    /// unless the disk fills).
    func append(_ lines: [[UInt8]]) {
        var bytes: [UInt8] = []
        for l in lines { bytes += l; bytes.append(0x0A) }
        bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 { if errno == EINTR { continue }; break }
                done += n
            }
        }
    }

    func flush() { fsync(fd) }
}

/// A one-line error of the server: its start, its options.
struct ServeError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
