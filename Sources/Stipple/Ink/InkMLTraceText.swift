/// The text of an InkML `<trace>` (W3C InkML §3.2.1): points separated by commas, each
/// point's values in the order of its format's channels, separated by white space or by a
/// sign that starts the next number. A value may be prefixed by `!` (explicit), `'` (first
/// difference: the change since the previous point) or `"` (second difference: the change
/// of that change); the prefix holds for the channel's following values until another one
/// is given. `T`/`F` are booleans, `?` an unknown value and `*` the previous value.
struct InkMLTraceText {
    enum Mode { case explicit, first, second }

    let text: [UInt8]
    let offsets: TextOffsets
    let fail: (Int, String) -> InputError
    var pos = 0

    init(text: [UInt8], offsets: TextOffsets, fail: @escaping (Int, String) -> InputError) {
        self.text = text; self.offsets = offsets; self.fail = fail
    }

    func offset(_ i: Int) -> Int { offsets.offset(i) }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

    mutating func skipSpace() { while pos < text.count, InkMLTraceText.isSpace(text[pos]) { pos += 1 } }

    /// Every point: `regular` values each, plus up to `intermittent` more (dropped). A point
    /// with fewer values takes `defaults` (the channel's default, else its previous value).
    mutating func points(regular: Int, intermittent: Int, defaults: [Double?]) throws(InputError) -> [[Double]] {
        var out: [[Double]] = []
        var modes = [Mode](repeating: .explicit, count: regular)
        var last = [Double](repeating: 0, count: regular)
        var velocity = [Double](repeating: 0, count: regular)
        var seen = [Bool](repeating: false, count: regular)
        skipSpace()
        if pos >= text.count { return [] }
        while true {
            var values: [Double] = []
            var channel = 0
            let pointStart = pos
            while true {
                skipSpace()
                guard pos < text.count, text[pos] != UInt8(ascii: ",") else { break }
                var mode: Mode?
                switch text[pos] {
                case UInt8(ascii: "!"): mode = .explicit; pos += 1
                case UInt8(ascii: "'"): mode = .first; pos += 1
                case UInt8(ascii: "\""): mode = .second; pos += 1
                default: break
                }
                if mode != nil { skipSpace() }
                let at = pos
                guard channel < regular + intermittent else {
                    throw fail(offset(at), "this point has more values than its trace format's \(regular + intermittent) channel\(regular + intermittent == 1 ? "" : "s")")
                }
                let raw = try value()
                if channel < regular {
                    if let mode { modes[channel] = mode }
                    var v: Double
                    switch raw {
                    case let .number(n):
                        switch modes[channel] {
                        case .explicit: v = n
                        case .first: v = last[channel] + n
                        case .second: v = last[channel] + velocity[channel] + n
                        }
                        if !seen[channel], modes[channel] != .explicit {
                            throw fail(offset(at), "a difference needs an earlier value in this trace; the first point's values are explicit")
                        }
                    case .same, .unknown:
                        v = seen[channel] ? last[channel] : (defaults[channel] ?? 0)
                    }
                    guard v.isFinite else { throw fail(offset(at), "this value overflows") }
                    velocity[channel] = seen[channel] ? v - last[channel] : 0
                    last[channel] = v
                    seen[channel] = true
                    values.append(v)
                }
                channel += 1
            }
            if channel == 0 {
                throw fail(offset(pointStart), pos < text.count ? "expected a point's values before ','" : "expected a point's values after ','")
            }
            while values.count < regular {
                let c = values.count
                let v = defaults[c] ?? (seen[c] ? last[c] : 0)
                velocity[c] = seen[c] ? v - last[c] : 0
                last[c] = v; seen[c] = true
                values.append(v)
            }
            out.append(values)
            guard pos < text.count else { return out }
            pos += 1  // the comma
        }
    }

    enum Value { case number(Double), same, unknown }

    /// One value at `pos`: a number (sign, digits, point, exponent), `T`, `F`, `?` or `*`.
    mutating func value() throws(InputError) -> Value {
        let start = pos
        guard pos < text.count else { throw fail(offset(start), "expected a value") }
        switch text[pos] {
        case UInt8(ascii: "T"): pos += 1; return .number(1)
        case UInt8(ascii: "F"): pos += 1; return .number(0)
        case UInt8(ascii: "?"): pos += 1; return .unknown
        case UInt8(ascii: "*"): pos += 1; return .same
        default: break
        }
        if text[pos] == UInt8(ascii: "-") || text[pos] == UInt8(ascii: "+") { pos += 1 }
        var digits = 0, dot = false
        while pos < text.count {
            let b = text[pos]
            if b >= 0x30 && b <= 0x39 { digits += 1; pos += 1 }
            else if b == UInt8(ascii: "."), !dot { dot = true; pos += 1 }
            else { break }
        }
        guard digits > 0 else {
            let found = start < text.count ? String(decoding: [text[start]], as: UTF8.self) : "the end"
            throw fail(offset(start), "expected a number, T, F, ? or * in the trace; found '\(found)'")
        }
        if pos < text.count, text[pos] == UInt8(ascii: "e") || text[pos] == UInt8(ascii: "E") {
            var p = pos + 1
            if p < text.count, text[p] == UInt8(ascii: "-") || text[p] == UInt8(ascii: "+") { p += 1 }
            var expDigits = 0
            while p < text.count, text[p] >= 0x30 && text[p] <= 0x39 { p += 1; expDigits += 1 }
            if expDigits > 0 { pos = p }
        }
        guard let v = Double(String(decoding: text[start..<pos], as: UTF8.self)), v.isFinite else {
            throw fail(offset(start), "the number \(String(decoding: text[start..<pos], as: UTF8.self)) is out of range")
        }
        return .number(v)
    }
}
