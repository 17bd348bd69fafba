/// Turns touch samples, as they arrive, into a curve of cubic Béziers that passes exactly
/// through every sample and reaches the newest one at once (docs/reference.md §6: no lag behind the finger).
///
/// The shape follows Maxim Shemanarev's "Interpolation with Bezier Curves" (as in JotUI): at a
/// sample P with neighbours Pprev and Pnext, take the midpoints A of Pprev–P and B of P–Pnext
/// and the point M dividing A–B in the ratio of the two edge lengths; the control points
/// around P are P + k(A − M) and P + k(B − M), k = smoothing. k = 0 gives straight segments.
///
/// Live input does not know Pnext when P arrives, and stamps already emitted are already on
/// screen, so emitted geometry is never re-shaped. The choice made here ("option b"):
/// - The newest segment Pprev → P is drawn at once with P's incoming control point computed
///   as if Pnext were P itself: P + k(Pprev − P)/2. The curve therefore arrives at P along
///   the chord Pprev → P, and that end tangent is committed.
/// - When Pnext arrives, the segment P → Pnext leaves P along the committed tangent (so the
///   joint stays G1: no kink at any sample), with Shemanarev's length k·|B − M|. That length
///   shrinks to 0 when the stroke doubles back (A ≈ B), so a reversal becomes a clean cusp
///   instead of a loop.
/// The price against the offline algorithm: the tangent at each sample is the incoming chord
/// rather than the direction Pprev → Pnext, so a sparsely sampled arc bulges a little at the
/// start of each segment. With live input (60–240 samples/s) the difference is sub-pixel;
/// the alternative, keeping Shemanarev's outgoing tangent, leaves a visible kink of half the
/// turning angle at every sample.
package struct CurveSmoother: Sendable {
    /// Samples closer than this to the previous one (px) are a resting finger: no new segment.
    package static let restingDistance: Double = 1e-3

    /// k, clamped to 0…1.
    package let smoothing: Double
    private var previous: SIMD2<Double>?
    package private(set) var last: SIMD2<Double>?
    /// Unit tangent with which the curve arrived at `last`; nil before the first segment.
    private var endTangent: SIMD2<Double>?

    package init(smoothing: Float) {
        self.smoothing = Double(min(max(smoothing, 0), 1))
    }

    /// Adds a sample. Returns the new segment from the previous sample to this one, or nil for
    /// the first sample and for a sample resting on the previous one.
    package mutating func add(_ p: SIMD2<Double>) -> CubicBezier? {
        guard let current = last else {
            last = p
            return nil
        }
        let edge = p - current
        let edgeLength = length(edge)
        guard edgeLength > Self.restingDistance else { return nil }

        let k = smoothing
        let before = previous ?? current
        let lengthBefore = length(current - before)
        let a = (before + current) / 2
        let b = (current + p) / 2
        let m = a + (b - a) * (lengthBefore / (lengthBefore + edgeLength))
        let chordDirection = edge / edgeLength
        let outDirection = endTangent ?? chordDirection
        let c1 = current + outDirection * (k * length(b - m))
        let c2 = p + k * (current - p) / 2

        previous = current
        last = p
        endTangent = chordDirection
        return CubicBezier(current, c1, c2, p)
    }

    /// The whole curve through `points` at once: the same segments as adding them one by one.
    package static func segments(through points: [SIMD2<Double>], smoothing: Float) -> [CubicBezier] {
        var smoother = CurveSmoother(smoothing: smoothing)
        return points.compactMap { smoother.add($0) }
    }

    private func length(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }
}
