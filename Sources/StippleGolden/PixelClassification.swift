import Stipple
/// What a golden check decided for each pixel of two images of the same size: the one
/// pass behind `GoldenComparison`'s figures and its diff image.
struct PixelClassification {
    enum Kind: UInt8 {
        /// Identical premultiplied.
        case equal = 0
        /// Different, but within K (or under the perceptual threshold).
        case within
        /// Beyond the tolerance: counts against P.
        case over
        /// Beyond the tolerance but anti-aliased in either image: forgiven, counted apart.
        case antialiased
        /// In an ignored region or masked out.
        case ignored
    }

    let width: Int, height: Int
    /// One `Kind` a pixel, row-major.
    var kinds: [UInt8]
    var maxChannelDifference = 0
    var worstPixel: ImageComparison.Pixel?
    var pixelsDiffering = 0
    var pixelsOver = 0
    var pixelsAntialiased = 0
    var pixelsIgnored = 0

    /// Classifies `actual` against `expected` (same size) under `tolerance`; `ignore`, when
    /// given, is one flag a pixel (see `IgnoreMap`).
    static func classify(expected: Image, actual: Image, tolerance: GoldenTolerance, ignore: [Bool]?) -> PixelClassification {
        precondition(expected.width == actual.width && expected.height == actual.height,
                     "PixelClassification: sizes differ")
        let w = expected.width, h = expected.height
        var kindsOut = [UInt8](repeating: 0, count: w * h)
        guard w > 0, h > 0 else { return PixelClassification(width: w, height: h, kinds: kindsOut) }
        // Counters kept in locals: the closures below must not touch a struct whose array they borrow.
        var maxDiff = 0, worst: ImageComparison.Pixel?, differing = 0, over = 0, aa = 0, ignored = 0
        let e = PerceptualDifference.premultipliedWords(expected)
        let a = PerceptualDifference.premultipliedWords(actual)
        let k = UInt32(max(0, tolerance.maxChannelDifference))
        let limit = tolerance.perceptualThreshold.map(PerceptualDifference.deltaLimit(threshold:))
        let checkAA = tolerance.ignoreAntialiasing
        e.withUnsafeBufferPointer { e in
            a.withUnsafeBufferPointer { a in
                kindsOut.withUnsafeMutableBufferPointer { kinds in
                    for i in 0..<(w * h) {
                        if let ignore, ignore[i] {
                            kinds[i] = Kind.ignored.rawValue; ignored += 1; continue
                        }
                        let p = e[i], q = a[i]
                        if p == q { continue }
                        let d = channelDifference(p, q)
                        differing += 1
                        if d > maxDiff { maxDiff = d; worst = .init(x: i % w, y: i / w) }
                        let isOver = limit.map { PerceptualDifference.delta(p, q) > $0 } ?? (UInt32(d) > k)
                        if !isOver {
                            kinds[i] = Kind.within.rawValue
                        } else if checkAA && (PerceptualDifference.isAntialiased(e, a, x: i % w, y: i / w, width: w, height: h)
                                              || PerceptualDifference.isAntialiased(a, e, x: i % w, y: i / w, width: w, height: h)) {
                            kinds[i] = Kind.antialiased.rawValue; aa += 1
                        } else {
                            kinds[i] = Kind.over.rawValue; over += 1
                        }
                    }
                }
            }
        }
        return PixelClassification(width: w, height: h, kinds: kindsOut, maxChannelDifference: maxDiff, worstPixel: worst,
                                   pixelsDiffering: differing, pixelsOver: over, pixelsAntialiased: aa, pixelsIgnored: ignored)
    }

    /// Largest |difference| over the four channels of two packed premultiplied pixels.
    @inline(__always)
    static func channelDifference(_ p: UInt32, _ q: UInt32) -> Int {
        var d: UInt32 = 0
        for shift in stride(from: UInt32(0), to: 32, by: 8) {
            let x = p >> shift & 0xff, y = q >> shift & 0xff
            d = max(d, x > y ? x - y : y - x)
        }
        return Int(d)
    }
}

/// Which pixels a golden check leaves out: `ignoreRegions` rectangles and a mask image.
public enum IgnoreMap {
    /// True where a mask pixel says "ignore": black or transparent (alpha < 128, or luma of
    /// the straight colour < 128). White means "compare". Pixels beyond the mask's own size
    /// are compared, so a mask smaller than the canvas ignores only what it covers.
    @inline(__always)
    public static func masksOut(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> Bool {
        a < 128 || (299 * Int(r) + 587 * Int(g) + 114 * Int(b)) < 128_000
    }

    /// One flag a pixel of a `width`×`height` image, or nil when nothing is ignored.
    static func make(width: Int, height: Int, regions: [GoldenTolerance.Region], mask: Image?) -> [Bool]? {
        guard !regions.isEmpty || mask != nil, width > 0, height > 0 else { return nil }
        var flags = [Bool](repeating: false, count: width * height)
        for r in regions {
            let x0 = max(0, r.x), y0 = max(0, r.y)
            let x1 = min(width, r.x + r.width), y1 = min(height, r.y + r.height)
            guard x0 < x1, y0 < y1 else { continue }
            for y in y0..<y1 { for x in x0..<x1 { flags[y * width + x] = true } }
        }
        if let mask {
            for y in 0..<min(height, mask.height) {
                for x in 0..<min(width, mask.width) {
                    let p = mask.pixel(x, y)
                    if masksOut(p.r, p.g, p.b, p.a) { flags[y * width + x] = true }
                }
            }
        }
        return flags
    }
}
