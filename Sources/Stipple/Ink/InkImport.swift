import Foundation

/// Ink files as scripts: which files are ink, which drawing of a Quick, Draw! file is
/// meant, and the script a drawing becomes (docs/ink-formats.md).
package enum InkImport {
    package enum Format: Sendable { case inkML, quickDraw }

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
            let bytes = try FileSystem.readBytes(path: path, limit: maxQuickDrawBytes)
            let lines = QuickDrawReader.lines(bytes)
            let line: QuickDrawReader.Line
            if let key = selection.key {
                guard let found = lines.first(where: { QuickDrawReader.keyID(bytes, line: $0) == key }) else {
                    throw InputError(file: path, "no drawing has key_id \(key) (\(lines.count) drawing\(lines.count == 1 ? "" : "s") in the file)")
                }
                line = found
            } else if let index = selection.index {
                guard lines.indices.contains(index) else {
                    throw InputError(file: path, "--index \(index) is past the file's \(lines.count) drawing\(lines.count == 1 ? "" : "s") (they count from 0)")
                }
                line = lines[index]
            } else {
                guard lines.count == 1 else {
                    throw InputError(file: path, lines.isEmpty ? "holds no drawing (no line that is not blank)"
                        : "holds \(lines.count) drawings; pick one with --index N (from 0) or --key KEY_ID, or render them all into a folder or a .npy file")
                }
                line = lines[0]
            }
            let d = try QuickDrawReader.drawing(bytes, line: line, file: path)
            try d.check(file: path)
            return d
        case nil:
            throw InputError(file: path, "is not an ink file (.inkml or .ndjson)")
        }
    }

    /// The largest Quick, Draw! file read at once: 4 GiB.
    package static let maxQuickDrawBytes = 1 << 32

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
