#if canImport(Glibc)
import Glibc
#endif

/// Whole writes to a descriptor, retried on EINTR and short writes: what every writer that
/// streams into an open file (a y4m, a PNG band by band, a dataset's array) goes through.
enum FileDescriptor {
    /// Writes `bytes` at the descriptor's position, or at `offset` (pwrite). 0, or the errno
    /// of the write that failed.
    static func write(_ fd: Int32, _ bytes: [UInt8], at offset: Int? = nil) -> Int32 {
        bytes.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let n = offset.map { pwrite(fd, raw.baseAddress! + sent, raw.count - sent, off_t($0 + sent)) }
                    ?? sysWrite(fd, raw.baseAddress! + sent, raw.count - sent)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                sent += n
            }
            return 0
        }
    }

    /// Opens `path` to be written in place (made, or emptied), for files that are part of a
    /// whole made complete by another file written last (a pyramid's tiles and parts).
    static func create(_ path: String) throws(InputError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw InputError(file: path, "cannot write: \(FileSystem.reason(errno))") }
        return fd
    }

    /// As `write`, an error naming `name` when it fails.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], name: String, at offset: Int? = nil) throws(InputError) {
        let failure = write(fd, bytes, at: offset)
        if failure != 0 { throw InputError(file: name, "cannot write: \(FileSystem.reason(failure))") }
    }
}
