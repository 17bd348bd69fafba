import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Output safety, in one place (nothing a user gave is overwritten or lost).
/// Every file Stipple writes goes through here:
///
/// - `check` refuses an output that is one of the run's inputs (the same file, whatever
///   the path or link that names it), a path no file can have (empty, NUL), a folder, and an
///   output whose folder does not exist (no folder is ever made for it). It runs before any
///   work is done.
/// - `write` writes a regular file (or a new one) whole or not at all: a temporary beside
///   it, renamed into place. A special file (a FIFO, `/dev/null`, a terminal) is written
///   into directly and never replaced: renaming over `/dev/null` would replace it for every
///   process on the machine. A FIFO with no reader is refused rather than waited on.
package enum OutputFile {
    /// Refuses `path` as an output, before any work: see the type's notes. `inputs` are
    /// the run's inputs, called `what` in the message.
    package static func check(_ path: String, notAnyOf inputs: [String],
                             inputsAre what: String = "an input of this script") throws(InputError) {
        try FileSystem.checkPath(path)
        if inputs.contains(where: { sameFile(path, $0) }) {
            throw InputError(file: path, "refusing to overwrite \(what); choose another output path")
        }
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw InputError(file: path, "is a folder; expected a file name to write")
        }
        let folder = FileSystem.folder(of: path)
        guard FileSystem.entry(at: folder) == .folder else {
            throw InputError(file: path, "cannot write: the folder \(folder) does not exist")
        }
    }

    /// True when `a` and `b` name the same file: the same device and inode when both exist,
    /// else the same path once links and `..` are resolved.
    package static func sameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        if !a.isEmpty, !b.isEmpty, stat(a, &sa) == 0, stat(b, &sb) == 0 {
            return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
        }
        return canonical(a) == canonical(b)
    }

    /// `path` absolute, with `.`, `..` and symbolic links resolved as far as they exist.
    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// A folder Stipple fills and clears (`stipple test --output`) must be one it made: missing,
    /// empty, or holding `marker` from an earlier run. A user's own folder is refused, so that
    /// none of their files (say NAME/expected.png) is replaced or removed.
    package static func checkOwnedFolder(_ folder: String, marker: String, option: String) throws(InputError) {
        try FileSystem.checkPath(folder)
        switch FileSystem.entry(at: folder) {
        case .missing: return
        case .file: throw InputError(file: folder, "\(option) is a file; expected a folder")
        case .folder: break
        }
        if FileSystem.entry(at: FileSystem.resolve(marker, against: folder)) == .file { return }
        let items = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        guard items.isEmpty else {
            throw InputError(file: folder, "\(option) names a folder stipple did not make (no \(marker) in it), and it is not empty; "
                             + "choose another --output, or empty it: its files would be replaced")
        }
    }

    /// Marks a folder Stipple made (see `checkOwnedFolder`), when it exists.
    package static func markOwnedFolder(_ folder: String, marker: String) {
        guard FileSystem.entry(at: folder) == .folder else { return }
        let path = FileSystem.resolve(marker, against: folder)
        if FileSystem.entry(at: path) == .missing {
            try? FileSystem.writeAtomically(Array("made by stipple test; its files may be replaced\n".utf8), to: path, durable: false)
        }
    }

    /// True when `path` lies inside `folder` (or is it), links resolved.
    package static func isInside(_ path: String, folder: String) -> Bool {
        let p = canonical(path), f = canonical(folder)
        return p == f || p.hasPrefix(f.hasSuffix("/") ? f : f + "/")
    }

    /// True when `path` names a FIFO, a character device or a socket (after links): such an
    /// output is written into as it is, whatever its name says (`-o /dev/null`).
    package static func isSpecial(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        return kind == S_IFIFO || kind == S_IFCHR || kind == S_IFSOCK
    }

    /// Writes `bytes` to `path`: whole or not at all for a file, straight into a special
    /// file. `durable` flushes the data to disk before the rename (for a file a person
    /// asked for by name; frame sequences skip it). `exclusive` refuses to replace a file
    /// that exists (for outputs that must never overwrite a user's file).
    package static func write(_ bytes: [UInt8], to path: String, durable: Bool = true,
                             exclusive: Bool = false) throws(InputError) {
        try FileSystem.checkPath(path)
        var target = path
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
            // A link is followed, not replaced: the file it names is the output.
            var resolved = stat()
            if stat(path, &resolved) == 0 { target = canonical(path) }
        }
        if stat(target, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                if exclusive { throw InputError(file: path, "exists; refusing to overwrite a file this run did not write") }
            case S_IFDIR:
                throw InputError(file: path, "is a folder; expected a file name to write")
            case S_IFIFO, S_IFCHR, S_IFSOCK:
                return try writeInto(bytes, special: target, named: path)
            default:
                throw InputError(file: path, "is \(FileSystem.kindName(info.st_mode)); refusing to write over it")
            }
        }
        let folder = FileSystem.folder(of: target)
        guard FileSystem.entry(at: folder) == .folder else {
            throw InputError(file: path, "cannot write: the folder \(folder) does not exist")
        }
        try FileSystem.writeAtomically(bytes, to: target, durable: durable, exclusive: exclusive, named: path)
    }

    /// Writes into a FIFO or device as it is: the node stays.
    private static func writeInto(_ bytes: [UInt8], special target: String, named path: String) throws(InputError) {
        let fd = try openSpecial(target, named: path)
        defer { close(fd) }
        var failure: Int32?
        bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno; return
                }
                done += n
            }
        }
        if let code = failure { throw InputError(file: path, "cannot write: \(FileSystem.reason(code))") }
    }
}

