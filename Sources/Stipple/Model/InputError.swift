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

    public var description: String {
        switch location {
        case .file: return "\(file): \(message)"
        case .text, .byte: return "\(file):\(location): \(message)"
        }
    }
}

/// Failures that are not the input's fault: no EGL, a GL error, a driver limit.
public struct RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
