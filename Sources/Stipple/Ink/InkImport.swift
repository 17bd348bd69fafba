import Foundation

/// Ink files as scripts: which files are ink, which drawing of a Quick, Draw! file is
/// meant, and the script a drawing becomes (docs/ink-formats.md).
package enum InkImport {
    package typealias Format = InkFormat

    /// The ink format of the file at `path`: `.inkml`/`.ink` or `.ndjson` by the extension;
    /// any other file (Office's `.xml`, say) by its content: XML whose root element is
    /// `<ink>` is InkML. Nil for anything else (a script). `.json` and `.sketchpoints` are
    /// never looked into.
    package static func format(of path: String) -> Format? {
        let lower = path.lowercased()
        if lower.hasSuffix(".inkml") || lower.hasSuffix(".ink") { return .inkML }
        if lower.hasSuffix(".ndjson") { return .quickDraw }
        if lower.hasSuffix(".json") || lower.hasSuffix(".sketchpoints") { return nil }
        return xmlRoot(path: path) == "ink" ? .inkML : nil
    }

    /// The root element of the XML file at `path` (its first 64 KiB looked at), or nil when
    /// it is not a readable file that starts as XML.
    package static func xmlRoot(path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 1 << 16) else { return nil }
        return InkXMLParser.rootName([UInt8](data))
    }

    /// What a file that is not ink was taken for, when its extension does not say: for the
    /// error of a script that does not read, so that an XML file of another kind says so
    /// instead of failing as JSON. Nil for `.json` files and files that are not XML.
    package static func notInk(path: String) -> String? {
        guard !path.lowercased().hasSuffix(".json"), let root = xmlRoot(path: path) else { return nil }
        return "is XML whose root element is <\(root)>, not InkML's <ink>: Stipple reads InkML (.inkml, or any file "
            + "whose root element is <ink>), Quick, Draw! drawings (.ndjson) and scripts (.json)"
    }

    /// Which drawing of a Quick, Draw! file: the `index`-th (from 0) or the one whose
    /// `key_id` is `key`; neither: the file's only drawing.
    package struct Selection: Sendable {
        package var index: Int?
        package var key: String?
        package init(index: Int? = nil, key: String? = nil) { self.index = index; self.key = key }
    }

    /// Reads the drawing at `path`, as `format` (nil: as `format(of:)` finds it).
    package static func drawing(path: String, selection: Selection = Selection(),
                                format: Format? = nil) throws(InputError) -> InkDrawing {
        switch format ?? self.format(of: path) {
        case .inkML:
            if selection.index != nil || selection.key != nil {
                throw InputError(file: path, "--index and --key pick a drawing of a Quick, Draw! .ndjson file; an InkML file is one drawing")
            }
            let d = try InkMLReader.read(path: path)
            try d.check(file: path)
            return d
        case .quickDraw:
            // Read a piece at a time: the drawing is found without holding the file.
            let chunks = try QuickDrawChunks(path: path)
            var count = 0
            var only: (bytes: [UInt8], line: QuickDrawReader.Line)?
            while let piece = try chunks.next() {
                for line in piece.lines {
                    defer { count += 1 }
                    let hit: Bool
                    if let key = selection.key { hit = QuickDrawReader.keyID(piece.bytes, line: line) == key }
                    else if let index = selection.index { hit = count == index }
                    else {
                        if count == 0 { only = (piece.bytes, line) }
                        hit = false
                    }
                    if hit {
                        let d = try QuickDrawReader.drawing(piece.bytes, line: line, file: path)
                        try d.check(file: path)
                        return d
                    }
                }
            }
            let plural = count == 1 ? "" : "s"
            if let key = selection.key {
                throw InputError(file: path, "no drawing has key_id \(key) (\(count) drawing\(plural) in the file)")
            }
            if let index = selection.index {
                throw InputError(file: path, "--index \(index) is past the file's \(count) drawing\(plural) (they count from 0)")
            }
            guard count == 1, let only else {
                throw InputError(file: path, count == 0 ? "holds no drawing (no line that is not blank)"
                    : "holds \(count) drawings; pick one with --index N (from 0) or --key KEY_ID, or render them all "
                    + "into a folder (-o NAME/: a name that ends in / or has no extension) or a .npy file")
            }
            let d = try QuickDrawReader.drawing(only.bytes, line: only.line, file: path)
            try d.check(file: path)
            return d
        case nil:
            throw InputError(file: path, "is not an ink file (.inkml or .ndjson)")
        }
    }

    /// The script the drawing at `path` becomes: its JSON text (what `convert` writes).
    package static func scriptText(path: String, selection: Selection, options: InkOptions,
                                   format: Format? = nil) throws(InputError) -> String {
        InkScriptWriter.json(InkPlan.layout(try drawing(path: path, selection: selection, format: format), options))
    }

    /// The script the drawing at `path` becomes, read as `render` reads a script: rendering it
    /// is rendering the text `scriptText` gives. Errors name the ink file.
    package static func script(path: String, selection: Selection, options: InkOptions,
                               format: Format? = nil) throws(InputError) -> Script {
        try parse(try scriptText(path: path, selection: selection, options: options, format: format), path: path)
    }

    /// Reads the script text made from the ink at `path`, as `render` reads a script.
    package static func parse(_ text: String, path: String) throws(InputError) -> Script {
        do {
            return try Script.parse(bytes: Array(text.utf8), path: path, directory: FileSystem.folder(of: path))
        } catch {
            throw InputError(file: path, "the script made from this ink is refused (\(error.message)); "
                             + "a smaller --size or a larger --radius makes fewer stamps")
        }
    }
}
