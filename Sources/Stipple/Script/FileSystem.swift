#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file operations the script layer needs, with errors that name the file
/// (docs/reference.md §8) and writes that never leave a partial file behind.
package enum FileSystem {
    package enum Entry: Equatable { case file, folder, missing }

    /// What is at `path`, following symbolic links.
    package static func entry(at path: String) -> Entry {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .folder : .file
    }

    /// The folder a file is in: "scripts" for "scripts/a.json", "." for "a.json".
    package static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// `path` as seen from `folder`: absolute paths stay as they are; relative ones are
    /// joined to the folder (left alone when the folder is the current one).
    package static func resolve(_ path: String, against folder: String) -> String {
        if path.hasPrefix("/") || folder.isEmpty || folder == "." { return path }
        return folder.hasSuffix("/") ? folder + path : folder + "/" + path
    }

    /// Refuses a path no file can have: empty, or holding a NUL (which C would cut short,
    /// so that another file is read or written).
    package static func checkPath(_ path: String) throws(InputError) {
        if path.isEmpty { throw InputError(file: path, "the path is empty; expected a file name") }
        if path.utf8.contains(0) { throw InputError(file: path, "the path holds a NUL character, which no file name can") }
    }

    /// What a file-system node is, for messages: "a FIFO (named pipe)", "a folder"…
    package static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "not a regular file"
        }
    }

    /// Opens `path` for reading only if it is a regular file: opened without blocking (a
    /// FIFO with no writer would block forever), then checked with fstat. The descriptor
    /// blocks again for reading; its size is returned with it. A size over `limit` is an
    /// error, said by `tooLarge` (given the size) or a default message.
    package static func openRegularFile(path: String, limit: Int,
                                tooLarge: ((Int) -> String)? = nil) throws(InputError) -> (fd: Int32, size: Int) {
        try checkPath(path)
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            // A socket cannot be opened (ENXIO): say what it is, as for a FIFO or a device.
            var info = stat()
            if code != ENOENT, stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
                throw InputError(file: path, "is \(kindName(info.st_mode)), not a regular file; only regular files are read")
            }
            throw InputError(file: path, code == ENOENT ? "file not found" : "cannot read the file: \(reason(code))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw InputError(file: path, "cannot read the file: \(reason(code))")
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            close(fd)
            if kind == S_IFDIR { throw InputError(file: path, "is a folder, not a file") }
            throw InputError(file: path, "is \(kindName(info.st_mode)), not a regular file; only regular files are read")
        }
        let size = Int(info.st_size)
        if size > limit {
            close(fd)
            throw InputError(file: path, tooLarge?(size) ?? "is \(size) bytes; files of this kind are read up to \(limit) bytes")
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return (fd, size)
    }

    /// The whole file, which must be a regular file of at most `limit` bytes. A missing,
    /// unreadable, special (FIFO, device) or oversized path is an `InputError` naming it.
    package static func readBytes(path: String, limit: Int = Limits.maxTextFileBytes,
                          tooLarge: ((Int) -> String)? = nil) throws(InputError) -> [UInt8] {
        let (fd, size) = try openRegularFile(path: path, limit: limit, tooLarge: tooLarge)
        defer { close(fd) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(file: path, "cannot read the file: \(reason(errno))")
            }
            // A file that grows while it is read is still held to the limit.
            guard bytes.count + n <= limit else {
                throw InputError(file: path, tooLarge?(bytes.count + n) ?? "grew past \(limit) bytes while being read")
            }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    /// Writes `bytes` to a temporary file in the same folder, then renames it over
    /// `path`: a failed write leaves no partial file and keeps any existing one intact.
    /// Library code writes through `OutputFile.write`, which sends special files elsewhere.
    /// `exclusive` never replaces an existing file (the rename becomes a link, which fails
    /// if the name is taken); `named` is the path the user gave, for messages.
    package static func writeAtomically(_ bytes: [UInt8], to path: String, durable: Bool = true,
                                exclusive: Bool = false, named: String? = nil) throws(InputError) {
        let shown = named ?? path
        let (fd, temp, ticket) = try makeTemporary(for: path, named: shown)
        defer { TemporaryFiles.forget(ticket) }
        var failure: Int32? = nil
        bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno; return
                }
                done += n
            }
        }
        if failure == nil, durable, fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == nil { failure = errno }
        if failure == nil {
            if exclusive {
                // link() fails with EEXIST where rename() would replace.
                if link(temp, path) != 0 { failure = errno }
                unlink(temp)
                if failure == EEXIST {
                    throw InputError(file: shown, "exists; refusing to overwrite a file this run did not write")
                }
            } else if rename(temp, path) != 0 {
                failure = errno
            }
        }
        if let code = failure {
            unlink(temp)
            throw InputError(file: shown, "cannot write the file: \(reason(code))")
        }
    }

    /// A new, empty temporary file beside `path` (`.NAME.tmp-PID-N`), open for writing and
    /// registered with `TemporaryFiles` (a fatal signal removes it): forget the ticket once
    /// it is renamed or removed.
    package static func makeTemporary(for path: String, named shown: String) throws(InputError)
        -> (fd: Int32, path: String, ticket: TemporaryFiles.Ticket) {
        let dir = folder(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        for _ in 0..<16 {
            let temp = resolve(".\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))", against: dir)
            let ticket = TemporaryFiles.track(temp)  // before it exists: no window for a signal
            // 0o666 so the umask decides the final permissions, as for any new file.
            let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 { return (fd, temp, ticket) }
            let code = errno
            TemporaryFiles.forget(ticket)
            if code != EEXIST { throw InputError(file: shown, "cannot write the file: \(reason(code))") }
        }
        throw InputError(file: shown, "cannot write the file: \(reason(EEXIST))")
    }

    /// The C library's text for an errno value, starting lower case to fit our messages.
    package static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
