/// Everything about a stroke except its touch samples. Every field has a default except the
/// colour and base radius; the script layer validates ranges before building one.
public struct StrokeStyle: Equatable, Sendable {
    /// Straight RGBA; its alpha is multiplied by `opacity` and the pressure's opacity factor.
    public var color: Color
    /// Radius in px at full pressure and low speed (both factors 1). Must be ≥ 0.
    public var radius: Float
    /// Distance between stamps as a fraction of the stamp's diameter. Default 0.15. Must be > 0.
    /// Below 0.5 each stamp overlaps the next by more than half, so the stroke reads as a
    /// line and the newest sample is always under a stamp; above it, the stroke is dotted.
    public var spacing: Float
    /// 0 gives straight segments between samples, 1 the roundest curve. Default 0.5.
    public var smoothing: Float
    /// Multiplies the colour's alpha. Default 1.
    public var opacity: Float
    /// Default `PressureMapping()`: radius 0.35…1 of base, opacity unaffected, no pressure = 1.
    public var pressure: PressureMapping
    /// Default nil: speed has no effect.
    public var speed: SpeedMapping?
    /// Default `.none`.
    public var rotation: StampRotation
    /// Where stamps can show (the script layer sets it from the canvas): stamps that can
    /// never touch it are not made. Default nil: every stamp is made.
    package var cull: StrokeCull?
    /// How the stroke meets the canvas (docs/brush-modes.md). Default nil: stamp by stamp.
    /// It shapes no stamp; the renderer draws a stroke with a mode as a stroke layer.
    public var mode: StrokeMode?

    /// A style in `color` with base `radius` (pixels, at full pressure and low speed); the
    /// other options default as in scripts.
    public init(color: Color, radius: Float, spacing: Float = 0.15, smoothing: Float = 0.5,
                opacity: Float = 1, pressure: PressureMapping = PressureMapping(),
                speed: SpeedMapping? = nil, rotation: StampRotation = .none) {
        self.color = color; self.radius = radius; self.spacing = spacing
        self.smoothing = smoothing; self.opacity = opacity; self.pressure = pressure
        self.speed = speed; self.rotation = rotation
    }

    /// The step between stamps by default: 0.15 of the stamp's diameter.
    public static let defaultSpacing: Float = 0.15
    /// The smoothing by default: 0.5, between straight segments (0) and the roundest curve (1).
    public static let defaultSmoothing: Float = 0.5
}
