import Foundation
import Stipple

/// pixelmatch 7's perceptual distance, written for Stipple (mapbox/pixelmatch, ISC): two
/// straight RGBA pixels are compared in OKLab (Ottosson 2020) with the toe-corrected
/// lightness Lr, by the HyAB distance |ΔLr| + √(Δa² + Δb²) (Abasi et al. 2019); black
/// against white is 1. A semi-transparent pixel is first composited over a fixed
/// checkerboard (or over white), so a colour change hidden by transparency still shows.
/// The sRGB decoding and the cube root go through the same interpolated tables as
/// pixelmatch's, so the two agree pixel for pixel.
enum OKLabDifference {
    /// sRGB byte → linear light, with a 257th entry for interpolation.
    private static let linear: [Double] = {
        var t = (0..<256).map { i -> Double in
            let c = Double(i) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        t.append(t[255])
        return t
    }()

    private static let cubeRootSteps = 4096
    private static let cubeRoots: [Double] = (0...(cubeRootSteps + 1)).map { cbrt(Double($0) / Double(cubeRootSteps)) }

    @inline(__always)
    private static func linearLight(_ x: Double) -> Double {
        let i = Int(x)
        return linear[i] + (linear[i + 1] - linear[i]) * (x - Double(i))
    }

    @inline(__always)
    private static func cubeRoot(_ x: Double) -> Double {
        let t = x * Double(cubeRootSteps)
        let i = Int(t)
        return cubeRoots[i] + (cubeRoots[i + 1] - cubeRoots[i]) * (t - Double(i))
    }

    @inline(__always)
    private static func toe(_ l: Double) -> Double {
        let k1 = 0.206, k2 = 0.03, k3 = (1 + k1) / (1 + k2)
        let x = k3 * l - k1
        return 0.5 * (x + (x * x + 4 * k2 * k3 * l).squareRoot())
    }

    /// Cube-rooted LMS and Lr of a colour given as (fractional) sRGB channels 0…255.
    @inline(__always)
    private static func lms(_ r: Double, _ g: Double, _ b: Double) -> (l: Double, m: Double, s: Double, lr: Double) {
        let lr = linearLight(r), lg = linearLight(g), lb = linearLight(b)
        let l = cubeRoot(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb)
        let m = cubeRoot(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb)
        let s = cubeRoot(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb)
        return (l, m, s, toe(0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s))
    }

    /// The background a semi-transparent pixel at byte offset `offset` (4 × its index) is
    /// composited over: pixelmatch's checkerboard, or white.
    @inline(__always)
    private static func background(offset: Int, checkerboard: Bool) -> (Double, Double, Double) {
        guard checkerboard else { return (255, 255, 255) }
        // JavaScript's `x | 0`: truncate, then wrap to 32 bits.
        func int32(_ x: Double) -> Int { Int(Int32(truncatingIfNeeded: Int64(x))) }
        return (Double(48 + 159 * (offset % 2)),
                Double(48 + 159 * (int32(Double(offset) / 1.618033988749895) % 2)),
                Double(48 + 159 * (int32(Double(offset) / 2.618033988749895) % 2)))
    }

    /// ΔLr, Δa and Δb of two straight pixels (r | g << 8 | b << 16 | a << 24), the first at
    /// pixel index `index`.
    @inline(__always)
    static func deltas(_ p: UInt32, _ q: UInt32, index: Int, checkerboard: Bool) -> (dLr: Double, da: Double, db: Double) {
        func channels(_ w: UInt32) -> (Double, Double, Double, Double) {
            (Double(w & 0xff), Double(w >> 8 & 0xff), Double(w >> 16 & 0xff), Double(w >> 24))
        }
        var (r1, g1, b1, a1) = channels(p), (r2, g2, b2, a2) = channels(q)
        if a1 < 255 || a2 < 255 {
            let (rb, gb, bb) = background(offset: index * 4, checkerboard: checkerboard)
            r1 = (r1 * a1 + rb * (255 - a1)) / 255; g1 = (g1 * a1 + gb * (255 - a1)) / 255; b1 = (b1 * a1 + bb * (255 - a1)) / 255
            r2 = (r2 * a2 + rb * (255 - a2)) / 255; g2 = (g2 * a2 + gb * (255 - a2)) / 255; b2 = (b2 * a2 + bb * (255 - a2)) / 255
        }
        let c1 = lms(r1, g1, b1), c2 = lms(r2, g2, b2)
        let dl = c1.l - c2.l, dm = c1.m - c2.m, ds = c1.s - c2.s
        return (c1.lr - c2.lr,
                1.9779984951 * dl - 2.4285922050 * dm + 0.4505937099 * ds,
                0.0259040371 * dl + 0.7827717662 * dm - 0.8086757660 * ds)
    }

    /// Whether the HyAB distance exceeds `threshold`, decided as pixelmatch decides it
    /// (|ΔLr| ≤ t and Δa² + Δb² ≤ (t − |ΔLr|)² is within), and the distance itself.
    @inline(__always)
    static func compare(_ p: UInt32, _ q: UInt32, index: Int, checkerboard: Bool,
                        threshold: Double) -> (over: Bool, distance: Double) {
        let d = deltas(p, q, index: index, checkerboard: checkerboard)
        let chroma = d.da * d.da + d.db * d.db
        let rest = threshold - abs(d.dLr)
        let within = rest > 0 && chroma <= rest * rest
        return (!within, abs(d.dLr) + chroma.squareRoot())
    }

    /// The straight image, one word a pixel (r | g << 8 | b << 16 | a << 24).
    static func straightWords(_ image: Image) -> [UInt32] {
        image.pixels.withUnsafeBytes { raw in
            (0..<image.width * image.height).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self).littleEndian }
        }
    }

    // MARK: Anti-aliasing, as pixelmatch 7 detects it

    /// Brightness difference (Rec. 601 luma, over white) of the centre `c` and a neighbour `n`;
    /// equal luma but different alpha gives half the alpha difference, so only pixels equal
    /// in both count as equal.
    @inline(__always)
    private static func brightnessDelta(_ c: UInt32, _ n: UInt32) -> Double {
        let r1 = Double(c & 0xff), g1 = Double(c >> 8 & 0xff), b1 = Double(c >> 16 & 0xff), a1 = Double(c >> 24)
        let r2 = Double(n & 0xff), g2 = Double(n >> 8 & 0xff), b2 = Double(n >> 16 & 0xff), a2 = Double(n >> 24)
        var dr = r1 - r2, dg = g1 - g2, db = b1 - b2
        let da = a1 - a2
        if dr == 0 && dg == 0 && db == 0 && da == 0 { return 0 }
        if a1 < 255 || a2 < 255 {
            dr = (r1 * a1 - r2 * a2 - 255 * da) / 255
            dg = (g1 * a1 - g2 * a2 - 255 * da) / 255
            db = (b1 * a1 - b2 * a2 - 255 * da) / 255
            let d = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
            return d == 0 && da != 0 ? da / 2 : d
        }
        return dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
    }

    /// pixelmatch 7's `antialiased()` on straight words: its brightness difference, the
    /// detector otherwise as pixelmatch 6's.
    static func isAntialiased(_ image: UnsafeBufferPointer<UInt32>, _ other: UnsafeBufferPointer<UInt32>,
                              x: Int, y: Int, width: Int, height: Int) -> Bool {
        PerceptualDifference.isAntialiased(image, other, x: x, y: y, width: width, height: height,
                                           brightnessDelta: brightnessDelta)
    }
}
