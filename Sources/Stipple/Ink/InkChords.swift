/// Ink drawn as lines (docs/ink-formats.md, "Lines"): a stroke's smoothed curve, the same
/// curve its stamps lie along, cut into straight chords that stay within `tolerance` of it,
/// each drawn as a quad around the capsule of its radius. The vertex layout is
/// `InkLineDrawer`'s: six vertices of 8 floats a chord.
enum InkChords {
    /// Pixels a chord may lie off the curve (Cairo's default tolerance), and its radius off
    /// the stroke's radius there.
    static let tolerance = 0.1
    /// Halvings of a curve segment at most.
    static let deepest = 16

    /// A point of a stroke's polyline and the stroke's radius there.
    struct Knot {
        var x: Float, y: Float, radius: Float
    }

    /// Appends the chords of `stroke`, moved by `dx`, `dy`; nothing for a stroke that shows
    /// nothing (its opacity is 0 throughout).
    static func append(_ stroke: StrokeSpec, dx: Float, dy: Float, to out: inout [Float]) {
        emit(polyline(stroke), dx: dx, dy: dy, to: &out)
    }

    /// The stroke's curve as a polyline: each segment of `CurveSmoother`'s curve halved until
    /// its control points lie within `tolerance` of its chord, the radius going linearly
    /// from one sample's to the next. A stroke whose radius follows its speed takes its
    /// stamps' centres instead, which carry it.
    static func polyline(_ stroke: StrokeSpec) -> [Knot] {
        let style = stroke.style
        if style.speed != nil { return fromStamps(stroke) }
        var points: [SIMD2<Double>] = []
        var radii: [Double] = []
        var shows = false
        for s in stroke.samples {
            let p = SIMD2(Double(s.x), Double(s.y))
            if let last = points.last, ((p - last) * (p - last)).sum() <= CurveSmoother.restingDistance * CurveSmoother.restingDistance {
                continue  // a resting finger: no segment (as the smoother skips it)
            }
            let f = style.pressure.factors(pressure: s.pressure)
            points.append(p)
            radii.append(max(0, Double(style.radius) * Double(f.radius)))
            shows = shows || style.opacity * f.opacity > 0
        }
        guard shows, let first = points.first else { return [] }
        var out = [Knot(x: Float(first.x), y: Float(first.y), radius: Float(radii[0]))]
        let segments = CurveSmoother.segments(through: points, smoothing: style.smoothing)
        for (i, c) in segments.enumerated() where i + 1 < radii.count {
            flatten(c, 0, 1, radii[i], radii[i + 1], depth: 0, into: &out)
        }
        return out
    }

    /// Appends the end of each flat piece of `c` between `t0` and `t1` (its start is already in).
    private static func flatten(_ c: CubicBezier, _ t0: Double, _ t1: Double, _ r0: Double, _ r1: Double,
                                depth: Int, into out: inout [Knot]) {
        let a = c.point(at: t0), b = c.point(at: t1)
        let third = c.point(at: t0 + (t1 - t0) / 3), twoThirds = c.point(at: t0 + 2 * (t1 - t0) / 3)
        if depth >= deepest || (offset(third, a, b) <= tolerance && offset(twoThirds, a, b) <= tolerance
                                && offset(c.point(at: (t0 + t1) / 2), a, b) <= tolerance) {
            out.append(Knot(x: Float(b.x), y: Float(b.y), radius: Float(r0 + (r1 - r0) * t1)))
            return
        }
        let tm = (t0 + t1) / 2
        flatten(c, t0, tm, r0, r1, depth: depth + 1, into: &out)
        flatten(c, tm, t1, r0, r1, depth: depth + 1, into: &out)
    }

    /// The distance from `p` to the segment `a`–`b`.
    private static func offset(_ p: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        let ab = b - a
        let len2 = (ab * ab).sum()
        let t = len2 > 0 ? min(max(((p - a) * ab).sum() / len2, 0), 1) : 0
        let q = p - (a + t * ab)
        return (q * q).sum().squareRoot()
    }

