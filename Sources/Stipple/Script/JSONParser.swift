/// A strict RFC 8259 JSON parser over UTF-8 bytes that records the line and column
/// (both from 1; columns count Unicode scalars) of every value and object key.
///
/// Strict means: no comments, no trailing commas, no NaN or Infinity, no numbers that
/// overflow a Double, no duplicate keys, no unpaired surrogates, no invalid UTF-8,
/// nothing after the top-level value. A leading UTF-8 byte order mark is skipped
/// (RFC 8259 §8.1 allows that); columns on line 1 count from after it.
///
/// It is iterative (an explicit stack) so that deep nesting cannot overflow a thread's
/// stack; nesting is capped at `maxDepth` anyway.
public struct JSONParser {
    public static let maxDepth = 512

    /// Parses one JSON document. Errors are `InputError`s at `.text(line:column:)` in `file`.
    public static func parse(_ bytes: [UInt8], file: String) throws(InputError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, file: file)
        return try parser.parseDocument()
    }

    private let bytes: [UInt8]
    private let file: String
    private var pos = 0
    // Line tracking happens while skipping whitespace, the only place a line break
    // may appear outside a string (and strings may not contain raw line breaks).
    private var line = 1
    private var lineStart = 0
    // Columns are computed on demand by counting scalars from a cached point on the
    // current line, so a long single-line document stays linear.
    private var columnCachePos = 0
    private var columnCache = 1

    private init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            pos = 3; lineStart = 3; columnCachePos = 3
        }
    }

    // MARK: Structure

    /// An array or object still being filled in.
    private struct Frame {
        var isObject: Bool
        var start: InputLocation
        var items: [JSONValue] = []
        var members: [JSONValue.Member] = []
        /// The key whose value is being parsed (objects only).
        var key = ""
        var keyLocation = InputLocation.file
        /// Built once an object grows large, so duplicate checks stay linear overall.
        var keySet: Set<String>? = nil
    }

    private mutating func parseDocument() throws(InputError) -> JSONValue {
        var stack: [Frame] = []
        while true {
            // Parse the start of a value: either a scalar, an empty container, or
            // the opening of a container whose first element comes next.
            skipWhitespace()
            let start = location(at: pos)
            var value: JSONValue
            guard pos < bytes.count else {
                throw fail(at: pos, "expected a JSON value, found the end of the file")
            }
            switch bytes[pos] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[pos] == UInt8(ascii: "{")
                if stack.count >= JSONParser.maxDepth {
                    throw fail(at: pos, "nesting deeper than \(JSONParser.maxDepth) levels")
                }
                pos += 1
                skipWhitespace()
                let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if pos < bytes.count, bytes[pos] == close {
                    pos += 1
                    value = JSONValue(isObject ? .object([]) : .array([]), at: start)
                    break
                }
                var frame = Frame(isObject: isObject, start: start)
                if isObject {
                    (frame.key, frame.keyLocation) = try parseKey(expected: "expected a string key or '}'")
                }
                stack.append(frame)
                continue
            case UInt8(ascii: "\""):
                value = JSONValue(.string(try parseString()), at: start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = JSONValue(try parseNumber(), at: start)
            default:
                value = JSONValue(try parseLiteral(), at: start)
            }

            // Attach the finished value to its container; close containers as they end.
            while true {
                guard !stack.isEmpty else {
                    skipWhitespace()
                    if pos < bytes.count {
                        throw fail(at: pos, "unexpected \(describeCharacter(at: pos)) after the JSON value; expected the end of the file")
                    }
                    return value
                }
                let top = stack.count - 1
                if stack[top].isObject {
                    try addMember(value, to: &stack[top])
                    skipWhitespace()
                    if pos < bytes.count, bytes[pos] == UInt8(ascii: ",") {
                        pos += 1
                        skipWhitespace()
                        if pos < bytes.count, bytes[pos] == UInt8(ascii: "}") {
                            throw fail(at: pos, "trailing comma: expected another object member after ','")
                        }
                        (stack[top].key, stack[top].keyLocation) = try parseKey(expected: "expected a string key after ','")
                        break
                    }
                    if pos < bytes.count, bytes[pos] == UInt8(ascii: "}") {
                        pos += 1
                        let frame = stack.removeLast()
                        value = JSONValue(.object(frame.members), at: frame.start)
                        continue
                    }
                    throw fail(at: pos, "expected ',' or '}' after an object member\(found(at: pos))")
                } else {
                    stack[top].items.append(value)
                    skipWhitespace()
                    if pos < bytes.count, bytes[pos] == UInt8(ascii: ",") {
                        pos += 1
                        skipWhitespace()
                        if pos < bytes.count, bytes[pos] == UInt8(ascii: "]") {
                            throw fail(at: pos, "trailing comma: expected another array element after ','")
                        }
                        break
                    }
                    if pos < bytes.count, bytes[pos] == UInt8(ascii: "]") {
                        pos += 1
                        let frame = stack.removeLast()
                        value = JSONValue(.array(frame.items), at: frame.start)
                        continue
                    }
                    throw fail(at: pos, "expected ',' or ']' after an array element\(found(at: pos))")
                }
            }
        }
    }

    private func addMember(_ value: JSONValue, to frame: inout Frame) throws(InputError) {
        let key = frame.key
        if frame.keySet == nil, frame.members.count >= 16 {
            frame.keySet = Set(frame.members.map(\.key))
        }
        let isDuplicate = frame.keySet?.contains(key) ?? frame.members.contains { $0.key == key }
        if isDuplicate {
            let first = frame.members.first { $0.key == key }!.keyLocation
            throw InputError(file: file, location: frame.keyLocation,
                             "duplicate key \(quoted(key)) in this object (first at \(first))")
        }
        frame.keySet?.insert(key)
        frame.members.append(JSONValue.Member(key: key, keyLocation: frame.keyLocation, value: value))
    }

    /// Parses `"key"` and the `:` after it; whitespace before the key is already skipped.
    private mutating func parseKey(expected: String) throws(InputError) -> (String, InputLocation) {
        guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else {
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "'") {
                throw fail(at: pos, "\(expected); JSON strings use double quotes")
            }
            throw fail(at: pos, "\(expected)\(found(at: pos))")
        }
        let keyLocation = location(at: pos)
        let key = try parseString()
        skipWhitespace()
        guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else {
            throw fail(at: pos, "expected ':' after the object key \(quoted(key))\(found(at: pos))")
        }
        pos += 1
        return (key, keyLocation)
    }

    // MARK: Scalars

    /// `true`, `false`, `null`, or a clear error for anything else that is not a value.
    private mutating func parseLiteral() throws(InputError) -> JSONValue.Kind {
        let start = pos
        let word = scanWord()
        switch word {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        case "":
            pos = start
            if bytes[pos] == UInt8(ascii: "'") {
                throw fail(at: start, "JSON strings use double quotes, not '")
            }
            if bytes[pos] == UInt8(ascii: "/") {
                throw fail(at: start, "comments are not allowed in JSON")
            }
            throw fail(at: start, "unexpected \(describeCharacter(at: start)); expected a value (object, array, string, number, true, false or null)")
        default:
            if JSONParser.isNonFiniteName(word) {
                throw fail(at: start, "\(word) is not a JSON number: numbers must be finite")
            }
            if ["true", "false", "null"].contains(word.lowercased()) {
                throw fail(at: start, "unexpected '\(word)'; JSON literals are lower case: \(word.lowercased())")
            }
            throw fail(at: start, "unexpected '\(word)'; expected a value (object, array, string, number, true, false or null)")
        }
    }

    private static func isNonFiniteName(_ word: String) -> Bool {
        ["nan", "inf", "infinity"].contains(word.lowercased())
    }

    /// Consumes ASCII letters, digits and '_' (a bare word such as `true` or `NaN`).
    private mutating func scanWord() -> String {
        let start = pos
        while pos < bytes.count {
            let c = bytes[pos]
            guard (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
                    || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "_") else { break }
            pos += 1
        }
        return String(decoding: bytes[start..<pos], as: UTF8.self)
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, finite.
    private mutating func parseNumber() throws(InputError) -> JSONValue.Kind {
        let start = pos
        var isNegative = false
        if bytes[pos] == UInt8(ascii: "-") {
            isNegative = true
            pos += 1
            if pos < bytes.count, isLetter(bytes[pos]) {
                let word = scanWord()
                if JSONParser.isNonFiniteName(word) {
                    throw fail(at: start, "-\(word) is not a JSON number: numbers must be finite")
                }
                throw fail(at: start + 1, "expected a digit after '-'")
            }
            guard pos < bytes.count, isDigit(bytes[pos]) else {
                throw fail(at: pos, "expected a digit after '-'\(found(at: pos))")
            }
        }
        let intStart = pos
        if bytes[pos] == UInt8(ascii: "0") {
            pos += 1
            if pos < bytes.count, isDigit(bytes[pos]) {
                throw fail(at: intStart, "numbers may not have leading zeros")
            }
        } else {
            while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
        }
        let intDigits = pos - intStart
        var isInteger = true
        if pos < bytes.count, bytes[pos] == UInt8(ascii: ".") {
            isInteger = false
            pos += 1
            guard pos < bytes.count, isDigit(bytes[pos]) else {
                throw fail(at: pos, "expected a digit after the decimal point\(found(at: pos))")
            }
            while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
        }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
            isInteger = false
            pos += 1
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") { pos += 1 }
            guard pos < bytes.count, isDigit(bytes[pos]) else {
                throw fail(at: pos, "expected a digit in the exponent\(found(at: pos))")
            }
            while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
        }
        let literal = String(decoding: bytes[start..<pos], as: UTF8.self)
        // Integers of up to 15 digits are exact in a Double: skip the general conversion.
        if isInteger, intDigits <= 15 {
            var n: Int64 = 0
            for i in intStart..<pos { n = n * 10 + Int64(bytes[i] &- UInt8(ascii: "0")) }
            return .number(isNegative ? -Double(n) : Double(n), literal: literal)
        }
        guard let value = Double(literal), value.isFinite else {
            throw fail(at: start, "number \(literal) is out of range; expected a finite number (this overflows a 64-bit float)")
        }
        return .number(value, literal: literal)
    }

    /// Parses a string starting at its opening quote; validates UTF-8 and escapes.
    private mutating func parseString() throws(InputError) -> String {
        let open = pos
        pos += 1
        let contentStart = pos
        var hasEscapes = false
        // First pass: find the end, validate, and learn whether escapes need decoding.
        scan: while true {
            guard pos < bytes.count else {
                throw fail(at: open, "unterminated string: no closing '\"' before the end of the file")
            }
            let c = bytes[pos]
            switch c {
            case UInt8(ascii: "\""):
                break scan
            case UInt8(ascii: "\\"):
                hasEscapes = true
                try checkEscape(at: pos)
                pos += 2  // a \u escape's digits are checked while decoding
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                // A raw line break: almost always a missing closing quote, so blame the string.
                throw fail(at: open, "unterminated string: no closing '\"' before the end of the line (a line break inside a string is written \\n)")
            case 0..<0x20:
                let name = JSONParser.controlNames[Int(c)]
                throw fail(at: pos, "control character U+\(hex4(UInt32(c))) in a string\(name.isEmpty ? "; write it as \\u\(hex4(UInt32(c)))" : "; write it as \(name)")")
            case 0x80...:
                pos += try utf8SequenceLength(at: pos)
            default:
                pos += 1
            }
        }
        let end = pos
        pos += 1
        if !hasEscapes {
            return String(decoding: bytes[contentStart..<end], as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(end - contentStart)
        var i = contentStart
        while i < end {
            let c = bytes[i]
            guard c == UInt8(ascii: "\\") else { out.append(c); i += 1; continue }
            let e = bytes[i + 1]
            switch e {
            case UInt8(ascii: "\""): out.append(e)
            case UInt8(ascii: "\\"): out.append(e)
            case UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hexEscape(at: i)
                i += 6
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate must be followed by an escaped low surrogate.
                    let hasLow = i + 1 < end && bytes[i] == UInt8(ascii: "\\") && bytes[i + 1] == UInt8(ascii: "u")
                    let low = try hasLow ? hexEscape(at: i) : 0
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw fail(at: i - 6, "unpaired surrogate \\u\(hex4(scalar)): expected a low surrogate \\uDC00...\\uDFFF after it")
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw fail(at: i - 6, "unpaired surrogate \\u\(hex4(scalar)): a low surrogate needs a high surrogate before it")
                }
                // Surrogates are excluded above, so this is always a valid scalar.
                UTF8.encode(Unicode.Scalar(scalar)!) { out.append($0) }
                continue
            default:
                preconditionFailure("escapes are checked while scanning")
            }
            i += 2
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Rejects a backslash at `i` that does not start one of JSON's escapes.
    private func checkEscape(at i: Int) throws(InputError) {
        guard i + 1 < bytes.count else {
            throw fail(at: i, "unterminated string: no closing '\"' before the end of the file")
        }
        switch bytes[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"), UInt8(ascii: "u"):
            return
        default:
            let e = bytes[i + 1]
            let shown: String
            if e >= 0x20 && e < 0x7F {
                shown = "\\" + String(UnicodeScalar(e))
            } else {
                shown = "\\ followed by \(describeCharacter(at: i + 1))"
            }
            throw fail(at: i, "invalid escape \(shown); expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        }
    }

    /// The value of `\uXXXX` starting at the backslash at `i`.
    private func hexEscape(at i: Int) throws(InputError) -> UInt32 {
        var v: UInt32 = 0
        for k in 0..<4 {
            let j = i + 2 + k
            guard j < bytes.count, let d = hexDigit(bytes[j]) else {
                throw fail(at: i, "invalid escape: \\u needs 4 hex digits")
            }
            v = v << 4 | d
        }
        return v
    }

    /// Length of the valid UTF-8 sequence at `i` (its first byte is >= 0x80), or an error.
    private func utf8SequenceLength(at i: Int) throws(InputError) -> Int {
        let b0 = bytes[i]
        let length: Int
        var lower: UInt8 = 0x80, upper: UInt8 = 0xBF  // range of the second byte
        switch b0 {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0          // no overlong forms
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F           // no surrogates
        case 0xF0: length = 4; lower = 0x90           // no overlong forms
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F           // nothing above U+10FFFF
        default: throw invalidUTF8(at: i)
        }
        for k in 1..<length {
            guard i + k < bytes.count else { throw invalidUTF8(at: i) }
            let b = bytes[i + k]
            let ok = k == 1 ? (b >= lower && b <= upper) : (b >= 0x80 && b <= 0xBF)
            guard ok else { throw invalidUTF8(at: i) }
        }
        return length
    }

    private func invalidUTF8(at i: Int) -> InputError {
        fail(at: i, "invalid UTF-8: byte 0x\(String(bytes[i], radix: 16, uppercase: true)) does not start a valid sequence")
    }

    // MARK: Whitespace and locations

    private mutating func skipWhitespace() {
        while pos < bytes.count {
            switch bytes[pos] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                pos += 1
            case UInt8(ascii: "\n"):
                pos += 1
                newLine()
            case UInt8(ascii: "\r"):
                // "\r\n" is one line break; a lone "\r" is one too, as editors show it.
                pos += 1
                if pos < bytes.count, bytes[pos] == UInt8(ascii: "\n") { pos += 1 }
                newLine()
            default:
                return
            }
        }
    }

    private mutating func newLine() {
        line += 1
        lineStart = pos
        columnCachePos = pos
        columnCache = 1
    }

    /// Line and column of byte `p` on the current line. Mutating only to advance the cache.
    private mutating func location(at p: Int) -> InputLocation {
        if p < columnCachePos { columnCachePos = lineStart; columnCache = 1 }
        var column = columnCache
        var i = columnCachePos
        while i < p {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        columnCachePos = p
        columnCache = column
        return .text(line: line, column: column)
    }

    /// An error at byte `p` (on the current line).
    private func fail(at p: Int, _ message: String) -> InputError {
        var column = 1
        var i = lineStart
        while i < p && i < bytes.count {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return InputError(file: file, location: .text(line: line, column: column), message)
    }

    // MARK: Describing characters

    /// ", found 'x'" or ", found the end of the file", for "expected X" messages.
    private func found(at p: Int) -> String {
        ", found \(describeCharacter(at: p))"
    }

    private func describeCharacter(at p: Int) -> String {
        guard p < bytes.count else { return "the end of the file" }
        let c = bytes[p]
        if c >= 0x20 && c < 0x7F { return "'\(String(UnicodeScalar(c)))'" }
        if c < 0x80 { return "U+\(hex4(UInt32(c)))" }
        if let n = try? utf8SequenceLength(at: p) {
            let s = String(decoding: bytes[p..<p + n], as: UTF8.self)
            return "'\(s)' (U+\(hex4(s.unicodeScalars.first!.value)))"
        }
        return "byte 0x\(String(c, radix: 16, uppercase: true)), which is not valid UTF-8"
    }

    private static let controlNames: [String] = {
        var names = [String](repeating: "", count: 0x20)
        names[0x08] = "\\b"; names[0x09] = "\\t"; names[0x0A] = "\\n"; names[0x0C] = "\\f"; names[0x0D] = "\\r"
        return names
    }()

    private func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
    private func isLetter(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
    }
    private func hexDigit(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(c - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
    private func hex4(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
    private func quoted(_ s: String) -> String { "\"\(s)\"" }
}
