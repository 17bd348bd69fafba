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
package struct JSONParser {
    package static let maxDepth = 512

    /// Parses one JSON document. Errors are `InputError`s at `.text(line:column:)` in `file`.
    /// `end` names where the bytes stop in messages: "the end of the file", or "the end of
    /// the line" for one line of an ndjson file.
    package static func parse(_ bytes: [UInt8], file: String, end: String = "the end of the file") throws(InputError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, file: file, end: end)
        return try parser.parseDocument()
    }

    let bytes: [UInt8]
    let file: String
    let end: String
    var pos = 0
    // Line tracking happens while skipping whitespace, the only place a line break
    // may appear outside a string (and strings may not contain raw line breaks).
    var line = 1
    var lineStart = 0
    // Columns are computed on demand by counting scalars from a cached point on the
    // current line, so a long single-line document stays linear.
    var columnCachePos = 0
    var columnCache = 1

    private init(bytes: [UInt8], file: String, end: String) {
        self.bytes = bytes
        self.file = file
        self.end = end
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            pos = 3; lineStart = 3; columnCachePos = 3
        }
    }

    // MARK: Structure

    /// An array or object still being filled in.
    struct Frame {
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

    mutating func parseDocument() throws(InputError) -> JSONValue {
        var stack: [Frame] = []
        while true {
            // Parse the start of a value: either a scalar, an empty container, or
            // the opening of a container whose first element comes next.
            skipWhitespace()
            let start = location(at: pos)
            var value: JSONValue
            guard pos < bytes.count else {
                throw fail(at: pos, "expected a JSON value, found \(end)")
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
                        throw fail(at: pos, "unexpected \(describeCharacter(at: pos)) after the JSON value; expected \(end)")
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

    func addMember(_ value: JSONValue, to frame: inout Frame) throws(InputError) {
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
    mutating func parseKey(expected: String) throws(InputError) -> (String, InputLocation) {
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

    // MARK: Whitespace and locations

    mutating func skipWhitespace() {
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

    mutating func newLine() {
        line += 1
        lineStart = pos
        columnCachePos = pos
        columnCache = 1
    }

    /// Line and column of byte `p` on the current line. Mutating only to advance the cache.
    mutating func location(at p: Int) -> InputLocation {
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
    func fail(at p: Int, _ message: String) -> InputError {
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
    func found(at p: Int) -> String {
        ", found \(describeCharacter(at: p))"
    }

    func describeCharacter(at p: Int) -> String {
        guard p < bytes.count else { return end }
        let c = bytes[p]
        if c >= 0x20 && c < 0x7F { return "'\(String(UnicodeScalar(c)))'" }
        if c < 0x80 { return "U+\(hex4(UInt32(c)))" }
        if let n = try? utf8SequenceLength(at: p) {
            let s = String(decoding: bytes[p..<p + n], as: UTF8.self)
            return "'\(s)' (U+\(hex4(s.unicodeScalars.first!.value)))"
        }
        return "byte 0x\(String(c, radix: 16, uppercase: true)), which is not valid UTF-8"
    }

    static let controlNames: [String] = {
        var names = [String](repeating: "", count: 0x20)
        names[0x08] = "\\b"; names[0x09] = "\\t"; names[0x0A] = "\\n"; names[0x0C] = "\\f"; names[0x0D] = "\\r"
        return names
    }()

    func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
    func isLetter(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
    }
    func hexDigit(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(c - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
    func hex4(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
    func quoted(_ s: String) -> String { "\"\(s)\"" }
}
