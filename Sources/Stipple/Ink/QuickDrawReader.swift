#if canImport(Glibc)
import Glibc
#endif

/// Google's Quick, Draw! ndjson (github.com/googlecreativelab/quickdraw-dataset): one
/// drawing a line, `{"key_id": "…", "drawing": [[[x…], [y…]], …], …}`. A simplified drawing's
/// strokes are `[x…], [y…]` in a 256 × 256 box; a raw one adds `[t…]`, milliseconds from the
/// drawing's first point. `word` becomes the drawing's label; other members (`countrycode`,
/// `recognized`, …) are ignored.
package enum QuickDrawReader {
    /// One line of a file: its number (from 1) and its bytes.
    package struct Line: Sendable {
        package var number: Int
        package var range: Range<Int>
    }

    /// Every line that is not blank (a trailing newline, a blank line in the middle: skipped).
    package static func lines(_ bytes: [UInt8]) -> [Line] {
        var out: [Line] = []
        var start = 0, number = 1
        func add(_ end: Int) {
            var e = end
            if e > start, bytes[e - 1] == 0x0D { e -= 1 }
            var blank = true
            for i in start..<e where !(bytes[i] == 0x20 || bytes[i] == 0x09) { blank = false; break }
            if !blank { out.append(Line(number: number, range: start..<e)) }
        }
        var i = 0
        bytes.withUnsafeBufferPointer { buf in
            while i < buf.count {
                if buf[i] == 0x0A { add(i); number += 1; start = i + 1 }
                i += 1
            }
        }
        if start < bytes.count { add(bytes.count) }
        return out
    }

    /// The drawing on `line` of `bytes`; errors name `file`, the line and the column.
    package static func drawing(_ bytes: [UInt8], line: Line, file: String) throws(InputError) -> InkDrawing {
        let root: JSONValue
        do {
            root = try JSONParser.parse(Array(bytes[line.range]), file: file, end: "the end of the line")
        } catch {
            throw InputError(file: file, location: moved(error.location, to: line.number), error.message)
        }
        do {
            return try drawing(root, file: file)
        } catch {
            throw InputError(file: file, location: moved(error.location, to: line.number), error.message)
        }
    }

    static func moved(_ location: InputLocation, to line: Int) -> InputLocation {
        if case let .text(_, column) = location { return .text(line: line, column: column) }
        return .text(line: line, column: 1)
    }

    /// `key_id` of a line without decoding its strokes (for `--key`); nil when it has none.
    package static func keyID(_ bytes: [UInt8], line: Line) -> String? {
        guard let root = try? JSONParser.parse(Array(bytes[line.range]), file: ""), let m = root["key_id"] else { return nil }
        switch m.value.kind {
        case let .string(s): return s
        case let .number(_, literal): return literal
        default: return nil
        }
    }

    static func fail(_ value: JSONValue, _ message: String, file: String) -> InputError {
        InputError(file: file, location: value.location, message)
    }

    static func drawing(_ root: JSONValue, file: String) throws(InputError) -> InkDrawing {
        guard case .object = root.kind else {
            throw fail(root, "a Quick, Draw! line is an object with a \"drawing\" member; found \(root.kindDescription)", file: file)
        }
        var name: String?
        var label: String?
        if let word = root["word"], case let .string(w) = word.value.kind { label = w }
        if let key = root["key_id"] {
            switch key.value.kind {
            case let .string(s): name = s
            case let .number(_, literal): name = literal
            default: throw fail(key.value, "key_id is a string of digits; found \(key.value.kindDescription)", file: file)
            }
        }
        guard let member = root["drawing"] else {
            throw fail(root, "this line has no \"drawing\" member (the strokes: [[[x…], [y…]], …])", file: file)
        }
        guard case let .array(items) = member.value.kind else {
            throw fail(member.value, "drawing is an array of strokes [[x…], [y…]] or [[x…], [y…], [t…]]; found \(member.value.kindDescription)", file: file)
        }
        var strokes: [InkDrawing.Stroke] = []
        var timed = false
        for (s, item) in items.enumerated() {
            guard case let .array(channels) = item.kind, channels.count == 2 || channels.count == 3 else {
                throw fail(item, "stroke \(s + 1) is [[x…], [y…]] or [[x…], [y…], [t…]]", file: file)
            }
            let names = ["x", "y", "t"]
            var columns: [[Double]] = []
            for (c, channel) in channels.enumerated() {
                guard case let .array(values) = channel.kind else {
                    throw fail(channel, "stroke \(s + 1)'s \(names[c]) values are an array of numbers; found \(channel.kindDescription)", file: file)
                }
                var column: [Double] = []
                column.reserveCapacity(values.count)
                for v in values {
                    guard case let .number(n, _) = v.kind else {
                        throw fail(v, "stroke \(s + 1)'s \(names[c]) values are numbers; found \(v.kindDescription)", file: file)
                    }
                    column.append(n)
                }
                if c > 0, column.count != columns[0].count {
                    throw fail(channel, "stroke \(s + 1) has \(columns[0].count) x values but \(column.count) \(names[c]) values", file: file)
                }
                columns.append(column)
            }
            if channels.count == 3 { timed = true }
            var points: [InkDrawing.Point] = []
            points.reserveCapacity(columns[0].count)
            var lastT = -Double.infinity
            for i in columns[0].indices {
                var p = InkDrawing.Point(x: columns[0][i], y: columns[1][i])
                if columns.count == 3 {
                    let t = max(lastT, columns[2][i] / 1000)
                    lastT = t
                    p.t = t
                }
                points.append(p)
            }
            if !points.isEmpty { strokes.append(InkDrawing.Stroke(points: points)) }
        }
        // Simplified drawings live in a 256 × 256 box; raw ones in the player's screen pixels.
        var drawing = InkDrawing(strokes: strokes, frame: timed ? nil : (0, 0, 256, 256), name: name)
        drawing.label = label
        drawing.defaultRadius = 8
        drawing.defaultRadiusIsPen = false
        // A raw drawing is in the player's screen pixels: its lines are as wide on the canvas as a
        // simplified drawing's (16 in 256), whatever the size it was drawn at.
        drawing.radiusFollowsCanvas = timed
        return drawing
    }
}

