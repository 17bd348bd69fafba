/// A `points` entry of a script: one stroke's touch samples and how to draw them (docs/reference.md §6).
public struct StrokeSpec: Sendable, Equatable {
    /// The touch samples, times never going back.
    public var samples: [TouchSample]
    /// Colour, radius, spacing, smoothing, pressure and speed mappings, rotation and mode.
    public var style: StrokeStyle
    /// The stroke's place among the script's strokes, from 0: with the script's seed it
    /// seeds the stroke's dissolve angles.
    public var index: Int

    /// A stroke of `samples` drawn in `style`; `index` numbers it among the script's strokes
    /// (its dissolve angles depend on it).
    public init(samples: [TouchSample], style: StrokeStyle, index: Int) {
        self.samples = samples; self.style = style; self.index = index
    }
}
