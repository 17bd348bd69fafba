/// A touch sample as the stamper sees it: a place on the curve with the values that are
/// interpolated between samples.
package struct StrokeKnot: Equatable, Sendable {
    package var position: SIMD2<Double>
    /// Seconds.
    package var time: Double
    /// Pixels, after the pressure and speed mappings.
    package var radius: Double
    /// 0…1, style opacity times the pressure's opacity factor (the colour's alpha not yet in).
    package var opacity: Double

    package init(position: SIMD2<Double>, time: Double, radius: Double, opacity: Double) {
        self.position = position; self.time = time; self.radius = radius; self.opacity = opacity
    }
}