/// The lines of a Quick, Draw! file read a piece at a time, so that a file of any size is read
/// in bounded memory: each piece holds whole lines (at least one), about `pieceBytes` long.
package final class QuickDrawChunks {
    package let path: String
    private let fd: Int32
    private var pending: [UInt8] = []
    private var nextNumber = 1
    private var atEnd = false
    /// Bytes read a piece (a line longer than this makes its piece longer).
    package static let pieceBytes = 4 << 20
    /// The longest line read: a drawing of 64 MiB of text is refused, not read.
    package static let maxLineBytes = 64 << 20

    package init(path: String) throws(InputError) {
        self.path = path
        (fd, _) = try FileSystem.openRegularFile(path: path, limit: Int.max, tooLarge: nil)
    }

    deinit { close(fd) }

    /// The next piece: its bytes and the lines that are not blank in it (ranges into those
    /// bytes, numbers counted over the whole file); nil at the end.
    package func next() throws(InputError) -> (bytes: [UInt8], lines: [QuickDrawReader.Line])? {
        while !atEnd {
            let cut = pending.lastIndex(of: 0x0A)
            if let cut, pending.count >= QuickDrawChunks.pieceBytes { return take(upTo: cut + 1) }
            if cut == nil, pending.count > QuickDrawChunks.maxLineBytes {
                throw InputError(file: path, location: .text(line: nextNumber, column: 1),
                                 "this line is longer than \(QuickDrawChunks.maxLineBytes >> 20) MiB; a drawing is one line of JSON")
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(file: path, "cannot read the file: \(FileSystem.reason(errno))")
            }
            if n == 0 { atEnd = true; break }
            pending.append(contentsOf: chunk[0..<n])
        }
        guard !pending.isEmpty else { return nil }
        return take(upTo: pending.count)
    }

    private func take(upTo end: Int) -> (bytes: [UInt8], lines: [QuickDrawReader.Line]) {
        let bytes = Array(pending[0..<end])
        pending.removeFirst(end)
        var lines = QuickDrawReader.lines(bytes)
        for i in lines.indices { lines[i].number += nextNumber - 1 }
        nextNumber += bytes.reduce(into: 0) { n, b in if b == 0x0A { n += 1 } }
        return (bytes, lines)
    }

    /// The lines that are not blank in the file at `path`, counted without keeping them.
    package static func count(path: String) throws(InputError) -> Int {
        let chunks = try QuickDrawChunks(path: path)
        var n = 0
        while let piece = try chunks.next() { n += piece.lines.count }
        return n
    }
}
