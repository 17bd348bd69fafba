import Stipple
/// pixelmatch's perceptual colour distance and anti-aliasing detector (mapbox/pixelmatch,
/// after Kotsarenko & Ramos 2010 and Vyšniauskas 2009), written for Stipple's images.
///
/// Pixels are taken premultiplied (docs/reference.md §7) and composited over white: channel c with
/// alpha a becomes premul(c) + 255 - a, which is pixelmatch's `255 + (c - 255) * a/255`
/// up to the 8-bit rounding of the premultiplied value. So a nearly transparent pixel's
/// straight colour, which is noise, cannot swing the distance.
public enum PerceptualDifference {
    /// The largest squared YIQ distance (black against white is 32857; pixelmatch's bound).
    public static let maxDelta = 35215.0

    /// A pixel differs perceptually when its delta exceeds this: threshold² × 35215.
    public static func deltaLimit(threshold: Double) -> Double { threshold * threshold * maxDelta }

    /// Squared YIQ distance between two straight RGBA pixels (premultiplied, over white).
    public static func delta(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8),
                             _ q: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Double {
        delta(pack(p.r, p.g, p.b, p.a), pack(q.r, q.g, q.b, q.a))
    }

    /// Brightness (Y of YIQ) of a straight RGBA pixel, premultiplied and over white.
    public static func brightness(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Double {
        brightness(pack(p.r, p.g, p.b, p.a))
    }

    // MARK: Packed premultiplied pixels (r | g << 8 | b << 16 | a << 24)

    /// The image premultiplied (round(c·a/255), as `Image.premultiplied()`), one word a pixel,
    /// so that equality of two pixels is one comparison.
    static func premultipliedWords(_ image: Image) -> [UInt32] {
        let n = image.width * image.height
        return [UInt32](unsafeUninitializedCapacity: n) { out, count in
            image.pixels.withUnsafeBufferPointer { px in
                for i in 0..<n {
                    let a = UInt32(px[i * 4 + 3])
                    let r = (UInt32(px[i * 4]) * a + 127) / 255
                    let g = (UInt32(px[i * 4 + 1]) * a + 127) / 255
                    let b = (UInt32(px[i * 4 + 2]) * a + 127) / 255
                    out[i] = r | g << 8 | b << 16 | a << 24
                }
            }
            count = n
        }
    }

    @inline(__always)
    static func pack(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> UInt32 {
        let a32 = UInt32(a)
        let pr = (UInt32(r) * a32 + 127) / 255, pg = (UInt32(g) * a32 + 127) / 255, pb = (UInt32(b) * a32 + 127) / 255
        return pr | pg << 8 | pb << 16 | a32 << 24
    }

    /// Channels of a packed premultiplied pixel composited over white, 0…255.
    @inline(__always)
    static func overWhite(_ p: UInt32) -> (Double, Double, Double) {
        let w = 255 - Double(p >> 24)
        return (Double(p & 0xff) + w, Double(p >> 8 & 0xff) + w, Double(p >> 16 & 0xff) + w)
    }

    @inline(__always)
    static func brightness(_ p: UInt32) -> Double {
        let (r, g, b) = overWhite(p)
        return r * 0.29889531 + g * 0.58662247 + b * 0.11448223
    }

    @inline(__always)
    static func delta(_ p: UInt32, _ q: UInt32) -> Double {
        if p == q { return 0 }
        let (r1, g1, b1) = overWhite(p), (r2, g2, b2) = overWhite(q)
        let dr = r1 - r2, dg = g1 - g2, db = b1 - b2
        // Y, I and Q are linear, so the difference of each is the transform of the difference.
        let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
        let i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
        let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
        return 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    }

    // MARK: Anti-aliasing

    /// pixelmatch's `antialiased()`: whether the pixel at (x, y) of `image` looks like an
    /// anti-aliased edge. It is when it has at most two neighbours of equal brightness (the
    /// image border counts as one), it has both darker and brighter neighbours, and the
    /// darkest or the brightest of them has three or more identical neighbours in both
    /// `image` and `other`, i.e. sits inside a flat area on one side of the edge.
    static func isAntialiased(_ image: UnsafeBufferPointer<UInt32>, _ other: UnsafeBufferPointer<UInt32>,
                              x: Int, y: Int, width: Int, height: Int) -> Bool {
        let yc = brightness(image[y * width + x])
        return isAntialiased(image, other, x: x, y: y, width: width, height: height) { centre, n in
            n == centre ? 0 : yc - brightness(n)
        }
    }

    /// The detector with the brightness difference of the centre and a neighbour given:
    /// pixelmatch 6's (YIQ luma, premultiplied over white) or pixelmatch 7's (see `OKLabDifference`).
    @inline(__always)
    static func isAntialiased(_ image: UnsafeBufferPointer<UInt32>, _ other: UnsafeBufferPointer<UInt32>,
                              x: Int, y: Int, width: Int, height: Int,
                              brightnessDelta: (_ centre: UInt32, _ neighbour: UInt32) -> Double) -> Bool {
        let x0 = max(x - 1, 0), y0 = max(y - 1, 0)
        let x2 = min(x + 1, width - 1), y2 = min(y + 1, height - 1)
        var equal = (x == x0 || x == x2 || y == y0 || y == y2) ? 1 : 0
        let centre = image[y * width + x]
        var lowest = 0.0, highest = 0.0  // most negative and most positive brightness delta
        var minX = 0, minY = 0, maxX = 0, maxY = 0
        // Columns outer, rows inner: pixelmatch's order, which decides ties.
        for nx in x0...x2 {
            for ny in y0...y2 where nx != x || ny != y {
                let d = brightnessDelta(centre, image[ny * width + nx])
                if d == 0 {
                    equal += 1
                    if equal > 2 { return false }
                } else if d < lowest {
                    lowest = d; minX = nx; minY = ny
                } else if d > highest {
                    highest = d; maxX = nx; maxY = ny
                }
            }
        }
        if lowest == 0 || highest == 0 { return false }
        return (hasManySiblings(image, x: minX, y: minY, width: width, height: height)
                && hasManySiblings(other, x: minX, y: minY, width: width, height: height))
            || (hasManySiblings(image, x: maxX, y: maxY, width: width, height: height)
                && hasManySiblings(other, x: maxX, y: maxY, width: width, height: height))
    }

    /// pixelmatch's `hasManySiblings()`: three or more identical neighbours (border counts as one).
    static func hasManySiblings(_ image: UnsafeBufferPointer<UInt32>, x: Int, y: Int, width: Int, height: Int) -> Bool {
        let x0 = max(x - 1, 0), y0 = max(y - 1, 0)
        let x2 = min(x + 1, width - 1), y2 = min(y + 1, height - 1)
        var equal = (x == x0 || x == x2 || y == y0 || y == y2) ? 1 : 0
        let centre = image[y * width + x]
        for nx in x0...x2 {
            for ny in y0...y2 where nx != x || ny != y {
                if image[ny * width + nx] == centre { equal += 1 }
                if equal > 2 { return true }
            }
        }
        return false
    }
}
