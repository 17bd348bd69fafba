#if canImport(Glibc)
import Glibc
#endif

/// An output written piece by piece (a video), decided by `OutputFile`'s rules: a regular
/// file (or a new one) is written into a temporary beside it, registered with
/// `TemporaryFiles` and renamed into place by `commit()`; a FIFO, a character device
/// (`/dev/null`) or a socket is written into as it is and never renamed over; a FIFO no
/// process is reading is refused. `abandon()` (or dropping it uncommitted) leaves nothing.
package final class StreamedOutput {
    /// Where the bytes go: `descriptor` for this process, `writePath` for a child (ffmpeg).
    package let descriptor: Int32
    package let writePath: String
    /// The path the user gave, for messages.
    package let name: String
    package let isSpecial: Bool
    private let temporary: (temp: String, final: String, ticket: TemporaryFiles.Ticket)?
    private var open = true
    /// False once a child writes the temporary (its descriptor was closed at once).
    private var holdsDescriptor = true

    /// Opens `path` for writing. `forChild`: another process writes `writePath` (the
    /// temporary is made, empty, for it to fill; a special file is kept open meanwhile, so
    /// that a FIFO's reader does not see the end before the child opens it).
    package init(path: String, forChild: Bool = false) throws(InputError) {
        try FileSystem.checkPath(path)
        name = path
        var target = path
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK, stat(path, &info) == 0 {
            target = OutputFile.canonical(path)  // a link is followed, not replaced
        }
        if stat(target, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: throw InputError(file: path, "is a folder; expected a file name to write")
            case S_IFIFO, S_IFCHR, S_IFSOCK:
                descriptor = try OutputFile.openSpecial(target, named: path)
                writePath = target; isSpecial = true; temporary = nil
                return
            default: throw InputError(file: path, "is \(FileSystem.kindName(info.st_mode)); refusing to write over it")
            }
        }
        let folder = FileSystem.folder(of: target)
        guard FileSystem.entry(at: folder) == .folder else {
            throw InputError(file: path, "cannot write: the folder \(folder) does not exist")
        }
        let (fd, temp, ticket) = try OutputFile.makeTemporary(for: target, named: path)
        descriptor = fd; writePath = temp; isSpecial = false
        temporary = (temp, target, ticket)
        if forChild { _ = close(fd); holdsDescriptor = false }
    }

    deinit { abandon() }

    /// Ends the output: a file is flushed (unless a child wrote it) and renamed into place.
    package func commit(durable: Bool = true) throws(InputError) {
        guard open else { return }
        open = false
        guard let temporary else { _ = close(descriptor); return }
        var failure: Int32 = 0
        if holdsDescriptor {
            if durable, fsync(descriptor) != 0 { failure = errno }
            if close(descriptor) != 0, failure == 0 { failure = errno }
        }
        if failure == 0, rename(temporary.temp, temporary.final) != 0 { failure = errno }
        if failure != 0 { unlink(temporary.temp) }
        TemporaryFiles.forget(temporary.ticket)
        if failure != 0 { throw InputError(file: name, "cannot write: \(FileSystem.reason(failure))") }
    }

    /// Stops: a temporary is removed; a special file is left as it was.
    package func abandon() {
        guard open else { return }
        open = false
        if let temporary {
            if holdsDescriptor { _ = close(descriptor) }
            unlink(temporary.temp)
            TemporaryFiles.forget(temporary.ticket)
        } else {
            _ = close(descriptor)
        }
    }
}
