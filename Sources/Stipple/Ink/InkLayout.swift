import Foundation

/// How a drawing from an ink file is fitted to a canvas and drawn: the options of
/// `stipple render` and `stipple convert` for ink files, with the same defaults.
public struct InkOptions: Sendable {
    /// How the drawing is placed on the canvas.
    public enum Fit: String, Sendable, CaseIterable {
        /// The painted strokes' bounding box, scaled uniformly and centred inside the margin.
        case ink
        /// The source's own box (Quick, Draw! simplified: 256 × 256; InkML: its declared X
        /// and Y ranges) mapped so; the bounding box when the source has none.
        case frame
    }

    /// The canvas in pixels; nil: the ink's own size at 96 dpi plus the margin (ink without
    /// units: sized so that a stroke is as large as handwriting), between 64 and 4096 a side.
    public var size: (width: Int, height: Int)?
    /// Pixels kept clear around the ink; nil: 1/32 of the shorter side with a size, else the
    /// stroke radius plus 4.
    public var margin: Double?
    /// Every stroke's radius in canvas pixels (half the line's width); nil: the brush's width
    /// from the file, else a default: a 3-pixel pen at 96 dpi for InkML, lines 16 wide in
    /// Quick, Draw!'s 256 box (a simplified drawing's box, a raw drawing's longer side).
    public var radius: Double?
    /// nil: `frame` when the file declares its canvas in pixels, else `ink`.
    public var fit: Fit?
    /// The built-in brush strokes are drawn with.
    public var brush: Brush.Builtin = .hardRound
    /// The step between stamps as a share of their diameter, 0.01…10; nil: scripts' default, 0.15.
    public var spacing: Double?
    /// The canvas's colour under the ink.
    public var background: Color = .white
    /// Datasets: each stroke drawn as one anti-aliased line along its curve, coverage only,
    /// instead of as stamps of the brush (a fraction of the work).
    public var lines = false

    /// The defaults: the ink's own size, its file's brushes, a hard round brush on white.
    public init() {}

    /// Canvas pixels a second at which strokes without recorded time are drawn.
    package static let defaultSpeed = 500.0
    /// Seconds between strokes without recorded time.
    package static let strokeGap = 0.1
    /// Frames a second of the scripts made from ink.
    package static let fps = 30.0
    /// Texels a side of the brush.
    package static let brushSize = 128
    /// The largest canvas side chosen without `--size`; larger ink is scaled down to fit it.
    package static let largestNaturalSide = 4096.0
    /// The smallest canvas side chosen without `--size`; smaller ink is scaled up.
    package static let smallestNaturalSide = 64.0
    /// Ink whose numbers have no unit is sized, without `--size`, so that its median stroke
    /// spans this many pixels (a letter of handwriting at 96 dpi).
    package static let handwritingStrokeExtent = 32.0

    /// A stroke's radius, in the drawing's pixels, when neither the file nor `--radius` gives
    /// one: 8 for Quick, Draw! (lines 16 wide in its 256 box, as Google's bitmaps draw them),
    /// 1.5 for InkML (a 3-pixel pen at 96 dpi).
    package static func defaultRadius(_ drawing: InkDrawing) -> Double { drawing.defaultRadius }

    /// The margin when none is given: 1/32 of the shorter side of a given `--size` (at least 2
    /// pixels), else the largest stroke radius plus 4 pixels.
    package static func defaultMargin(size: (width: Int, height: Int)?, radius: Double) -> Double {
        if let size { return max(2, (Double(min(size.width, size.height)) / 32).rounded()) }
        return (radius + 4).rounded(.up)
    }
}

