/// One entry of a script's `draw` list: stamps, or one stroke of touch samples, drawn
/// with one brush (docs/reference.md §9).
public struct DrawEntry: Sendable {
    /// A name in `Script.brushes`.
    public var brush: String
    /// SketchPoints with their age at frame 0, validated (docs/reference.md §2); empty for a stroke.
    public var stamps: [SketchPoint]
    /// The stroke, for a `points` entry: it becomes stamps in the stroke layer (docs/reference.md §6).
    public var stroke: StrokeSpec?
    /// Where the entry starts in the script.
    public var location: InputLocation
    /// The `.sketchpoints` file the stamps came from (resolved), if they came from one.
    public var source: String?
    /// How the entry meets the canvas (docs/brush-modes.md); nil: stamp by stamp. A stroke
    /// keeps it in its style (the one place it lives); a `stamps` entry here.
    public var mode: StrokeMode? {
        get { stroke.map(\.style.mode) ?? stampsMode }
        set {
            if stroke != nil { stroke!.style.mode = newValue } else { stampsMode = newValue }
        }
    }
    private var stampsMode: StrokeMode?
    /// The stroke's stamps, made when the script was read (nil for stamps, or when not made).
    package var made: MadeStamps?

    /// A `stamps` entry drawing `stamps` with the brush named `brush`; `location` is where the
    /// script writes it and `source` the `.sketchpoints` file its stamps came from, if any.
    public init(brush: String, stamps: [SketchPoint], location: InputLocation = .file, source: String? = nil,
                stroke: StrokeSpec? = nil, mode: StrokeMode? = nil) {
        self.brush = brush; self.stamps = stamps; self.location = location; self.source = source
        self.stroke = stroke
        if let mode { self.mode = mode }
    }
}
