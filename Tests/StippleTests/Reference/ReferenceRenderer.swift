import Foundation
@testable import Stipple

/// An independent CPU implementation of docs/reference.md §3 (age effects) and §4 (rasterisation and
/// blending), written from docs/reference.md, in Double, so tests can check the GPU against it.
///
/// Choices where the reference leaves room (tests must not depend on them):
/// - a pixel centre on the square's left or top edge is inside, on the right or bottom
///   edge outside (docs/reference.md §4 leaves ties to the driver);
/// - the background is the straight colour premultiplied in floating point, then rounded
///   to 8 bits (what glClearColor of the premultiplied colour gives on an RGBA8 target);
/// - the source colour is clamped to 0...1 before blending, as GL does for a unorm target.
struct ReferenceRenderer {
    struct Parameters {
        /// M, frames; 0 means stamps never age.
        var maxAge: Float = 0
        /// D, pixels.
        var dissolveDistance: Float = 6
        /// s.
        var pointScale: Float = 1
        /// Frames added to every stamp's stored age.
        var ageOffset: Float = 0
    }

    struct Geometry: Equatable {
        var centreX: Double, centreY: Double, diameter: Double
        var red: Double, green: Double, blue: Double, alpha: Double
    }

    /// Straight-alpha result (via `Image(width:height:premultiplied:)`).
    static func render(width: Int, height: Int, background: Color, stamps: [SketchPoint], brush: Brush,
                       parameters: Parameters, roundEachBlend: Bool = true) -> Image {
        let premul = renderPremultiplied(width: width, height: height, background: background, stamps: stamps,
                                         brush: brush, parameters: parameters, roundEachBlend: roundEachBlend)
        return Image(width: width, height: height, premultiplied: premul)
    }

    /// Premultiplied 8-bit RGBA, rows top to bottom: what glReadPixels of the canvas gives.
    static func renderPremultiplied(width: Int, height: Int, background: Color, stamps: [SketchPoint], brush: Brush,
                                    parameters: Parameters, roundEachBlend: Bool = true) -> [UInt8] {
        // The canvas in premultiplied 0...1 floats; quantised at each blend when asked.
        let bg = premultipliedBackground(background)
        var dst = [Double](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            for c in 0..<4 { dst[i * 4 + c] = Double(bg[c]) / 255 }
        }
        let cov = brush.coverage.map { Double($0) / 255 }

        for p in stamps {
            guard let g = stampGeometryValue(p, parameters) else { continue }
            let left = g.centreX - g.diameter / 2, top = g.centreY - g.diameter / 2
            let right = left + g.diameter, bottom = top + g.diameter
            // Pixels with left <= i + 0.5 < right, and likewise for rows.
            let i0 = max(0, Int((left - 0.5).rounded(.up)))
            let i1 = min(width - 1, Int((right - 0.5).rounded(.up)) - 1)
            let j0 = max(0, Int((top - 0.5).rounded(.up)))
            let j1 = min(height - 1, Int((bottom - 0.5).rounded(.up)) - 1)
            guard i0 <= i1, j0 <= j1 else { continue }
            let r = clamp01(g.red), gr = clamp01(g.green), b = clamp01(g.blue), a = clamp01(g.alpha)
            for j in j0...j1 {
                let v = (Double(j) + 0.5 - top) / g.diameter
                for i in i0...i1 {
                    let u = (Double(i) + 0.5 - left) / g.diameter
                    let sa = a * sampleBilinear(cov, brush.width, brush.height, u, v)
                    let src = (r * sa, gr * sa, b * sa, sa)
                    let k = (j * width + i) * 4
                    let inv = 1 - src.3
                    var out = (src.0 + dst[k] * inv, src.1 + dst[k + 1] * inv,
                               src.2 + dst[k + 2] * inv, src.3 + dst[k + 3] * inv)
                    if roundEachBlend {
                        out = (quantise(out.0), quantise(out.1), quantise(out.2), quantise(out.3))
                    }
                    dst[k] = out.0; dst[k + 1] = out.1; dst[k + 2] = out.2; dst[k + 3] = out.3
                }
            }
        }
        return dst.map { UInt8((clamp01($0) * 255).rounded()) }
    }