/// Ink fitted to a canvas: what a script made from it holds.
package struct InkPlan: Sendable {
    package var width: Int
    package var height: Int
    package var background: Color
    package var brush: Brush.Builtin
    package var strokes: [StrokeSpec]
    /// The clock frame that render frame 0 shows: the last sample's, so a plain render shows
    /// the whole drawing and a timelapse (`--speed`) replays it.
    package var startFrame: Int

    /// True when some stroke is drawn as a stroke layer (an eraser): asked of the frame's passes.
    var needsStrokeLayers: Bool { FramePasses(modes: strokes.lazy.map(\.style.mode)).hasLayers }

    /// The radius of a stroke that neither the file nor `--radius` sizes, in canvas pixels.
    /// `inkSide`: the longer side of the fitted ink box on the canvas.
    static func fallbackRadius(_ drawing: InkDrawing, scale: Double, canvasSide: Double, inkSide: Double) -> Double {
        if drawing.radiusFollowsCanvas { return InkOptions.defaultRadius(drawing) * inkSide / 256 }
        let r = InkOptions.defaultRadius(drawing) * scale
        return drawing.defaultRadiusIsPen ? max(1, min(r, canvasSide / 170)) : r
    }

    /// Places `drawing` on a canvas as `options` say.
    package static func layout(_ drawing: InkDrawing, _ options: InkOptions) -> InkPlan {
        let strokes = drawing.strokes.filter { !$0.points.isEmpty }
        let fileRadius = strokes.compactMap(\.width).max().map { $0 / 2 }
        // The box that is fitted, in the drawing's pixels.
        var box = drawing.paintedBounds ?? (minX: 0, minY: 0, maxX: 0, maxY: 0)
        let fit = options.fit ?? (drawing.declaresCanvas ? .frame : .ink)
        if fit == .frame, let f = drawing.frame { box = f }
        let bw = box.maxX - box.minX, bh = box.maxY - box.minY
        var width: Int, height: Int, scale: Double, margin: Double
        if let size = options.size {
            width = size.width; height = size.height
            margin = options.margin ?? InkOptions.defaultMargin(size: size, radius: 0)
            let roomX = max(0, Double(width) - 2 * margin), roomY = max(0, Double(height) - 2 * margin)
            if bw > 0 && bh > 0 { scale = min(roomX / bw, roomY / bh) }
            else if bw > 0 { scale = roomX / bw }
            else if bh > 0 { scale = roomY / bh }
            else { scale = 1 }
        } else {
            let longest = max(bw, bh)
            scale = 1
            if fit == .frame && drawing.declaresCanvas {
                // A canvas the file declares in pixels is kept as it is.
            } else if drawing.unitless, let extent = drawing.medianStrokeExtent, extent > 0, longest > 0 {
                // Numbers without a unit: sized so that a typical stroke is as large as handwriting
                // at 96 dpi, the whole within the natural sides.
                scale = InkOptions.handwritingStrokeExtent / extent
                scale = min(max(scale, InkOptions.smallestNaturalSide / longest), InkOptions.largestNaturalSide / longest)
            } else if longest > InkOptions.largestNaturalSide { scale = InkOptions.largestNaturalSide / longest }
            else if longest > 0, longest < InkOptions.smallestNaturalSide { scale = InkOptions.smallestNaturalSide / longest }
            let r = options.radius ?? fileRadius.map { $0 * scale }
                ?? InkPlan.fallbackRadius(drawing, scale: scale, canvasSide: max(bw, bh) * scale, inkSide: max(bw, bh) * scale)
            margin = options.margin ?? (fit == .frame && drawing.frame != nil ? 0 : InkOptions.defaultMargin(size: nil, radius: r))
            width = max(1, min(CanvasSpec.maxSide, Int((bw * scale + 2 * margin).rounded(.up))))
            height = max(1, min(CanvasSpec.maxSide, Int((bh * scale + 2 * margin).rounded(.up))))
        }
        if !scale.isFinite || scale <= 0 { scale = 1 }
        let ox = (Double(width) - bw * scale) / 2 - box.minX * scale
        let oy = (Double(height) - bh * scale) / 2 - box.minY * scale

        let fallback = InkPlan.fallbackRadius(drawing, scale: scale, canvasSide: Double(max(width, height)),
                                              inkSide: max(bw, bh) * scale)
        var specs: [StrokeSpec] = []
        var clock = 0.0
        let limit = Limits.maxTouchFrame / InkOptions.fps - 1
        for stroke in strokes {
            let radius = options.radius ?? (stroke.width ?? fileRadius.map { $0 * 2 }).map { $0 / 2 * scale } ?? fallback
            var style = StrokeStyle(color: stroke.color ?? .black, radius: Float(min(4096, max(0.25, radius))))
            if let spacing = options.spacing { style.spacing = Float(spacing) }
            if stroke.erases || stroke.opacity != nil {
                var mode = StrokeMode()
                if stroke.erases { mode.blend = .erase }
                if let opacity = stroke.opacity { mode.strokeOpacity = Float(max(0, min(1, opacity))) }
                style.mode = mode
            }
            let start = specs.isEmpty ? 0 : clock + InkOptions.strokeGap
            var samples: [TouchSample] = []
            samples.reserveCapacity(stroke.points.count)
            var last: (x: Float, y: Float)?
            var t = start
            for p in stroke.points {
                let x = Float(p.x * scale + ox), y = Float(p.y * scale + oy)
                if let recorded = p.t { t = recorded } else if let l = last {
                    let dx = Double(x - l.x), dy = Double(y - l.y)
                    t += (dx * dx + dy * dy).squareRoot() / InkOptions.defaultSpeed
                }
                t = min(max(t, samples.last?.t ?? 0), limit)
                samples.append(TouchSample(x: x, y: y, t: t, pressure: p.pressure.map { Float(min(1, max(0, $0))) }))
                last = (x, y)
            }
            clock = max(clock, samples.last?.t ?? clock)
            specs.append(StrokeSpec(samples: samples, style: style, index: specs.count))
        }
        let end = specs.map { $0.samples.last?.t ?? 0 }.max() ?? 0
        let startFrame = min(1 << 24, Int((end * InkOptions.fps).rounded(.up)) + 1)
        return InkPlan(width: width, height: height, background: options.background, brush: options.brush,
                       strokes: specs, startFrame: startFrame)
    }
}
