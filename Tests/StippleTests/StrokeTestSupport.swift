import Foundation
@testable import Stipple

/// A random stroke for property tests: its samples, a style and how it was made, so a failure
/// can print the seed that reproduces it.
struct RandomStroke: CustomStringConvertible {
    var seed: UInt64
    var samples: [TouchSample]
    var style: StrokeStyle
    var fps: Double

    var description: String { "seed \(seed), \(samples.count) samples, style \(style)" }

    /// `gentle`: turns of at most 45° and steps far above the stamp step, so straight-line
    /// distance between neighbouring stamps stands in for arc length. Otherwise anything
    /// goes: reversals, resting samples, repeated times, missing pressure.
    static func make(seed: UInt64, gentle: Bool, spacing: ClosedRange<Double> = 0.05...0.45) -> RandomStroke {
        var rng = SplitMix64(seed: seed)
        func uniform(_ r: ClosedRange<Double>) -> Double { r.lowerBound + (r.upperBound - r.lowerBound) * rng.nextUnitDouble() }
        let radius = uniform(gentle ? 1...6 : 0.5...20)
        let spacingValue = uniform(spacing)
        let usesPressure = rng.nextUnitDouble() < 0.7
        let style = StrokeStyle(
            color: Color(red: Float(uniform(0...1)), green: Float(uniform(0...1)), blue: 0.5, alpha: Float(uniform(0.2...1))),
            radius: Float(radius), spacing: Float(spacingValue), smoothing: Float(uniform(0...1)),
            opacity: Float(uniform(0.5...1)),
            speed: rng.nextUnitDouble() < 0.3 ? SpeedMapping() : nil,
            rotation: rng.nextUnitDouble() < 0.5 ? .followStroke : .none)
        let count = Int(uniform(1...(gentle ? 60 : 30)))
        var x = uniform(0...300), y = uniform(0...300), t = uniform(0...2)
        var heading = uniform(0...(2 * .pi))
        var samples: [TouchSample] = []
        for i in 0..<count {
            let pressure: Float? = usesPressure ? Float(uniform(0...1)) : nil
            samples.append(TouchSample(x: Float(x), y: Float(y), t: t, pressure: pressure))
            heading += gentle ? uniform(-(.pi / 4)...(.pi / 4)) : uniform(-.pi...(.pi))
            let distance = gentle ? uniform(20...60) : uniform(0.5...80)
            if gentle || rng.nextUnitDouble() > 0.1 || i == 0 { // else: a resting finger
                x += distance * cos(heading); y += distance * sin(heading)
            }
            if gentle || rng.nextUnitDouble() > 0.05 { t += uniform(0.002...0.08) }
        }
        return RandomStroke(seed: seed, samples: samples, style: style, fps: 30)
    }

    func stamps(seed scriptSeed: UInt64 = 7, strokeIndex: Int = 0) -> [Stamp] {
        StrokeBuilder.stamps(for: samples, style: style, fps: fps, seed: scriptSeed, strokeIndex: strokeIndex)
    }

    /// Samples as the curve sees them: Float positions widened, resting repeats dropped.
    var distinctPositions: [SIMD2<Double>] {
        var result: [SIMD2<Double>] = []
        for s in samples {
            let p = SIMD2(Double(s.x), Double(s.y))
            if let last = result.last, distance(last, p) <= CurveSmoother.restingDistance { continue }
            result.append(p)
        }
        return result
    }
}

func distance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { ((b - a) * (b - a)).sum().squareRoot() }

func centre(_ s: Stamp) -> SIMD2<Double> { SIMD2(Double(s.point.x), Double(s.point.y)) }

/// Distance from p to the segment a–b.
func distance(_ p: SIMD2<Double>, toSegment a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
    let ab = b - a
    let len2 = (ab * ab).sum()
    guard len2 > 0 else { return distance(p, a) }
    let u = min(max(((p - a) * ab).sum() / len2, 0), 1)
    return distance(p, a + u * ab)
}

func birthFrame(_ s: Stamp) -> Double { -Double(s.point.age) }

func frame(_ t: Double, fps: Double) -> Double { (t * fps + 1e-9).rounded(.down) }

/// The case seeds of a property test: fixed, so failures reproduce.
func propertySeeds(_ count: Int, salt: UInt64) -> [UInt64] {
    var rng = SplitMix64(seed: salt)
    return (0..<count).map { _ in rng.next() }
}
