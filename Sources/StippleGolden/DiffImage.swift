import Stipple
/// A picture of where two images differ, in the manner of pixelmatch: the expected image
/// faded to a light grey; red beyond the tolerance, amber within it, yellow anti-aliasing
/// forgiven, ignored pixels hatched blue; when the sizes differ it covers the union, with
/// the area outside either image magenta. Made by `ImageComparison.diffImage`.
public enum DiffImage {
    /// Pixels beyond the tolerance: red.
    public static let overTolerance: (UInt8, UInt8, UInt8) = (255, 0, 0)
    /// Pixels that differ within the tolerance: amber.
    public static let withinTolerance: (UInt8, UInt8, UInt8) = (255, 200, 0)
    /// Pixels in only one image, when the sizes differ: magenta.
    public static let outside: (UInt8, UInt8, UInt8) = (255, 0, 255)
    /// Pixels beyond the tolerance forgiven as anti-aliasing: pixelmatch's yellow.
    public static let antialiased: (UInt8, UInt8, UInt8) = (255, 255, 0)
    /// Ignored pixels: diagonal hatching of these two blues over the faded picture.
    public static let ignoredStripe: (UInt8, UInt8, UInt8) = (96, 128, 230)
    /// Ignored pixels: the lighter blue of the hatching.
    public static let ignoredTint: (UInt8, UInt8, UInt8) = (200, 214, 255)

    /// Per-channel only, K = `k`: the diff image `stipple compare --diff` writes by default.
    public static func make(expected: Image, actual: Image, maxChannelDifference k: Int) -> Image {
        precondition(k >= 0, "DiffImage: a tolerance cannot be negative")
        return ImageComparison.diffImage(expected: expected, actual: actual, tolerance: GoldenTolerance(maxChannelDifference: k))
    }

    /// Opaque RGBA, the size of the union of the two images, coloured by the classification
    /// of their overlap.
    static func make(expected: Image, actual: Image, classification k: PixelClassification) -> Image {
        let uw = max(expected.width, actual.width), uh = max(expected.height, actual.height)
        var out = [UInt8](repeating: 255, count: uw * uh * 4)
        out.withUnsafeMutableBufferPointer { o in
            // Magenta everywhere first; the overlap is overwritten below.
            if k.width < uw || k.height < uh {
                for i in 0..<(uw * uh) { o[i * 4] = outside.0; o[i * 4 + 1] = outside.1; o[i * 4 + 2] = outside.2 }
            }
            expected.pixels.withUnsafeBufferPointer { e in
                k.kinds.withUnsafeBufferPointer { kinds in
                    for y in 0..<k.height {
                        for x in 0..<k.width {
                            let c: (UInt8, UInt8, UInt8)
                            switch PixelClassification.Kind(rawValue: kinds[y * k.width + x])! {
                            case .equal:
                                let g = fadedGrey(e, at: (y * expected.width + x) * 4); c = (g, g, g)
                            case .within: c = withinTolerance
                            case .over: c = overTolerance
                            case .antialiased: c = antialiased
                            case .ignored:
                                // Stripes 3 px wide every 6 px, so the area reads as "left out" at a glance.
                                c = (x + y) % 6 < 3 ? ignoredStripe : ignoredTint
                            }
                            let oi = (y * uw + x) * 4
                            o[oi] = c.0; o[oi + 1] = c.1; o[oi + 2] = c.2
                        }
                    }
                }
            }
        }
        return Image(width: uw, height: uh, pixels: out)
    }

    /// Luma of the straight pixel composited over white, at 10% contrast towards white:
    /// 255 - 0.1 * (255 - Y), so the picture stays recognisable but never competes with
    /// the red and yellow marks.
    @inline(__always)
    static func fadedGrey(_ px: UnsafeBufferPointer<UInt8>, at i: Int) -> UInt8 {
        let a = Int(px[i + 3])
        let r = Int(px[i]) * a, g = Int(px[i + 1]) * a, b = Int(px[i + 2]) * a
        // y1000 = 1000 * luma of (premultiplied + 255 - a), premultiplied scaled by 255.
        let y1000 = (299 * r + 587 * g + 114 * b) / 255 + 1000 * (255 - a)
        return UInt8(255 - (255_000 - y1000 + 5000) / 10_000)
    }
}
