/// The ink formats Stipple reads.
public enum InkFormat: String, Sendable, CaseIterable {
    /// W3C InkML (`.inkml`, `.ink`, or any XML file whose root element is `<ink>`, as Word,
    /// OneNote and Journal write in `.xml` files): one drawing a file.
    case inkML = "inkml"
    /// Google's Quick, Draw! ndjson (`.ndjson`): one drawing a line.
    case quickDraw = "ndjson"

    /// The format of the file at `path`: by its extension, else by its content (XML whose
    /// root element is `<ink>`); nil for anything else (a script).
    public init?(path: String) {
        guard let found = InkImport.format(of: path) else { return nil }
        self = found
    }
}
