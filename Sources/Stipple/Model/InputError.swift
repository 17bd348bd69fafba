/// Where in a user's input something is wrong (docs/reference.md §8).
public enum InputLocation: Equatable, Sendable, CustomStringConvertible {
    /// Line and column, both from 1 (scripts and other text).
    case text(line: Int, column: Int)
    /// Byte offset from 0 (binary files).
    case byte(Int)
    /// The file as a whole (missing, unreadable).
    case file

    public var description: String {
        switch self {
        case let .text(line, column): return "\(line):\(column)"
        case let .byte(offset): return "byte \(offset)"
        case .file: return ""
        }
    }
}

/// A bad input: names the file, the place in it and what was expected.
/// Its `description` is the one line the command line prints.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var location: InputLocation
    public var message: String

    public init(file: String, location: InputLocation = .file, _ message: String) {
        self.file = file; self.location = location; self.message = message
    }

    /// One line, safe to print on a terminal: every control character from the input
    /// (ESC, CR, NUL, a newline that would split the line) is escaped as JSON writes it.
    /// An empty file name is shown as "".
    public var description: String {
        let name = file.isEmpty ? "\"\"" : InputError.escaped(file)
        switch location {
        case .file: return "\(name): \(InputError.escaped(message))"
        case .text, .byte: return "\(name):\(location): \(InputError.escaped(message))"
        }
    }

    /// `text` with its control characters escaped as in JSON (`\n`, `\r`, `\t`, `\u001b`,
    /// and C1 controls and the Unicode line separators as `\u0085`, `\u2028`): what any
    /// message echoing a user's value prints. Everything else is left as it is.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else { out.unicodeScalars.append(scalar); continue }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }
        }
        return out
    }

    /// A user's value in quotes, escaped: for messages that echo a string.
    public static func quoted(_ text: String) -> String { "\"" + escaped(text) + "\"" }

    private static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7F...0x9F).contains(s.value) || s.value == 0x2028 || s.value == 0x2029
    }
}

/// Failures that are not the input's fault: no EGL, a GL error, a driver limit.
public struct RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { InputError.escaped(message) }
}
