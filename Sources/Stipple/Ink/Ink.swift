import Foundation

/// Ink from Swift: the same readers and layout as `stipple render` and `stipple convert`.
extension InkDrawing {
    /// Reads the drawing in the file at `path`: InkML, or one drawing of a Quick, Draw!
    /// file (its only line, the `index`-th line that is not blank from 0, or the one whose
    /// `key_id` is `key`). `format` nil: as ``InkFormat/init(path:)`` finds it.
    public init(contentsOf path: String, format: InkFormat? = nil, index: Int? = nil, key: String? = nil) throws(InputError) {
        self = try InkImport.drawing(path: path, selection: InkImport.Selection(index: index, key: key), format: format)
    }

    /// Reads an InkML document from its bytes (UTF-8; `Data` is a sequence of bytes).
    /// `name` names it in errors.
    public init(inkML bytes: some Sequence<UInt8>, name: String = "ink.inkml") throws(InputError) {
        let d = try InkMLReader.parse(Array(bytes), file: name)
        try d.check(file: name)
        self = d
    }

    /// Reads one line of a Quick, Draw! ndjson file. `name` and `line` place it in errors.
    public init(quickDrawLine text: some StringProtocol, name: String = "drawing.ndjson", line: Int = 1) throws(InputError) {
        try self.init(quickDrawLine: Array(text.utf8), name: name, line: line)
    }

    /// Reads one line of a Quick, Draw! ndjson file from its bytes (UTF-8, checked).
    public init(quickDrawLine bytes: [UInt8], name: String = "drawing.ndjson", line: Int = 1) throws(InputError) {
        let d = try QuickDrawReader.drawing(bytes, line: QuickDrawReader.Line(number: line, range: 0..<bytes.count), file: name)
        try d.check(file: name)
        self = d
    }

    /// The script this drawing becomes, placed on a canvas as `options` say: the script
    /// `stipple convert` writes and `stipple render` draws (render its frame 0 to see the
    /// whole drawing). Refused when it would make more stamps than a script may hold.
    public func script(_ options: InkOptions = InkOptions()) throws(InputError) -> Script {
        try InkImport.parse(scriptJSON(options), path: name.map { "\($0).json" } ?? "ink.json")
    }

    /// The script text this drawing becomes (JSON, as `stipple convert` writes it).
    public func scriptJSON(_ options: InkOptions = InkOptions()) -> String {
        InkScriptWriter.json(InkPlan.layout(self, options))
    }
}

extension Script {
    /// The script's strokes as a W3C InkML document: X and Y in pixels (the canvas their
    /// ranges), T in seconds, F the pressure; one brush per colour, width and eraser. Read
    /// back, it renders the same image. Refused for stamps entries and undo, redo or clear.
    public func inkML() throws(InputError) -> String {
        try InkMLWriter.inkML(self)
    }
}

/// The drawings of a Quick, Draw! file, a line at a time, read in pieces so that a file of
/// any size takes bounded memory. Each element is a line's drawing or the reason it is not one
/// (so that a bad line can be skipped); a file that cannot be read ends the sequence with its
/// error.
///
/// ```swift
/// for entry in QuickDrawFile(path: "cat.ndjson") {
///     switch entry {
///     case let .success(d): print(d.line, d.drawing.label ?? "", d.drawing.strokes.count)
///     case let .failure(error): print("skipped:", error)
///     }
/// }
/// ```
public struct QuickDrawFile: Sequence, Sendable {
    /// A drawing and the line it was read from (from 1).
    public struct Entry: Sendable {
        public var line: Int
        public var drawing: InkDrawing
    }

    public let path: String

    public init(path: String) { self.path = path }

    public func makeIterator() -> Iterator { Iterator(path: path) }

    public struct Iterator: IteratorProtocol {
        let path: String
        var chunks: QuickDrawChunks?
        var piece: (bytes: [UInt8], lines: [QuickDrawReader.Line]) = ([], [])
        var position = 0
        var done = false

        init(path: String) { self.path = path }

        public mutating func next() -> Result<Entry, InputError>? {
            while !done {
                if position < piece.lines.count {
                    let line = piece.lines[position]
                    position += 1
                    do throws(InputError) {
                        let d = try QuickDrawReader.drawing(piece.bytes, line: line, file: path)
                        try d.check(file: path)
                        return .success(Entry(line: line.number, drawing: d))
                    } catch { return .failure(error) }
                }
                do throws(InputError) {
                    if chunks == nil { chunks = try QuickDrawChunks(path: path) }
                    guard let p = try chunks!.next() else { done = true; return nil }
                    piece = p
                    position = 0
                } catch {
                    done = true
                    return .failure(error)
                }
            }
            return nil
        }
    }
}
