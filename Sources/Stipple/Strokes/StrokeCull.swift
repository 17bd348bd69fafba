/// Where a stroke's stamps can show: the canvas, widened by the most a stamp can reach
/// beyond its centre. A stamp centred further out can never touch a pixel of the canvas at
/// any age, so the stamper does not make it (issue 13: a sample at x = 1e7 must not make
/// millions of stamps no one will see). Stamps that can touch the canvas are unchanged,
/// bit for bit, and so is every random draw: a culled stamp still takes its dissolve angle.
public struct StrokeCull: Equatable, Sendable {
    public var width: Double
    public var height: Double
    /// The script's `pointScale`.
    public var pointScale: Double
    /// How far a dying stamp drifts (|dissolveDistance|; 0 when stamps never age).
    public var drift: Double

    public init(width: Double, height: Double, pointScale: Double, drift: Double) {
        self.width = width; self.height = height; self.pointScale = pointScale; self.drift = abs(drift)
    }

    /// The furthest a stamp of this radius reaches from its centre: half its largest
    /// diameter (twice its size during the intro, at least 1 px), its drift, and 1 px spare.
    @inline(__always)
    public func reach(radius: Double) -> Double {
        let diameter: Double = max(4.0 * radius * pointScale, 1.0)
        let half: Double = diameter / 2.0
        return half + drift + 1.0
    }

    /// False when a stamp of `radius` centred at `p` can never touch the canvas.
    @inline(__always)
    public func mayTouch(_ p: SIMD2<Double>, radius: Double) -> Bool {
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
