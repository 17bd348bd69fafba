import XCTest
@testable import Stipple

/// The arc-length table as first written, a plain depth-first subdivision with an array for
/// its stack and three square roots an interval: `ArcLengthTable` is a faster walk of the
/// same subdivision, and must give the same bits (stamps are placed by it, and goldens hold
/// their pixels).
struct PlainArcLengthTable {
    private(set) var parameters: [Double] = [0], lengths: [Double] = [0]
    private(set) var unseenRuns: [ClosedRange<Double>] = []

    init(_ curve: CubicBezier, unseen: StrokeCull.Region?) {
        Self.subdivide(curve, unseen: unseen) { tm, first, t1, second, out in
            let start = lengths[lengths.count - 1]
            parameters.append(tm); lengths.append(start + first)
            parameters.append(t1); lengths.append(lengths[lengths.count - 1] + second)
            guard out else { return }
            let end = lengths[lengths.count - 1]
            if let last = unseenRuns.last, last.upperBound == start {
                unseenRuns[unseenRuns.count - 1] = last.lowerBound...end
            } else {
                unseenRuns.append(start...end)
            }
        }
    }

    static func totalLength(of curve: CubicBezier, unseen: StrokeCull.Region?) -> Double {
        var total = 0.0
        subdivide(curve, unseen: unseen) { _, first, _, second, _ in
            total = total + first
            total = total + second
        }
        return total
    }

    /// Splits an interval while it bends by more than 1e-6 px, its half-chords differ by more
    /// than 1e-3 px or it is longer than half a pixel (an unseen one: while it bends by more
    /// than 0.1 % of its length); at least to depth 2, at most to 40.
    private static func subdivide(_ curve: CubicBezier, unseen: StrokeCull.Region?,
                                  leaf: (Double, Double, Double, Double, Bool) -> Void) {
        var pending: [(t0: Double, p0: SIMD2<Double>, t1: Double, p1: SIMD2<Double>, depth: Int, out: Bool)] =
            [(0, curve.p0, 1, curve.p3, 0, false)]
        while let (t0, p0, t1, p1, depth, knownOut) = pending.popLast() {
            let tm = (t0 + t1) / 2
            let pm = curve.point(at: tm)
            let first = distance(p0, pm), second = distance(pm, p1)
            let chord = distance(p0, p1)
            let out = knownOut || (unseen != nil && first + second >= 16 && unseen!.excludes(curve, from: t0, p0, to: t1, p1))
            let split: Bool
            if out {
                split = depth < 2 || (depth < 40 && first + second - chord > 1e-3 * (first + second))
            } else {
                split = depth < 2 || (depth < 40 && (first + second - chord > 1e-6 || abs(first - second) > 1e-3
                                                      || first + second > 0.5))
            }
            if split {
                pending.append((tm, pm, t1, p1, depth + 1, out))
                pending.append((t0, p0, tm, pm, depth + 1, out))
            } else {
                leaf(tm, first, t1, second, out)
            }
        }
    }

    private static func distance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        ((b - a) * (b - a)).sum().squareRoot()
    }
}

final class ArcLengthTableReferenceTests: XCTestCase {
    /// Random curves at four scales, a third of them without a cull and the rest with one
    /// that leaves part of each curve unseen: the same table (every parameter and length), the
    /// same unseen runs and the same total, bit for bit.
    func testTheTableIsThePlainSubdivisionsBitForBit() {
        continueAfterFailure = false  // the first curve that differs says enough
        var rng = SplitMix64(seed: 7)
        func r(_ s: Double) -> Double { Double(rng.next() % 1_000_000) / 1_000_000 * s }
        for i in 0..<3000 {
            let scale = [1.0, 10, 100, 1000][i % 4]
            let c = CubicBezier(SIMD2(r(scale) - scale / 4, r(scale)), SIMD2(r(scale), r(scale)), SIMD2(r(scale), r(scale)),
                                SIMD2(r(scale), r(scale) - scale / 4))
            let unseen: StrokeCull.Region? = i % 3 == 0 ? nil
                : StrokeCull.Region(cull: StrokeCull(width: scale / 2, height: scale / 2, pointScale: 1, drift: 0), radius: 2)
            let fast = ArcLengthTable(c, unseen: unseen), plain = PlainArcLengthTable(c, unseen: unseen)
            XCTAssertEqual(fast.parameters.map(\.bitPattern), plain.parameters.map(\.bitPattern), "curve \(i)")
            XCTAssertEqual(fast.lengths.map(\.bitPattern), plain.lengths.map(\.bitPattern), "curve \(i)")
            XCTAssertEqual(fast.unseenRuns, plain.unseenRuns, "curve \(i)")
            XCTAssertEqual(ArcLengthTable.totalLength(of: c, unseen: unseen).bitPattern,
                           PlainArcLengthTable.totalLength(of: c, unseen: unseen).bitPattern, "curve \(i)")
        }
    }
}
