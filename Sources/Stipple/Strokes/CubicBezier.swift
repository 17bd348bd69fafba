/// A cubic Bézier segment in canvas pixels. Double precision: stamps are placed by walking
/// thousands of small steps, and Float error would add up along a long stroke.
package struct CubicBezier: Equatable, Sendable {
    package var p0: SIMD2<Double>
    package var p1: SIMD2<Double>
    package var p2: SIMD2<Double>
    package var p3: SIMD2<Double>

    package init(_ p0: SIMD2<Double>, _ p1: SIMD2<Double>, _ p2: SIMD2<Double>, _ p3: SIMD2<Double>) {
        self.p0 = p0; self.p1 = p1; self.p2 = p2; self.p3 = p3
    }

    /// The corners of the control points' bounding box, which holds the whole curve.
    package var minCorner: SIMD2<Double> { pointwiseMin(pointwiseMin(p0, p1), pointwiseMin(p2, p3)) }
    package var maxCorner: SIMD2<Double> { pointwiseMax(pointwiseMax(p0, p1), pointwiseMax(p2, p3)) }

    @inline(__always)
    package func point(at t: Double) -> SIMD2<Double> {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return a * p0 + b * p1 + c * p2 + d * p3
    }

    package func derivative(at t: Double) -> SIMD2<Double> {
        let u = 1 - t
        return 3 * u * u * (p1 - p0) + 6 * u * t * (p2 - p1) + 3 * t * t * (p3 - p2)
    }

    /// The direction of travel at `t`. Where the derivative vanishes (a control point on its
    /// end point, as with smoothing 0, or a cusp) the chord's direction stands in.
    package func direction(at t: Double) -> SIMD2<Double> {
        let d = derivative(at: t)
        let len = (d * d).sum().squareRoot()
        if len > 1e-9 { return d / len }
        let c = p3 - p0
        let clen = (c * c).sum().squareRoot()
        return clen > 0 ? c / clen : SIMD2(1, 0)
    }

    /// Length of the control polygon: an upper bound of the arc length.
    package var controlPolygonLength: Double {
        func dist(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { ((b - a) * (b - a)).sum().squareRoot() }
        return dist(p0, p1) + dist(p1, p2) + dist(p2, p3)
    }
}
