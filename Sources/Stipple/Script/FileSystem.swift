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

    /// The whole file. A missing, unreadable or folder path is an `InputError` naming it.
    package static func readBytes(path: String) throws(InputError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw InputError(file: path, code == ENOENT ? "file not found" : "cannot read the file: \(reason(code))")
        }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw InputError(file: path, "is a folder, not a file")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(max(0, Int(info.st_size)))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(file: path, "cannot read the file: \(reason(errno))")
            }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    /// Writes `bytes` to a temporary file in the same folder, then renames it over
    /// `path`: a failed write leaves no partial file and keeps any existing one intact.
    package static func writeAtomically(_ bytes: [UInt8], to path: String, durable: Bool = true) throws(InputError) {
        let dir = folder(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var fd: Int32 = -1
        var temp = ""
        for _ in 0..<16 {
            temp = resolve(".\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))", against: dir)
            // 0o666 so the umask decides the final permissions, as for any new file.
            fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw InputError(file: path, "cannot write the file: \(reason(errno))") }
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
        if failure == nil, rename(temp, path) != 0 { failure = errno }
        if let code = failure {
            unlink(temp)
            throw InputError(file: path, "cannot write the file: \(reason(code))")
        }
    }

    /// The C library's text for an errno value, starting lower case to fit our messages.
    private static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
