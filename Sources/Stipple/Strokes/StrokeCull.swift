/// Where a stroke's stamps can show: the canvas, widened by the most a stamp can reach
/// beyond its centre. A stamp centred further out can never touch a pixel of the canvas at
/// any age, so the stamper does not make it (a sample at x = 1e7 must not make
/// millions of stamps no one will see), and a piece of curve wholly that far out is measured
/// coarsely (`ArcLengthTable`). A culled stamp still takes its random draw.
package struct StrokeCull: Equatable, Sendable {
    package var width: Double
    package var height: Double
    /// The script's `pointScale`.
    package var pointScale: Double
    /// How far a dying stamp drifts (|dissolveDistance|; 0 when stamps never age).
    package var drift: Double

    package init(width: Double, height: Double, pointScale: Double, drift: Double) {
        self.width = width; self.height = height; self.pointScale = pointScale; self.drift = abs(drift)
    }

    /// The furthest a stamp of this radius reaches from its centre: half its largest
    /// diameter (twice its size during the intro, at least 1 px), its drift, and 1 px spare.
    @inline(__always)
    package func reach(radius: Double) -> Double {
        let diameter: Double = max(4.0 * radius * pointScale, 1.0)
        let half: Double = diameter / 2.0
        return half + drift + 1.0
    }

    /// False when a stamp of `radius` centred at `p` can never touch the canvas.
    @inline(__always)
    package func mayTouch(_ p: SIMD2<Double>, radius: Double) -> Bool {
        let r: Double = reach(radius: radius)
        let x: Double = p.x, y: Double = p.y
        return inside(x, y, x, y, r)
    }

    /// False when no stamp of at most `radius` centred inside the box can touch the canvas.
    @inline(__always)
    func mayTouch(min lo: SIMD2<Double>, max hi: SIMD2<Double>, radius: Double) -> Bool {
        let r: Double = reach(radius: radius)
        return inside(lo.x, lo.y, hi.x, hi.y, r)
    }

    /// Where no stamp of at most `radius` can touch the canvas: what `ArcLengthTable` needs
    /// to leave a far piece of curve coarse.
    package struct Region: Sendable {
        package var cull: StrokeCull
        package var radius: Double

        package init(cull: StrokeCull, radius: Double) { self.cull = cull; self.radius = radius }

        /// True when the curve between parameters t0 (at p0) and t1 (at p1) lies wholly in
        /// the region: the control points of that piece (from the end derivatives) do.
        package func excludes(_ curve: CubicBezier, from t0: Double, _ p0: SIMD2<Double>,
                             to t1: Double, _ p1: SIMD2<Double>) -> Bool {
            let h = (t1 - t0) / 3
            let q1 = p0 + curve.derivative(at: t0) * h
            let q2 = p1 - curve.derivative(at: t1) * h
            let lo = pointwiseMin(pointwiseMin(p0, q1), pointwiseMin(q2, p1))
            let hi = pointwiseMax(pointwiseMax(p0, q1), pointwiseMax(q2, p1))
            return !cull.mayTouch(min: lo, max: hi, radius: radius)
        }
    }

    /// True when the box [x0, x1] × [y0, y1] meets the canvas widened by r on every side.
    @inline(__always)
    private func inside(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ r: Double) -> Bool {
        let right: Double = width + r
        let bottom: Double = height + r
        let left: Double = -r
        if x1 < left || y1 < left { return false }
        if x0 > right || y0 > bottom { return false }
        return true
    }
}
