import Stipple
extension DiffImage {
    /// Pixels beyond the tolerance forgiven as anti-aliasing: pixelmatch's yellow.
    public static let antialiased: (UInt8, UInt8, UInt8) = (255, 255, 0)
    /// Ignored pixels: diagonal hatching of these two blues over the faded picture.
    public static let ignoredStripe: (UInt8, UInt8, UInt8) = (96, 128, 230)
    public static let ignoredTint: (UInt8, UInt8, UInt8) = (200, 214, 255)

    /// The diff image of a golden check (same sizes), coloured by its classification.
    static func make(expected: Image, classification k: PixelClassification) -> Image {
        let w = k.width, h = k.height
        var out = [UInt8](repeating: 255, count: w * h * 4)
        out.withUnsafeMutableBufferPointer { o in
            expected.pixels.withUnsafeBufferPointer { e in
                k.kinds.withUnsafeBufferPointer { kinds in
                    for y in 0..<h {
                        for x in 0..<w {
                            let i = y * w + x, oi = i * 4
                            let c: (UInt8, UInt8, UInt8)
                            switch PixelClassification.Kind(rawValue: kinds[i])! {
                            case .equal:
                                let g = fadedGrey(e, at: oi); c = (g, g, g)
                            case .within: c = withinTolerance
                            case .over: c = overTolerance
                            case .antialiased: c = antialiased
                            case .ignored:
                                // Stripes 3 px wide every 6 px, so the area reads as "left out" at a glance.
                                c = (x + y) % 6 < 3 ? ignoredStripe : ignoredTint
                            }
                            o[oi] = c.0; o[oi + 1] = c.1; o[oi + 2] = c.2
                        }
                    }
                }
            }
        }
        return Image(width: w, height: h, pixels: out)
    }
}
