import Foundation

/// The age math of docs/reference.md §3 on the CPU, the same formulas as GLSL/sketch.vert. The renderer
/// uses it to decide which stamps points cannot draw right; `stipple stamps` and the
/// tests use it to reason about frames.
public struct AgeEffects: Sendable, Equatable {
    /// M: the frames a stamp lives; a stamp whose age reaches M is gone. 0: stamps never age.
    public var maxAge: Float
    /// D: the pixels a dying stamp drifts along its dissolve angle (negative drifts the other way).
    public var dissolveDistance: Float
    /// s: multiplies every stamp's size.
    public var pointScale: Float

    /// Age effects with M, D and s; the defaults are no ageing, 6 pixels of drift and scale 1.
    public init(maxAge: Float = 0, dissolveDistance: Float = 6, pointScale: Float = 1) {
        self.maxAge = maxAge; self.dissolveDistance = dissolveDistance; self.pointScale = pointScale
    }

    /// A stamp of this age is drawn: born and not dead.
    @inline(__always)
    package func isLive(age: Float) -> Bool { !isUnborn(age: age) && !isDead(age: age) }

    /// Not born yet: a negative age (or no age at all: NaN is never drawn).
    @inline(__always)
    package func isUnborn(age: Float) -> Bool { !(age >= 0) }

    /// Dead: its age has reached M (only when M > 0; with M = 0 stamps never age).
    @inline(__always)
    package func isDead(age: Float) -> Bool { maxAge > 0 && age >= maxAge }

    @inline(__always)
    static func smoothstep(_ e0: Float, _ e1: Float, _ x: Float) -> Float {
        let t = min(max((x - e0) / (e1 - e0), 0), 1)
        return t * t * (3 - 2 * t)
    }

    package struct Geometry: Sendable, Equatable {
        package var centreX: Float
        package var centreY: Float
        /// After the 1-pixel minimum.
        package var diameter: Float
    }

    /// Where a live stamp lands and how wide it is.
    @inline(__always)
    package func geometry(of p: SketchPoint, age: Float) -> Geometry {
        var intro: Float = 0, outro: Float = 0, shrink: Float = 1
        if maxAge > 0 {
            let life = age / maxAge
            intro = 1 - AgeEffects.smoothstep(0, 0.05, life)
            outro = AgeEffects.smoothstep(0.75, 1, life)
            shrink = 1 - AgeEffects.smoothstep(0.70, 0.95, life)
        }
        let drift = outro * dissolveDistance
        let diameter = max(2 * p.radius * pointScale * (1 + intro) * shrink, 1)
        // Most stamps are not dissolving: no trigonometry for them.
        guard drift != 0 else { return Geometry(centreX: p.x, centreY: p.y, diameter: diameter) }
        return Geometry(centreX: p.x + cos(p.dissolveAngle) * drift,
                        centreY: p.y + sin(p.dissolveAngle) * drift, diameter: diameter)
    }
}
