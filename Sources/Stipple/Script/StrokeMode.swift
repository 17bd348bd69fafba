/// How a draw entry's stroke meets the canvas when it is drawn as a stroke layer
/// (docs/brush-modes.md): a blend or an effect, a stroke opacity, an optional "detect
/// edges" restriction and an optional drop shadow. An entry without any of these keys
/// has no mode and is drawn stamp by stamp, each stamp OVER the canvas.
public struct StrokeMode: Sendable, Equatable {
    /// How the stroke layer meets the canvas, by the W3C compositing formulas on premultiplied
    /// colour: `over` (paint), `erase` (removes paint by the stroke's weight), `multiply`, `screen`.
    public enum Blend: String, Sendable, CaseIterable { case over, erase, multiply, screen }
    /// Adjustments of the picture under the stroke instead of paint: `lighten`, `darken`,
    /// `saturate`, `desaturate` (on the straight colour), `soften` and `sharpen` (a 13-tap blur
    /// of the canvas before the stroke). The stroke's colour is unused.
    public enum Effect: String, Sendable, CaseIterable { case lighten, darken, saturate, desaturate, soften, sharpen }

    /// The drop shadow cast by the stroke before it composites.
    public struct Shadow: Sendable, Equatable {
        /// Whole pixels, each within ±`maxOffset`.
        public var dx: Int = 4
        /// Whole pixels down (negative: up), within ±`maxOffset`.
        public var dy: Int = 4
        /// The Gaussian's σ in pixels, 0…`maxBlur` (0: sharp).
        public var blur: Float = 3
        /// The shadow's colour; its alpha scales the shadow (default black at 50 %).
        public var color = Color(red: 0, green: 0, blue: 0, alpha: Float(0x80) / 255)
        /// A shadow 4 pixels right and down, σ 3 pixels, black at 50 %.
        public init() {}
        /// The largest offset, in pixels, either way.
        public static let maxOffset = 4096
        /// The largest σ, in pixels.
        public static let maxBlur: Float = 64
        /// Taps on each side of the Gaussian: ⌈3σ⌉.
        public var radius: Int { Int((3 * blur).rounded(.up)) }
    }

    /// The blend: `over` unless given; exclusive with ``effect``.
    public var blend: Blend = .over
    /// Caps the whole stroke's coverage, 0…1.
    public var strokeOpacity: Float = 1
    /// An effect instead of paint; exclusive with a blend other than `over`.
    public var effect: Effect?
    /// "Detect edges": the largest per-channel difference (8-bit, 0…255) from the reference colour.
    public var edgeTolerance: Int?
    /// A drop shadow cast before the stroke composites; not with `erase` or an effect.
    public var shadow: Shadow?

    /// A mode that draws like a plain stroke layer: `over`, opacity 1, no edges, no shadow.
    public init() {}

    /// "Detect edges" tolerance when a script gives none: 32.
    public static let defaultEdgeTolerance = 32
    /// Taps on each side of the soften/sharpen blur.
    public static let blurRadius = 6
    /// The soften/sharpen blur's σ in pixels.
    public static let blurSigma: Float = 2

    /// Pixels beyond its stamps' bounds that a stroke with this mode can change: the blur's
    /// taps for soften and sharpen, the shadow's offset plus its taps, else 0. Strokes that
    /// read blurred pixels chain: a tile apron for several soften/sharpen strokes in a row
    /// needs the sum of their reaches.
    package var reach: Int {
        var r = blurTaps
        if let s = shadow { r = max(r, max(abs(s.dx), abs(s.dy)) + s.radius) }
        return r
    }
}

/// What kind of work a mode is: each asked here, and nowhere re-derived.
extension StrokeMode {
    /// Soften and sharpen: the effect reads a blur of the canvas around each pixel.
    package var isBlur: Bool { effect == .soften || effect == .sharpen }

    /// Taps on each side of the canvas blur this mode reads: `blurRadius` for a blur, else 0.
    package var blurTaps: Int { isBlur ? StrokeMode.blurRadius : 0 }

    /// How far past its stamps the mode's passes read L and the canvas across (the soften
    /// and sharpen blur's taps, or twice a shadow's taps: its first pass writes them past
    /// the stamps and reads them past that); down, the blur's taps.
    package var readSpread: Int { max(StrokeMode.blurRadius, 2 * (shadow?.radius ?? 0)) }

    /// True when the mode reads the stroke's weight around a pixel, not only at it: a blur of
    /// the canvas, or a shadow's blur of the weight.
    package var readsWeightAround: Bool { isBlur || shadow != nil }

    /// True when the result at a pixel depends on that pixel of the canvas and of L alone:
    /// no blur, no shadow and no "detect edges" reference.
    package var actsPixelByPixel: Bool { !isBlur && shadow == nil && edgeTolerance == nil }

    /// The blend a fixed-function GPU blend draws as L × k over the canvas: `over`, `erase`
    /// or `screen` alone (no effect, shadow or "detect edges"); nil when the passes must read
    /// the canvas.
    package var fixedFunctionBlend: Blend? {
        guard effect == nil, shadow == nil, edgeTolerance == nil, blend != .multiply else { return nil }
        return blend
    }
}

extension StrokeMode? {
    /// The reach of an entry's mode in pixels (0 for an entry drawn stamp by stamp).
    package var reach: Int { self?.reach ?? 0 }
}
