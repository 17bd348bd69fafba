/// A touch sample as the stamper sees it: a place on the curve with the values that are
/// interpolated between samples.
public struct StrokeKnot: Equatable, Sendable {
    public var position: SIMD2<Double>
    /// Seconds.
    public var time: Double
    /// Pixels, after the pressure and speed mappings.
    public var radius: Double
    /// 0…1, style opacity times the pressure's opacity factor (the colour's alpha not yet in).
    public var opacity: Double

    public init(position: SIMD2<Double>, time: Double, radius: Double, opacity: Double) {
        self.position = position; self.time = time; self.radius = radius; self.opacity = opacity
    }
}
