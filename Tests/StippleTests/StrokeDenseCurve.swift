@testable import Stipple

/// A stroke's curve as a fine polyline (0.1 px chords), with the arc position of every
/// distinct sample, so tests can measure stamps along the curve rather than in straight lines.
struct StrokeDenseCurve {
    private(set) var points: [SIMD2<Double>] = []
    private(set) var arcs: [Double] = []
    private(set) var sampleArcs: [Double] = []

    init(through positions: [SIMD2<Double>], smoothing: Float) {
        points = [positions[0]]; arcs = [0]; sampleArcs = [0]
        for segment in CurveSmoother.segments(through: positions, smoothing: smoothing) {
            // At least 200 chords: a short segment may hold a tight reversal whose tip coarse chords cut.
            let n = max(Int((segment.controlPolygonLength / 0.1).rounded(.up)), 200)
            for i in 1...n {
                let p = i == n ? segment.p3 : segment.point(at: Double(i) / Double(n))
                arcs.append(arcs[arcs.count - 1] + distance(points[points.count - 1], p))
                points.append(p)
            }
            sampleArcs.append(arcs[arcs.count - 1])
        }
    }

    var length: Double { arcs[arcs.count - 1] }

    /// Where on the curve `p` lies, looking only at arcs within `range` and, among places
    /// within `tolerance` px of p (a curve doubling back passes one place twice), taking the
    /// one nearest to `expected`. Nil if the curve does not pass within `tolerance`.
    func arcPosition(of p: SIMD2<Double>, in range: ClosedRange<Double>, expected: Double,
                     tolerance: Double) -> Double? {
        if points.count == 1 { return distance(p, points[0]) <= tolerance ? 0 : nil }
        var lo = 0, hi = arcs.count - 1
        while hi - lo > 1 { let mid = (lo + hi) / 2; if arcs[mid] < range.lowerBound { lo = mid } else { hi = mid } }
        var best: Double?
        var i = lo
        while i + 1 < points.count && arcs[i] <= range.upperBound {
            let a = points[i], b = points[i + 1]
            let ab = b - a
            let len2 = (ab * ab).sum()
            let u = len2 > 0 ? min(max(((p - a) * ab).sum() / len2, 0), 1) : 0
            if distance(p, a + u * ab) <= tolerance {
                let arc = arcs[i] + u * (arcs[i + 1] - arcs[i])
                if best.map({ abs(arc - expected) < abs($0 - expected) }) ?? true { best = arc }
            }
            i += 1
        }
        return best
    }

    /// The arc position of every stamp, walking forward one expected step at a time;
    /// nil (and the index) for the first stamp that is not on the curve.
    func arcPositions(of stamps: [Stamp], step: (Stamp) -> Double,
                      tolerance: Double = 2e-3) -> Result<[Double], OffCurve> {
        var result: [Double] = []
        for (i, s) in stamps.enumerated() {
            let previous = result.last ?? 0
            let expected = i == 0 ? 0 : previous + step(stamps[i - 1])
            let window = i == 0 ? 0...tolerance : previous...(expected + step(stamps[i - 1]) + 1)
            guard let arc = arcPosition(of: centre(s), in: window, expected: expected, tolerance: tolerance)
            else { return .failure(OffCurve(index: i, stamp: s)) }
            result.append(arc)
        }
        return .success(result)
    }

    struct OffCurve: Error { var index: Int; var stamp: Stamp }
}
