/// How pen pressure drives a stamp's radius and opacity.
///
/// A factor is `lerp(range.lowerBound, range.upperBound, pressure)`, so pressure 1 gives the
/// upper bound. With the defaults a full press draws at the style's base radius and a light
/// touch at 35 % of it, and opacity ignores pressure.
///
/// A sample without pressure uses `missingPressure`; when that is nil (the default) both
/// factors are 1, so pressure-less input (a mouse, a hand-written script) draws at exactly
/// the base radius and opacity.
public struct PressureMapping: Equatable, Sendable {
    /// Radius factor at pressure 0 … at pressure 1. Default 0.35…1.
    public var radius: ClosedRange<Float>
    /// Opacity factor at pressure 0 … at pressure 1. Default 1…1 (pressure leaves opacity alone).
    public var opacity: ClosedRange<Float>
    /// The pressure assumed for a sample that has none; nil means "factors 1". Default nil.
    public var missingPressure: Float?

    /// A mapping from pressure 0…1 onto factors in `radius` and `opacity` (linear); a sample
    /// without pressure draws at `missingPressure`, or at factor 1 when that is nil.
    public init(radius: ClosedRange<Float> = 0.35...1.0,
                opacity: ClosedRange<Float> = 1.0...1.0,
                missingPressure: Float? = nil) {
        self.radius = radius; self.opacity = opacity; self.missingPressure = missingPressure
    }

    /// Pressure has no effect at all.
    public static let none = PressureMapping(radius: 1...1, opacity: 1...1)

    /// (radius factor, opacity factor) for a sample's pressure.
    public func factors(pressure: Float?) -> (radius: Float, opacity: Float) {
        guard let p = pressure ?? missingPressure else { return (1, 1) }
        let c = min(max(p, 0), 1)
        // This form of lerp is exact at both ends.
        return (radius.lowerBound * (1 - c) + radius.upperBound * c,
                opacity.lowerBound * (1 - c) + opacity.upperBound * c)
    }
}
