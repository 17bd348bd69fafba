#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a YUV4MPEG2 stream (docs/reference.md §11) from a file or a pipe, one frame at a time: memory
/// stays one frame however long the video. Every error names the stream, the frame and the
/// byte offset.
public final class Y4MReader {
    /// The input as named in errors (a path, or "-" for stdin).
    public let name: String
    /// The stream's header, read when the reader opened.
    public private(set) var header: Y4MHeader
    /// Frames read so far.
    public private(set) var framesRead = 0
    /// Bytes consumed from the stream so far.
    public private(set) var offset = 0

    private let fd: Int32
    private let ownsDescriptor: Bool
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0, end = 0

    /// Opens `path` ("-" is stdin) and reads its header.
    public convenience init(path: String) throws(InputError) {
        if path == "-" {
            try self.init(descriptor: 0, name: "stdin", owns: false)
            return
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw InputError(file: path, code == ENOENT ? "file not found" : "cannot read the video: \(Y4MReader.reason(code))")
        }
        try self.init(descriptor: fd, name: path, owns: true)
    }

    /// Reads from an open descriptor (a pipe from ffmpeg, say); `name` names it in errors.
    public init(descriptor: Int32, name: String, owns: Bool) throws(InputError) {
        fd = descriptor; self.name = name; ownsDescriptor = owns
        header = Y4MHeader(width: 1, height: 1)
        guard let line = try readLine(limit: Y4MHeader.maxLength) else {
            throw InputError(file: name, location: .byte(0), "empty stream: expected a YUV4MPEG2 header")
        }
        guard let text = String(validating: line, as: UTF8.self) else {
            throw InputError(file: name, location: .byte(0), "malformed header: not text")
        }
        header = try Y4MHeader.parse(text, file: name)
        try checkFirstFrameFits()
        enlargePipe(fd, toHold: header.frameSize)
    }

    deinit { if ownsDescriptor { close(fd) } }

    /// A regular file with bytes after its header must hold at least one whole frame
    /// (`FRAME` line and planes) before a frame's memory is allocated for it: a header that
    /// claims a large size over a few bytes is refused at once, at the file's end.
    private func checkFirstFrameFits() throws(InputError) {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
        let size = Int(info.st_size)
        let position = lseek(fd, 0, SEEK_CUR)
        guard position >= 0 else { return }
        let rest = size - Int(position) + (end - start)  // bytes after the header line
        let need = Y4MFrame.marker.count + header.frameSize
        guard rest > 0, rest < need else { return }
        // What is there must be a FRAME line for the size to be the problem: anything else
        // is reported by `read` as what it is.
        let marker = Array("FRAME".utf8)
        guard end - start >= 6, Array(buffer[start..<start + 5]) == marker,
              buffer[start + 5] == 0x20 || buffer[start + 5] == 0x0A else { return }
        throw InputError(file: name, location: .byte(size),
                         "frame 0 is truncated: the file holds \(counted(rest, "byte")) after its header, and a FRAME line with "
                         + "the planes of one \(header.width)×\(header.height) frame takes \(need)")
    }

    /// Reads the next frame into `frame` (made for this header). Returns false at the end of
    /// the stream; a frame cut short is an error naming its number and byte offset.
    public func read(into frame: inout Y4MFrame) throws(InputError) -> Bool {
        let lineStart = offset
        let number = framesRead
        guard let line = try readLine(limit: 1024) else { return false }
        guard line.starts(with: "FRAME".utf8) && (line.count == 5 || line[5] == 0x20) else {
            throw InputError(file: name, location: .byte(lineStart),
                             "frame \(number): expected a FRAME line, found \"\(String(decoding: line.prefix(16), as: UTF8.self))\"")
        }
        let planesStart = offset
        let want = header.frameSize
        let got = try fill(&frame.bytes, at: frame.yOffset, count: want)
        guard got == want else {
            throw InputError(file: name, location: .byte(planesStart + got),
                             "frame \(number) is truncated: \(got) of its \(want) bytes of planes "
                             + "(\(header.width)×\(header.height) \(header.chroma.name)) "
                             + "before the end of the stream")
        }
        framesRead += 1
        return true
    }

    /// Moves past the next `count` frames without reading them: in a regular file (bare
    /// `FRAME` lines, as ffmpeg writes) by computing their byte offset, elsewhere by reading.
    /// The next `read` checks that a FRAME line starts where the skip landed.
    public func skip(_ count: Int) throws(InputError) {
        var info = stat()
        let stride = 6 + header.frameSize
        let target = offset + count * stride
        // Where the skipped frames' FRAME lines must be, bare: else (FRAME lines with tags) read them.
        func bare(at position: Int) -> Bool {
            var marker = [UInt8](repeating: 0, count: 6)
            return pread(fd, &marker, 6, off_t(position)) == 6 && marker == Array("FRAME\n".utf8)
        }
        if count > 0, fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
           bare(at: offset), bare(at: target - stride), lseek(fd, off_t(target), SEEK_SET) >= 0 {
            offset = target; framesRead += count; start = 0; end = 0
            return
        }
        var frame = Y4MFrame(header: header)
        for _ in 0..<count where !(try read(into: &frame)) { return }
    }

    /// A line without its newline; nil at the end of the stream before any byte.
    private func readLine(limit: Int) throws(InputError) -> [UInt8]? {
        var line: [UInt8] = []
        let lineStart = offset
        while true {
            if start == end {
                guard try refill() else {
                    if line.isEmpty { return nil }
                    throw InputError(file: name, location: .byte(offset),
                                     "frame \(framesRead): the stream ends inside a header line")
                }
            }
            if let nl = buffer[start..<end].firstIndex(of: 0x0A) {
                line.append(contentsOf: buffer[start..<nl])
                offset += nl + 1 - start
                start = nl + 1
                return line
            }
            line.append(contentsOf: buffer[start..<end])
            offset += end - start
            start = end
            if line.count > limit {
                throw InputError(file: name, location: .byte(lineStart),
                                 lineStart == 0 ? "malformed header: no newline in the first \(limit) bytes"
                                                : "frame \(framesRead): malformed FRAME line (no newline)")
            }
        }
    }

    /// Copies `count` bytes into `dest` at `at`, buffered bytes first, then straight from the
    /// descriptor. Returns how many arrived before the end of the stream.
    private func fill(_ dest: inout [UInt8], at: Int, count: Int) throws(InputError) -> Int {
        var done = min(count, end - start)
        dest.withUnsafeMutableBufferPointer { d in
            buffer.withUnsafeBufferPointer { b in
                (d.baseAddress! + at).update(from: b.baseAddress! + start, count: done)
            }
        }
        start += done
        var failure: Int32 = 0
        dest.withUnsafeMutableBytes { d in
            while done < count {
                let n = sysRead(fd, d.baseAddress! + at + done, count - done)
                if n > 0 { done += n; continue }
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failure = errno }
                return
            }
        }
        offset += done
        if failure != 0 {
            throw InputError(file: name, location: .byte(offset), "cannot read the video: \(Y4MReader.reason(failure))")
        }
        return done
    }

    private func refill() throws(InputError) -> Bool {
        while true {
            let n = buffer.withUnsafeMutableBytes { sysRead(fd, $0.baseAddress, $0.count) }
            if n > 0 { start = 0; end = n; return true }
            if n == 0 { return false }
            if errno == EINTR { continue }
            throw InputError(file: name, location: .byte(offset), "cannot read the video: \(Y4MReader.reason(errno))")
        }
    }

    static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
