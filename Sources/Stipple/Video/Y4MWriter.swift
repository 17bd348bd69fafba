#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a YUV4MPEG2 stream (docs/reference.md §11). To a file by name, it writes a temporary file
/// beside it and renames it into place on `finish()`: the file is whole or not there at all
/// (`abandon()`, or a writer dropped unfinished, removes the temporary). To a pipe ("-" is
/// stdout, or a descriptor such as ffmpeg's stdin), each frame goes out whole in one write
/// loop, so a reader only ever sees complete frames.
public final class Y4MWriter {
    public let name: String
    public private(set) var framesWritten = 0
    private let fd: Int32
    private let ownsDescriptor: Bool
    /// The temporary file and the final path, for a file written by name.
    private let temporary: (temp: String, final: String)?
    private var done = false

    /// `path` "-" is stdout.
    public convenience init(path: String, header: Y4MHeader) throws(InputError) {
        if path == "-" {
            try self.init(descriptor: 1, name: "stdout", header: header, owns: false)
            return
        }
        let folder = FileSystem.folder(of: path)
        let base = path.split(separator: "/").last.map(String.init) ?? path
        var fd: Int32 = -1, temp = ""
        for _ in 0..<16 {
            temp = FileSystem.resolve(".\(base).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))", against: folder)
            fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw InputError(file: path, "cannot write the video: \(Y4MReader.reason(errno))") }
        try self.init(descriptor: fd, name: path, header: header, owns: true, temporary: (temp, path))
    }

    /// Writes to an open descriptor; `name` names it in errors. Writes the header at once.
    public init(descriptor: Int32, name: String, header: Y4MHeader, owns: Bool,
                temporary: (temp: String, final: String)? = nil) throws(InputError) {
        fd = descriptor; self.name = name; ownsDescriptor = owns; self.temporary = temporary
        enlargePipe(descriptor, toHold: header.frameSize)
        do {
            try writeAll(Array(header.line.utf8))
        } catch {
            abandon()
            throw error
        }
    }

    deinit { if !done { abandon() } }

    /// Writes one frame: its `FRAME` line and planes, in one go.
    public func write(_ frame: Y4MFrame) throws(InputError) {
        try writeAll(frame.bytes)
        framesWritten += 1
    }

    /// Ends the stream: a file is flushed to disk and renamed into place.
    public func finish() throws(InputError) {
        guard !done else { return }
        done = true
        var failure: Int32 = 0
        if let temporary {
            if fsync(fd) != 0 { failure = errno }
            if close(fd) != 0, failure == 0 { failure = errno }
            if failure == 0, rename(temporary.temp, temporary.final) != 0 { failure = errno }
            if failure != 0 {
                unlink(temporary.temp)
                throw InputError(file: name, "cannot write the video: \(Y4MReader.reason(failure))")
            }
        } else if ownsDescriptor {
            close(fd)
        }
    }

    /// Stops without finishing: a file by name leaves nothing behind.
    public func abandon() {
        guard !done else { return }
        done = true
        if ownsDescriptor { close(fd) }
        if let temporary { unlink(temporary.temp) }
    }

    private func writeAll(_ bytes: [UInt8]) throws(InputError) {
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let n = sysWrite(fd, raw.baseAddress! + sent, raw.count - sent)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                sent += n
            }
        }
        guard failure == 0 else {
            let why = failure == EPIPE ? "the reader closed the pipe" : Y4MReader.reason(failure)
            throw InputError(file: name, "cannot write frame \(framesWritten): \(why)")
        }
    }
}