    /// The age math alone (docs/reference.md §3): centre, diameter (after the 1-px minimum) and straight
    /// colour; nil when the stamp is dead or not born.
    static func stampGeometry(_ p: SketchPoint, _ parameters: Parameters)
        -> (centreX: Double, centreY: Double, diameter: Double, red: Double, green: Double, blue: Double, alpha: Double)? {
        guard let g = stampGeometryValue(p, parameters) else { return nil }
        return (g.centreX, g.centreY, g.diameter, g.red, g.green, g.blue, g.alpha)
    }

    static func stampGeometryValue(_ p: SketchPoint, _ parameters: Parameters) -> Geometry? {
        let m = Double(parameters.maxAge)
        let age = Double(p.age) + Double(parameters.ageOffset)
        if age < 0 { return nil }             // not born yet
        if m > 0 && age >= m { return nil }   // dead
        var intro = 0.0, outro = 0.0, flare = 0.0, shrink = 1.0
        if m > 0 {
            let life = age / m
            intro = 1 - smoothstep(0.00, 0.05, life)
            outro = smoothstep(0.75, 1.00, life)
            flare = smoothstep(0.70, 0.80, life)
            shrink = 1 - smoothstep(0.70, 0.95, life)
        }
        let angle = Double(p.dissolveAngle), d = Double(parameters.dissolveDistance)
        let cx = Double(p.x) + cos(angle) * outro * d
        let cy = Double(p.y) + sin(angle) * outro * d
        let diameter = max(1, 2 * Double(p.radius) * Double(parameters.pointScale) * (1 + intro) * shrink)
        func whiten(_ c: Float) -> Double {
            let once = mix(Double(c), 1, 0.6 * intro)
            return mix(once, 1, 0.6 * flare)
        }
        return Geometry(centreX: cx, centreY: cy, diameter: diameter,
                        red: whiten(p.red), green: whiten(p.green), blue: whiten(p.blue), alpha: Double(p.alpha))
    }

    /// Background as GL clears it: premultiplied in floating point, rounded to 8 bits.
    static func premultipliedBackground(_ c: Color) -> [UInt8] {
        // Stipple's documented rule: quantise the straight colour to 8 bits, then
        // premultiply those bytes, rounding to nearest (as a PNG background is).
        let q = [c.red, c.green, c.blue, c.alpha].map { Int((clamp01(Double($0)) * 255).rounded()) }
        let a = q[3]
        return [q[0], q[1], q[2]].map { UInt8((Double($0 * a) / 255).rounded()) } + [UInt8(a)]
    }

    /// GL bilinear filtering with CLAMP_TO_EDGE: texel k's centre is at (k + 0.5) / w.
    static func sampleBilinear(_ texels: [Double], _ w: Int, _ h: Int, _ u: Double, _ v: Double) -> Double {
        let x = u * Double(w) - 0.5, y = v * Double(h) - 0.5
        let xf = x.rounded(.down), yf = y.rounded(.down)
        let fx = x - xf, fy = y - yf
        let x0 = Int(xf), y0 = Int(yf)
        func texel(_ i: Int, _ j: Int) -> Double {
            texels[min(max(j, 0), h - 1) * w + min(max(i, 0), w - 1)]
        }
        let top = texel(x0, y0) * (1 - fx) + texel(x0 + 1, y0) * fx
        let bottom = texel(x0, y0 + 1) * (1 - fx) + texel(x0 + 1, y0 + 1) * fx
        return top * (1 - fy) + bottom * fy
    }

    /// GLSL smoothstep.
    static func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
        let t = clamp01((x - e0) / (e1 - e0))
        return t * t * (3 - 2 * t)
    }

    static func mix(_ a: Double, _ b: Double, _ t: Double) -> Double { a * (1 - t) + b * t }
    static func clamp01(_ v: Double) -> Double { min(max(v, 0), 1) }
    /// What an RGBA8 target stores: the nearest of the 256 levels.
    static func quantise(_ v: Double) -> Double { (clamp01(v) * 255).rounded() / 255 }
}
