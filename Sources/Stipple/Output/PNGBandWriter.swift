import CStipple

/// A PNG written band by band: an image larger than memory is encoded as its rows
/// arrive, never held whole. The file is written whole or not at all, as every output
/// (`StreamedOutput`: a temporary renamed into place by `finish`; a FIFO or device is
/// written into as it is). Rows are given premultiplied, as the renderer reads them back,
/// and written straight (an alpha-0 pixel as 0, 0, 0, 0), exactly as `PNGFile.write` would.
///
/// Not `Sendable`: a writer stays with the task that opened it (its stream is unlocked state),
/// and the compiler holds every use to that. After `finish` or `abandon`, `write` and
/// `finish` throw.
package final class PNGBandWriter {
    private let output: StreamedOutput
    /// Levels 4…9: libpng's stream.
    private var stream: OpaquePointer?
    /// Levels 0…3: segments encoded on every core (`PNGSegments`), rows kept until a segment is
    /// whole, and the last row encoded (the next segment's first row is filtered against it).
    private let level: Int32
    private var segmented: (pending: [UInt8], above: [UInt8], adler: UInt, open: Bool)?
    package let width: Int
    package let height: Int
    package private(set) var rowsWritten = 0

    /// Opens `path` and writes the PNG's header. `exclusive` refuses a file that exists.
    package init(path: String, width: Int, height: Int, compression: Int32 = PNGFile.defaultCompression,
                 exclusive: Bool = false) throws {
        if exclusive, FileSystem.entry(at: path) != .missing, !OutputFile.isSpecial(path) {
            throw InputError(file: path, "exists; refusing to overwrite a file this run did not write")
        }
        output = try StreamedOutput(path: path)
        self.width = width
        self.height = height
        level = compression
        if compression <= 3 {
            segmented = ([], [], 1, true)
            do {
                try FileDescriptor.writeAll(output.descriptor, PNGSegments.start(width: width, height: height, channels: 4), name: path)
            } catch {
                output.abandon()
                throw error
            }
            return
        }
        var err = [CChar](repeating: 0, count: 512)
        guard let s = stp_png_stream_open(output.descriptor, Int32(width), Int32(height), compression, &err, err.count) else {
            output.abandon()
            throw InputError(file: path, "cannot write the PNG: \(String(cBuffer: err))")
        }
        stream = s
    }

    deinit { abandon() }

    /// Writes the next rows: premultiplied RGBA, `width * 4` bytes a row, top to bottom.
    /// They are un-premultiplied in place.
    package func write(premultiplied rows: inout [UInt8]) throws {
        precondition(rows.count % (width * 4) == 0, "whole rows")
        guard stream != nil || segmented?.open == true else {
            throw InputError(file: output.name, "cannot write the PNG: it was already finished or abandoned")
        }
        Image.unpremultiply(&rows)
        if segmented != nil { return try writeSegments(rows) }
        guard let open = stream else { return }
        let count = rows.count / (width * 4)
        var err = [CChar](repeating: 0, count: 512)
        let rc = rows.withUnsafeBufferPointer { stp_png_stream_write_rows(open, $0.baseAddress, Int32(count), &err, err.count) }
        guard rc == 0 else {
            let why = String(cBuffer: err)
            abandon()
            throw InputError(file: output.name, "cannot write the PNG: \(why)")
        }
        rowsWritten += count
    }

    /// Adds straight `rows` to the pending rows and encodes the segments they complete; the
    /// rest waits for more rows.
    private func writeSegments(_ rows: [UInt8]) throws {
        guard var state = segmented else { return }
        state.pending += rows
        rowsWritten += rows.count / (width * 4)
        let rowBytes = width * 4
        let per = PNGSegments.rows(width: width, channels: 4)
        let ends = rowsWritten == height
        let ready = ends ? state.pending.count / rowBytes : (state.pending.count / rowBytes / per) * per
        if ready > 0 {
            do {
                let part = try state.pending.withUnsafeBufferPointer { rows in
                    try state.above.withUnsafeBufferPointer { above in
                        try PNGSegments.encode(rows, above: above.isEmpty ? nil : above.baseAddress, width: width, channels: 4, rows: ready,
                                               endsImage: ends, level: level)
                    }
                }
                try FileDescriptor.writeAll(output.descriptor, part.bytes, name: output.name)
                // From the empty stream's 1, combining gives the first part's own.
                state.adler = stp_adler32_combine(state.adler, part.adler, part.rawLength)
                state.above = Array(state.pending[(ready - 1) * rowBytes..<ready * rowBytes])
                state.pending.removeFirst(ready * rowBytes)
            } catch {
                abandon()
                throw InputError(file: output.name, "cannot write the PNG: \(error)")
            }
        }
        segmented = state
    }

    /// Ends the PNG and puts the file in place. Every row must have been written.
    package func finish(durable: Bool = true) throws {
        if let state = segmented {
            guard state.open else {
                throw InputError(file: output.name, "cannot write the PNG: it was already finished or abandoned")
            }
            guard rowsWritten == height, state.pending.isEmpty else {
                abandon()
                throw InputError(file: output.name, "cannot write the PNG: \(rowsWritten) of \(height) rows were written")
            }
            segmented?.open = false
            do { try FileDescriptor.writeAll(output.descriptor, PNGSegments.end(adler: state.adler), name: output.name) }
            catch { output.abandon(); throw error }
            return try output.commit(durable: durable)
        }
        guard let open = stream else { throw InputError(file: output.name, "cannot write the PNG: it was already finished or abandoned") }
        var err = [CChar](repeating: 0, count: 512)
        let rc = stp_png_stream_close(open, 1, &err, err.count)
        stream = nil
        guard rc == 0 else {
            output.abandon()
            throw InputError(file: output.name, "cannot write the PNG: \(String(cBuffer: err))")
        }
        try output.commit(durable: durable)
    }

    /// Stops: nothing is left behind (a special file keeps what it was sent).
    package func abandon() {
        segmented?.open = false
        if let s = stream { _ = stp_png_stream_close(s, 0, nil, 0) }
        stream = nil
        output.abandon()
    }
}