    /// The stroke's stamps' centres and radii, joined while the chord passes within
    /// `tolerance` of every centre it skips and of its radius.
    private static func fromStamps(_ stroke: StrokeSpec) -> [Knot] {
        let s = StrokeBuilder.stamps(for: stroke.samples, style: stroke.style, fps: InkOptions.fps, seed: 0,
                                     strokeIndex: stroke.index).map(\.point).filter { $0.alpha > 0 }
        guard let first = s.first else { return [] }
        var out = [Knot(x: first.x, y: first.y, radius: first.radius)]
        var i = 0
        while i < s.count - 1 {
            var j = i + 1
            while j + 1 < s.count, j + 1 - i <= 64, fits(s, i, j + 1) { j += 1 }
            out.append(Knot(x: s[j].x, y: s[j].y, radius: s[j].radius))
            i = j
        }
        return out
    }

    private static func fits(_ s: [SketchPoint], _ i: Int, _ k: Int) -> Bool {
        let a = SIMD2(Double(s[i].x), Double(s[i].y)), b = SIMD2(Double(s[k].x), Double(s[k].y))
        let ab = b - a
        let len2 = (ab * ab).sum()
        for m in (i + 1)..<k {
            let p = SIMD2(Double(s[m].x), Double(s[m].y))
            let t = len2 > 0 ? min(max(((p - a) * ab).sum() / len2, 0), 1) : 0
            if offset(p, a, b) > tolerance { return false }
            let r = Double(s[i].radius) + Double(s[k].radius - s[i].radius) * t
            if abs(r - Double(s[m].radius)) > tolerance { return false }
        }
        return true
    }

    /// The quads of a polyline's chords; a lone point is a dot.
    static func emit(_ knots: [Knot], dx: Float, dy: Float, to out: inout [Float]) {
        guard let first = knots.first else { return }
        if knots.count == 1 {
            quad(first, first, dx, dy, reach: (first.radius + 1, first.radius + 1), &out)
            return
        }
        for k in 0..<(knots.count - 1) {
            let a = knots[k], b = knots[k + 1]
            // A stroke's ends take the whole round cap; a joint only what the turn there leaves
            // uncovered on its outer side (the next chord's quad covers the rest).
            let before = k > 0 ? knots[k - 1] : nil
            let after = k + 2 < knots.count ? knots[k + 2] : nil
            quad(a, b, dx, dy, reach: (joint(before, a, b), joint(after, b, a)), &out)
        }
    }

    /// How far a chord's quad must reach past its end `at`, which it shares with the chord to
    /// `other` (nil: the stroke's end, the whole cap): the outer side of the turn there, r ·
    /// tan(θ/2) for a turn of θ, and a pixel for the coverage's ramp.
    static func joint(_ other: Knot?, _ at: Knot, _ from: Knot) -> Float {
        let r = at.radius
        guard let other else { return r + 1 }
        let u = SIMD2(at.x - from.x, at.y - from.y), v = SIMD2(other.x - at.x, other.y - at.y)
        let lu = (u * u).sum().squareRoot(), lv = (v * v).sum().squareRoot()
        guard lu > 1e-6, lv > 1e-6 else { return r + 1 }
        let cosine = min(max((u * v).sum() / (lu * lv), -1), 1)
        // tan(θ/2) = sqrt((1 − cos θ) / (1 + cos θ)); a turn past 90° takes the whole cap.
        guard cosine > 0 else { return r + 1 }
        return min(r + 1, r * ((1 - cosine) / (1 + cosine)).squareRoot() + 1)
    }

    /// The quad around the capsule from `a` to `b`, one pixel wider than its widest radius
    /// on each side (the coverage's ramp) and reaching `reach` past each end, as two triangles.
    static func quad(_ a: Knot, _ b: Knot, _ dx: Float, _ dy: Float, reach: (Float, Float), _ out: inout [Float]) {
        let pa = SIMD2(a.x + dx, a.y + dy), pb = SIMD2(b.x + dx, b.y + dy)
        let d = pb - pa
        let length = (d * d).sum().squareRoot()
        let u = length > 1e-6 ? d / length : SIMD2<Float>(1, 0)
        let n = SIMD2(-u.y, u.x) * (max(a.radius, b.radius) + 1)
        let (c0, c1) = (pa - u * reach.0 + n, pa - u * reach.0 - n)
        let (c2, c3) = (pb + u * reach.1 + n, pb + u * reach.1 - n)
        // Appended float by float: no array made for each chord.
        func vertex(_ c: SIMD2<Float>) {
            out.append(c.x); out.append(c.y)
            out.append(pa.x); out.append(pa.y); out.append(pb.x); out.append(pb.y)
            out.append(a.radius); out.append(b.radius)
        }
        vertex(c0); vertex(c1); vertex(c2)
        vertex(c2); vertex(c1); vertex(c3)
    }
}
