/// A drawing read from an ink format (InkML, Quick, Draw!), before it is fitted to a canvas:
/// strokes of points in the source's own frame, already converted to pixels at 96 dpi when
/// the source states its units.
///
/// Read one with ``init(contentsOf:format:index:key:)``, ``init(inkML:name:)`` or
/// `init(quickDrawLine:name:line:)`; turn it into a ``Script`` with ``script(_:)``, which places
/// it on a canvas as ``InkOptions`` say, exactly as `stipple render` and `stipple convert` do.
public struct InkDrawing: Sendable {
    /// A sample of a stroke.
    public struct Point: Sendable, Equatable {
        public var x: Double
        public var y: Double
        /// Seconds from the first sample of the file; nil when the source records no time.
        public var t: Double?
        /// Force 0…1, already normalised; nil when the source records none (or its brush
        /// ignores pressure).
        public var pressure: Double?

        public init(x: Double, y: Double, t: Double? = nil, pressure: Double? = nil) {
            self.x = x; self.y = y; self.t = t; self.pressure = pressure
        }
    }

    /// A stroke: its samples and what the source says of its brush.
    public struct Stroke: Sendable {
        public var points: [Point]
        /// The brush's colour, when the source gives one.
        public var color: Color?
        /// The brush's width in the drawing's pixels, when the source gives one.
        public var width: Double?
        /// An eraser's stroke: drawn with the erase blend.
        public var erases = false
        /// The brush's opacity, 0…1, when the source makes it translucent (InkML's
        /// `transparency`): the whole stroke's coverage is capped at it (a stroke opacity), so
        /// a translucent pen stays translucent where its stroke crosses itself.
        public var opacity: Double?

        public init(points: [Point], color: Color? = nil, width: Double? = nil, erases: Bool = false,
                    opacity: Double? = nil) {
            self.points = points; self.color = color; self.width = width; self.erases = erases; self.opacity = opacity
        }
    }

    /// A box in the drawing's own coordinates.
    public typealias Box = (minX: Double, minY: Double, maxX: Double, maxY: Double)

    public var strokes: [Stroke]
    /// The box the source draws in, when it has one (Quick, Draw! simplified: 0…256 both
    /// ways; InkML: the X and Y channels' declared ranges); ``InkOptions/Fit/frame`` maps it
    /// onto the canvas.
    public var frame: Box?
    /// The frame is a canvas in pixels that the file declares (InkML X and Y ranges in px, as
    /// Stipple writes them): the ink is placed on it as it is unless told otherwise.
    package var declaresCanvas = false
    /// A stroke's radius in the drawing's pixels when nothing else gives one.
    package var defaultRadius = 1.5
    /// The default radius is a pen's (InkML): scaled with the ink, but at least 1 pixel and at
    /// most 1/170 of the canvas's longer side, so that ink in tiny units (0…1) scaled up is
    /// not drawn with a brush as wide as the canvas. Quick, Draw!'s scales as it is.
    package var defaultRadiusIsPen = true
    /// A raw Quick, Draw! drawing (in the player's screen pixels): the default radius is a
    /// share of the fitted ink's longer side (8 in 256, as simplified drawings are drawn), not
    /// a size in the drawing's pixels, so that lines are as wide whatever size it was drawn at.
    package var radiusFollowsCanvas = false
    /// The drawing's name in messages and as a file name (a Quick, Draw! `key_id`).
    public var name: String?
    /// The drawing's class (a Quick, Draw! `word`), when the source gives one.
    public var label: String?
    /// InkML without units: sizes are the file's own numbers, not pixels, so the natural
    /// canvas is chosen from the handwriting's size (see `InkPlan.layout`).
    package var unitless = false

    public init(strokes: [Stroke], frame: Box? = nil, name: String? = nil, label: String? = nil) {
        self.strokes = strokes; self.frame = frame; self.name = name; self.label = label
    }

    /// The bounding box of the strokes that paint (erasers and empty strokes left out):
    /// nil when nothing paints.
    package var paintedBounds: Box? {
        var b: (Double, Double, Double, Double)?
        for stroke in strokes where !stroke.erases {
            for p in stroke.points {
                if let c = b { b = (min(c.0, p.x), min(c.1, p.y), max(c.2, p.x), max(c.3, p.y)) }
                else { b = (p.x, p.y, p.x, p.y) }
            }
        }
        return b.map { (minX: $0.0, minY: $0.1, maxX: $0.2, maxY: $0.3) }
    }

    /// The median of the strokes' extents (the longer side of each one's box), nil without strokes.
    package var medianStrokeExtent: Double? {
        var sides: [Double] = []
        for stroke in strokes where !stroke.erases && !stroke.points.isEmpty {
            var b = (stroke.points[0].x, stroke.points[0].y, stroke.points[0].x, stroke.points[0].y)
            for p in stroke.points { b = (min(b.0, p.x), min(b.1, p.y), max(b.2, p.x), max(b.3, p.y)) }
            sides.append(max(b.2 - b.0, b.3 - b.1))
        }
        guard !sides.isEmpty else { return nil }
        sides.sort()
        return sides[sides.count / 2]
    }

    /// Refuses ink whose extent no canvas can hold (coordinates whose spread overflows).
    package func check(file: String) throws(InputError) {
        guard let b = paintedBounds else { return }
        let w = b.maxX - b.minX, h = b.maxY - b.minY
        guard w.isFinite, h.isFinite, w < 1e30, h < 1e30 else {
            throw InputError(file: file, "the ink spans \(w) × \(h) units; coordinates this far apart cannot be placed on a canvas")
        }
    }
}
