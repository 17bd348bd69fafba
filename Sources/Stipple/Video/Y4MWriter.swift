#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a YUV4MPEG2 stream (docs/reference.md §11). To a path, through `StreamedOutput`: a file
/// is written into a temporary beside it, renamed into place on `finish()`; a FIFO or device is
/// written into, never replaced. A file is whole or not there at all (`abandon()`, a writer
/// dropped unfinished, or a fatal signal removes the temporary). To a pipe ("-" is
/// stdout, or a descriptor such as ffmpeg's stdin), each frame goes out whole in one write
/// loop, so a reader only ever sees complete frames.
public final class Y4MWriter {
    /// The output as named in errors (a path, or "-" for stdout).
    public let name: String
    /// Frames written so far.
    public private(set) var framesWritten = 0
    private let fd: Int32
    private let ownsDescriptor: Bool
    /// The file written by name (renamed into place on `finish()`), if any.
    private let output: StreamedOutput?
    private var done = false

    /// `path` "-" is stdout.
    public convenience init(path: String, header: Y4MHeader) throws(InputError) {
        if path == "-" {
            try self.init(descriptor: 1, name: "stdout", header: header, owns: false)
            return
        }
        // OutputFile's rules: a file through a temporary, a FIFO or device written into.
        let output = try StreamedOutput(path: path)
        try self.init(descriptor: output.descriptor, name: path, header: header, owns: false, output: output)
    }

    /// Writes to an open descriptor; `name` names it in errors. Writes the header at once.
    package init(descriptor: Int32, name: String, header: Y4MHeader, owns: Bool,
                output: StreamedOutput? = nil) throws(InputError) {
        fd = descriptor; self.name = name; ownsDescriptor = owns; self.output = output
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
        if let output {
            try output.commit()
        } else if ownsDescriptor {
            close(fd)
        }
    }

    /// Stops without finishing: a file by name leaves nothing behind.
    public func abandon() {
        guard !done else { return }
        done = true
        if ownsDescriptor { close(fd) }
        output?.abandon()
    }

    private func writeAll(_ bytes: [UInt8]) throws(InputError) {
        let failure = FileDescriptor.write(fd, bytes)
        guard failure == 0 else {
            let why = failure == EPIPE ? "the reader closed the pipe" : Y4MReader.reason(failure)
            throw InputError(file: name, "cannot write frame \(framesWritten): \(why)")
        }
    }
}
