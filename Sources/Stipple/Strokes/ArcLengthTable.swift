/// Arc length along a `CubicBezier`, tabulated by adaptive subdivision, and its inverse.
///
/// A parameter interval is split while
/// - its two half-chords are longer than its chord by more than `flatness` px (it bends),
/// - the two half-chords differ by more than `evenness` px (the curve speeds up or slows down
///   inside it, so the parameter is not linear in arc length there: with little smoothing the
///   control points sit almost on the end points and the speed drops to nearly 0 at each end),
/// - or it is longer than `maxChord`.
/// Fixed subdivision is not enough: near a cusp (a stroke doubling back) the curve turns within
/// a fraction of a pixel and fixed chords cut the tip, short by several percent of a step.
/// The result is within about 1e-4 px of the arc (tested), below 1 % of the smallest step
/// (`StrokeStamper.minimumStep`); inverting interpolates the parameter linearly in one chord.
package struct ArcLengthTable: Sendable {
    package let curve: CubicBezier
    /// The table's parameters, in order from 0 (internal, not private: its reference test
    /// compares the whole table).
    let parameters: [Double]
    /// Cumulative length at each of `parameters`.
    let lengths: [Double]
    /// The arc-length ranges, in order, where the curve lies wholly in `unseen`: no stamp
    /// placed there can show.
    package let unseenRuns: [ClosedRange<Double>]
    /// False when the table stopped at `maxLeaves`.
    package let isComplete: Bool

    /// `unseen`: where the stroke's stamps cannot show (the stamper's cull, at the segment's
    /// largest radius). An interval whose piece of curve lies wholly there (its control points
    /// do: a piece of a Bézier lies inside its control points' hull) is split only while it
    /// bends by more than 0.1 % of its length, not down to `maxChord`: every stamp placed in
    /// it is culled, so its parameters need not be exact, and a far excursion (a sample at
    /// x = 1e6) costs a few intervals instead of millions. Its length is still within 0.1 %.
    ///
    /// `maxLeaves` bounds the table's memory (16 bytes a leaf, twice): past it the table stops
    /// where it got to and `isComplete` is false (a stamp so wide that nothing is culled, on a
    /// segment millions of pixels long, would otherwise take gigabytes).
    package init(_ curve: CubicBezier, unseen: StrokeCull.Region? = nil, maxChord: Double = 0.5,
                flatness: Double = 1e-6, evenness: Double = 1e-3, maxLeaves: Int = .max) {
        self.curve = curve
        var parameters: [Double] = [0], lengths: [Double] = [0]
        // Room for the usual table at once (two entries a leaf, a leaf about every quarter
        // pixel of the control polygon, which is at least the arc), not grown step by step.
        let polygon = ((curve.p1 - curve.p0) * (curve.p1 - curve.p0)).sum().squareRoot()
            + ((curve.p2 - curve.p1) * (curve.p2 - curve.p1)).sum().squareRoot()
            + ((curve.p3 - curve.p2) * (curve.p3 - curve.p2)).sum().squareRoot()
        let room = (polygon.isFinite ? Int(min(8 * polygon, 16_384)) : 0) + 16
        parameters.reserveCapacity(room); lengths.reserveCapacity(room)
        var runs: [ClosedRange<Double>] = []
        var leaves = 0
        isComplete = Self.subdivide(curve, unseen: unseen, maxChord: maxChord, flatness: flatness, evenness: evenness) { tm, first, t1, second, out in
            leaves += 1
            guard leaves <= maxLeaves else { return false }
            let start = lengths[lengths.count - 1]
            parameters.append(tm); lengths.append(start + first)
            parameters.append(t1); lengths.append(lengths[lengths.count - 1] + second)
            guard out else { return true }
            let end = lengths[lengths.count - 1]
            if let last = runs.last, last.upperBound == start {
                runs[runs.count - 1] = last.lowerBound...end
            } else {
                runs.append(start...end)
            }
            return true
        }
        self.parameters = parameters; self.lengths = lengths; self.unseenRuns = runs
    }

    /// `ArcLengthTable(curve, unseen: unseen).totalLength`, bit for bit (the same subdivision,
    /// the same sums in the same order), without keeping the table: for segments nothing is
    /// placed on.
    /// `whollyUnseen`: the caller knows the whole curve lies in `unseen` (its control points
    /// do), so every interval is measured coarsely from the start, however short.
    package static func totalLength(of curve: CubicBezier, unseen: StrokeCull.Region? = nil, whollyUnseen: Bool = false,
                                   maxChord: Double = 0.5, flatness: Double = 1e-6, evenness: Double = 1e-3) -> Double {
        var total = 0.0
        _ = subdivide(curve, unseen: unseen, whollyUnseen: whollyUnseen, maxChord: maxChord, flatness: flatness,
                      evenness: evenness) { _, first, _, second, _ in
            total = total + first
            total = total + second
            return true
        }
        return total
    }

    /// The one subdivision: calls `leaf` for every final interval in parameter order, with
    /// the lengths of its two half-chords and whether it lies wholly in `unseen`; stops, and
    /// returns false, when `leaf` does. Inlined into both callers, so that `leaf` is too.
    @inline(__always)
    private static func subdivide(_ curve: CubicBezier, unseen: StrokeCull.Region?, whollyUnseen: Bool = false,
                                  maxChord: Double, flatness: Double, evenness: Double,
                                  leaf: (Double, Double, Double, Double, Bool) -> Bool) -> Bool {
        // Depth-first, left interval first, so the table comes out in parameter order. `out`:
        // the interval is known to lie where no stamp shows (so are its halves). An interval's
        // chord is its parent's half-chord, carried down rather than measured again. Its
        // midpoint and half-chords are found when its parent splits, with its sibling's: two
        // points and four square roots that do not wait on one another (each root rounded as
        // alone: the same bits). Splitting stops at depth 40, and each split adds one interval
        // to the stack: it never holds more than 42, on the stack frame.
        struct Interval {
            var t0: Double, t1: Double
            var p0: SIMD2<Double>, p1: SIMD2<Double>
            var chord: Double
            var depth: Int
            var out: Bool
            /// The midpoint's parameter and point, and the two half-chords.
            var tm: Double
            var pm: SIMD2<Double>
            var first: Double, second: Double
        }
        return withUnsafeTemporaryAllocation(of: Interval.self, capacity: 48) { pending in
            let tm = 0.5, pm = curve.point(at: tm)
            let a = pm - curve.p0, b = curve.p3 - pm
            let halves = SIMD2((a * a).sum(), (b * b).sum()).squareRoot()
            pending[0] = Interval(t0: 0, t1: 1, p0: curve.p0, p1: curve.p3, chord: distance(curve.p0, curve.p3), depth: 0,
                                  out: whollyUnseen, tm: tm, pm: pm, first: halves.x, second: halves.y)
            var count = 1
            while count > 0 {
                count -= 1
                let i = pending[count]
                let tm = i.tm, pm = i.pm, first = i.first, second = i.second
                // Testing the hull costs two derivatives: only worth it on long intervals (a seen
                // interval under 16 px is subdivided in full, as before).
                let out = i.out || (unseen != nil && first + second >= 16
                                    && unseen!.excludes(curve, from: i.t0, i.p0, to: i.t1, i.p1))
                let split: Bool
                if out {
                    split = i.depth < 2 || (i.depth < 40 && first + second - i.chord > 1e-3 * (first + second))
                } else {
                    split = i.depth < 2 || (i.depth < 40 && (first + second - i.chord > flatness
                                                              || abs(first - second) > evenness
                                                              || first + second > maxChord))
                }
                if split {
                    let tl = (i.t0 + tm) / 2, tr = (tm + i.t1) / 2
                    let pl = curve.point(at: tl), pr = curve.point(at: tr)
                    let a = pl - i.p0, b = pm - pl, c = pr - pm, d = i.p1 - pr
                    let roots = SIMD4((a * a).sum(), (b * b).sum(), (c * c).sum(), (d * d).sum()).squareRoot()
                    pending[count] = Interval(t0: tm, t1: i.t1, p0: pm, p1: i.p1, chord: second, depth: i.depth + 1, out: out,
                                              tm: tr, pm: pr, first: roots[2], second: roots[3])
                    pending[count + 1] = Interval(t0: i.t0, t1: tm, p0: i.p0, p1: pm, chord: first, depth: i.depth + 1, out: out,
                                                  tm: tl, pm: pl, first: roots[0], second: roots[1])
                    count += 2
                } else if !leaf(tm, first, i.t1, second, out) {
                    return false
                }
            }
            return true
        }
    }

    package var totalLength: Double { lengths[lengths.count - 1] }

    /// The parameter t where the arc from t = 0 has length `s` (clamped to the segment).
    package func parameter(atLength s: Double) -> Double {
        if s <= 0 { return 0 }
        if s >= totalLength { return 1 }
        var lo = 0, hi = lengths.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if lengths[mid] <= s { lo = mid } else { hi = mid }
        }
        let span = lengths[hi] - lengths[lo]
        let f = span > 0 ? (s - lengths[lo]) / span : 0
        return parameters[lo] + f * (parameters[hi] - parameters[lo])
    }

    private static func distance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        ((b - a) * (b - a)).sum().squareRoot()
    }
}
