/// JSONParser's literals, numbers and strings (with their escapes and UTF-8 checks).
/// Split from JSONParser.swift by concern; the members are internal so the two files
/// can share them (the type itself stays opaque outside the module: only `parse` is public).
extension JSONParser {
    // MARK: Scalars

    /// `true`, `false`, `null`, or a clear error for anything else that is not a value.
    mutating func parseLiteral() throws(InputError) -> JSONValue.Kind {
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
    mutating func scanWord() -> String {
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
    mutating func parseNumber() throws(InputError) -> JSONValue.Kind {
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
    mutating func parseString() throws(InputError) -> String {
        let open = pos
        pos += 1
        let contentStart = pos
        var hasEscapes = false
        // First pass: find the end, validate, and learn whether escapes need decoding.
        scan: while true {
            guard pos < bytes.count else {
                throw fail(at: open, "unterminated string: no closing '\"' before \(end)")
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
    func checkEscape(at i: Int) throws(InputError) {
        guard i + 1 < bytes.count else {
            throw fail(at: i, "unterminated string: no closing '\"' before \(end)")
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
    func hexEscape(at i: Int) throws(InputError) -> UInt32 {
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
    func utf8SequenceLength(at i: Int) throws(InputError) -> Int {
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

    func invalidUTF8(at i: Int) -> InputError {
        fail(at: i, "invalid UTF-8: byte 0x\(String(bytes[i], radix: 16, uppercase: true)) does not start a valid sequence")
    }
}
