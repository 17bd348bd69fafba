/// Where in a user's input something is wrong (docs/reference.md §8).
public enum InputLocation: Equatable, Sendable, CustomStringConvertible {
    /// Line and column, both from 1 (scripts and other text).
    case text(line: Int, column: Int)
    /// Byte offset from 0 (binary files).
    case byte(Int)
    /// The file as a whole (missing, unreadable).
    case file

    /// The place as people write it: "LINE:COLUMN", "byte OFFSET", or "" for the whole file.
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
    /// The file the input came from, as the user named it.
    public var file: String
    /// Where in the file: line and column, a byte offset, or the whole file.
    public var location: InputLocation
    /// What was wrong and what is allowed, in one line.
    public var message: String

    /// An error about `file` at `location`, saying `message`.
    public init(file: String, location: InputLocation = .file, _ message: String) {
        self.file = file; self.location = location; self.message = message
    }

    /// One line, safe to print on a terminal: every control character from the input
    /// (ESC, CR, NUL, a newline that would split the line) is escaped as JSON writes it.
    /// An empty file name is shown as "".
    public var description: String {
        let name = file.isEmpty ? "\"\"" : InputError.escaped(InputError.shortened(file))
        let why = InputError.escaped(InputError.shortened(message))
        switch location {
        case .file: return "\(name): \(why)"
        case .text, .byte: return "\(name):\(location): \(why)"
        }
    }

    /// `text` with any value too long to read cut in the middle, so one error stays one
    /// readable line whatever the input echoed in it: a word (a run without spaces) over
    /// `longestWord` characters keeps its first 200 and last 60 and says how many are left
    /// out; a message over `longest` characters keeps its first `longest`.
    package static func shortened(_ text: String) -> String {
        guard text.count > longestWord else { return text }
        var out = text.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            guard word.count > longestWord else { return String(word) }
            return "\(word.prefix(200))…[\(word.count - 260) characters left out]…\(word.suffix(60))"
        }.joined(separator: " ")
        if out.count > longest { out = "\(out.prefix(longest))… [\(out.count - longest) more characters]" }
        return out
    }

    static let longestWord = 300
    static let longest = 2000

    /// `text` with its control characters escaped as in JSON (`\n`, `\r`, `\t`, `\u001b`,
    /// and C1 controls, the Unicode line separators and format characters as `\u0085`,
    /// `\u2028`, `\u202e`): what any message echoing a user's value prints. Everything else
    /// is left as it is.
    package static func escaped(_ text: String) -> String {
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
    package static func quoted(_ text: String) -> String { "\"" + escaped(text) + "\"" }

    /// Control characters, the line and paragraph separators, and invisible format
    /// characters (bidirectional overrides such as U+202E, zero-width spaces, U+FEFF), which
    /// would make a terminal show something other than the bytes of the input.
    private static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7F...0x9F).contains(s.value) || s.value == 0x2028 || s.value == 0x2029
            || (s.value >= 0xAD && s.properties.generalCategory == .format)
    }
}

/// Failures that are not the input's fault: no EGL, a GL error, a driver limit.
public struct RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What failed, in one line.
    public var message: String
    /// A rendering failure saying `message`.
    public init(_ message: String) { self.message = message }
    /// The message, shortened and with control characters escaped: safe to print.
    public var description: String { InputError.escaped(InputError.shortened(message)) }
}
