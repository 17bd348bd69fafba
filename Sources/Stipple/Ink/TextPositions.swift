/// Turns byte offsets of a file into `line:column` locations.
package struct TextPositions: Sendable {
    let bytes: [UInt8]
    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package func location(of offset: Int) -> InputLocation {
        var line = 1, column = 1
        var i = 0
        let end = min(max(offset, 0), bytes.count)
        while i < end {
            let b = bytes[i]
            if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return .text(line: line, column: column)
    }
}

/// The file offset of every byte of an element's text, kept as runs: text copied from the
/// file as it is (the usual case) is one run, so a trace's offsets take a few bytes, not four
/// a byte of text; an entity or a CDATA section starts a new run.
package struct TextOffsets: Sendable {
    /// Where each run starts: its first byte's index in the text and offset in the file.
    private var runs: [(index: Int, offset: Int)] = []
    private var count = 0

    mutating func add(index: Int, offset: Int) {
        if let last = runs.last, offset - last.offset == index - last.index {} else { runs.append((index, offset)) }
        count = index + 1
    }

    /// The file offset of text byte `i`; past the end: one past the last byte's.
    func offset(_ i: Int) -> Int {
        guard let first = runs.first else { return 0 }
        let i = min(i, count)
        var lo = 0, hi = runs.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if runs[mid].index <= i { lo = mid } else { hi = mid - 1 }
        }
        let run = runs[lo].index <= i ? runs[lo] : first
        return run.offset + (i - run.index)
    }
}
