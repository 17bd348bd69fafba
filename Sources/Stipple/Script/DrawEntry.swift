/// One entry of a script's `draw` list: stamps drawn with one brush (SPEC §9).
public struct DrawEntry: Sendable {
    /// A name in `Script.brushes`.
    public var brush: String
    /// SketchPoints with their age at frame 0, validated (SPEC §2).
    public var stamps: [SketchPoint]
    /// Where the entry starts in the script.
    public var location: InputLocation
    /// The `.sketchpoints` file the stamps came from (resolved), if they came from one.
    public var source: String?

    public init(brush: String, stamps: [SketchPoint], location: InputLocation = .file, source: String? = nil) {
        self.brush = brush; self.stamps = stamps; self.location = location; self.source = source
    }
}
