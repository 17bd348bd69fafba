/// Ink read from another format (InkML, Quick, Draw!), before it is fitted to a canvas:
/// strokes of points in the source's own frame, already converted to pixels at 96 dpi when
/// the source states its units (docs/ink-formats.md).
package struct InkDrawing: Sendable {
    package struct Point: Sendable, Equatable {
        package var x: Double
        package var y: Double
        /// Seconds from the first sample of the file; nil when the source records no time.
        package var t: Double?
        /// Force 0…1, already normalised; nil when the source records none (or its brush
        /// ignores pressure).
        package var pressure: Double?

        package init(x: Double, y: Double, t: Double? = nil, pressure: Double? = nil) {
            self.x = x; self.y = y; self.t = t; self.pressure = pressure
        }
    }

    package struct Stroke: Sendable {
        package var points: [Point]
        /// The brush's colour, when the source gives one.
        package var color: Color?
        /// The brush's width in the drawing's pixels, when the source gives one.
        package var width: Double?
        /// An eraser's stroke: drawn with the erase blend.
        package var erases = false

        package init(points: [Point], color: Color? = nil, width: Double? = nil, erases: Bool = false) {
            self.points = points; self.color = color; self.width = width; self.erases = erases
        }
    }

    package var strokes: [Stroke]
    /// The box the source draws in, when it has one (Quick, Draw! simplified: 0…256 both
    /// ways; InkML: the X and Y channels' declared ranges); `--fit frame` maps it onto the canvas.
    package var frame: (minX: Double, minY: Double, maxX: Double, maxY: Double)?
    /// The frame is a canvas in pixels that the file declares (InkML X and Y ranges in px, as
    /// Stipple writes them): the ink is placed on it as it is unless told otherwise.
    package var declaresCanvas = false
    /// A stroke's radius in the drawing's pixels when nothing else gives one.
    package var defaultRadius = 1.5
    /// The default radius is a pen's (InkML): scaled with the ink, but at least 1 pixel and at
    /// most 1/170 of the canvas's longer side, so that ink in tiny units (0…1) scaled up is
    /// not drawn with a brush as wide as the canvas. Quick, Draw!'s scales as it is.
    package var defaultRadiusIsPen = true
    /// The drawing's name in messages and as a file name (a Quick, Draw! `key_id`).
    package var name: String?

    package init(strokes: [Stroke], frame: (minX: Double, minY: Double, maxX: Double, maxY: Double)? = nil, name: String? = nil) {
        self.strokes = strokes; self.frame = frame; self.name = name
    }

    /// The bounding box of the strokes that paint (erasers and empty strokes left out):
    /// nil when nothing paints.
    package var paintedBounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        var b: (Double, Double, Double, Double)?
        for stroke in strokes where !stroke.erases {
            for p in stroke.points {
                if let c = b { b = (min(c.0, p.x), min(c.1, p.y), max(c.2, p.x), max(c.3, p.y)) }
                else { b = (p.x, p.y, p.x, p.y) }
            }
        }
        return b.map { (minX: $0.0, minY: $0.1, maxX: $0.2, maxY: $0.3) }
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