extension OutputFile {
    /// Opens a FIFO, device or socket for writing into, as it is. Without blocking: a FIFO
    /// that no one reads is an error, not a hang. The descriptor blocks again once open.
    static func openSpecial(_ target: String, named path: String) throws(InputError) -> Int32 {
        let fd = open(target, O_WRONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            if code == ENXIO { throw InputError(file: path, "is a FIFO that no process is reading; nothing was written") }
            throw InputError(file: path, "cannot write: \(FileSystem.reason(code))")
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return fd
    }

    static func makeTemporary(for target: String, named path: String) throws(InputError)
        -> (fd: Int32, path: String, ticket: TemporaryFiles.Ticket) {
        try FileSystem.makeTemporary(for: target, named: path)
    }

    /// One line for a file-system error thrown by Foundation (`FileManager`, `Data.write`):
    /// the path and the reason, never the `Error Domain=NSCocoaErrorDomain …` dump.
    package static func describe(_ error: Error) -> String {
        if let e = error as? InputError { return "\(e)" }
        let ns = error as NSError
        guard ns.domain == NSCocoaErrorDomain || ns.domain == NSPOSIXErrorDomain else { return "\(error)" }
        let path = (ns.userInfo[NSFilePathErrorKey] as? String) ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
        var reason: String
        if ns.domain == NSPOSIXErrorDomain {
            reason = FileSystem.reason(Int32(ns.code))
        } else if let u = ns.userInfo[NSUnderlyingErrorKey] as? NSError, u.domain == NSPOSIXErrorDomain {
            reason = FileSystem.reason(Int32(u.code))
        } else {
            switch CocoaError.Code(rawValue: ns.code) {
            case .fileWriteFileExists: reason = "a file is in the way (it exists and is not a folder)"
            case .fileNoSuchFile, .fileReadNoSuchFile: reason = "no such file or folder"
            case .fileWriteNoPermission, .fileReadNoPermission: reason = "permission denied"
            case .fileWriteOutOfSpace: reason = "no space left on the device"
            case .fileWriteVolumeReadOnly: reason = "read-only file system"
            default: reason = "file system error \(ns.code)"
            }
        }
        return "\(path ?? "a file"): \(reason)"
    }
}

/// A folder made for an output (`render --frames`), remembering which of its folders did
/// not exist before, so that a run that fails can leave the file system as it found it.
package struct OutputFolder: Sendable {
    package let path: String
    /// The folders this run made, outermost first.
    package let made: [String]

    /// Makes `path` and any missing folders above it. `what` names the option in messages.
    package static func make(_ path: String, for what: String) throws(InputError) -> OutputFolder {
        try FileSystem.checkPath(path)
        var missing: [String] = []
        var p = path
        while FileSystem.entry(at: p) == .missing {
            missing.insert(p, at: 0)
            let up = FileSystem.folder(of: p)
            if up == p || up == "." || up == "/" { break }
            p = up
        }
        var info = stat()
        if missing.isEmpty, stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR {
            throw InputError(file: path, "\(what) writes a folder of PNGs, and this is \(kindOf(info))")
        }
        var made: [String] = []
        for folder in missing {
            if mkdir(folder, 0o777) != 0 && errno != EEXIST {
                let code = errno
                for m in made.reversed() { rmdir(m) }
                throw InputError(file: path, "cannot make the folder for \(what): \(FileSystem.reason(code))")
            }
            made.append(folder)
        }
        if let blocker = missing.first, FileSystem.entry(at: blocker) != .folder {
            throw InputError(file: path, "\(what) writes a folder of PNGs, and \(blocker) is a file")
        }
        return OutputFolder(path: path, made: made)
    }

    private static func kindOf(_ info: stat) -> String {
        (info.st_mode & S_IFMT) == S_IFREG ? "a file" : FileSystem.kindName(info.st_mode)
    }

    /// Removes the folders this run made, innermost first, where they are empty.
    package func removeIfEmpty() {
        for folder in made.reversed() { _ = rmdir(folder) }
    }
}
