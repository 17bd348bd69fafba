import Stipple
/// What the comparison decided for each pixel of the top-left overlap of two images: the
/// one pass behind `ImageComparison`'s figures and its diff image.
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

    /// The overlap's size.
    let width: Int, height: Int
    /// One `Kind` a pixel of the overlap, row-major.
    var kinds: [UInt8]
    var maxChannelDifference = 0
    var worstPixel: ImageComparison.Pixel?
    var pixelsDiffering = 0
    var pixelsOver = 0
    var pixelsAntialiased = 0
    var pixelsIgnored = 0
    /// Pixels held against P by their channel difference (index 0…255), for the tight K.
    var channelHistogram = [Int](repeating: 0, count: 256)
    /// Differing pixels by the perceptual threshold they need, in thousandths (0…1000).
    var perceptualHistogram: [Int] = []

    /// Classifies the overlap of `actual` and `expected` under `tolerance`; `ignore`, when
    /// given, is one flag a pixel of the overlap (see `IgnoreMap`). Anti-aliasing is only
    /// looked for when the sizes match (otherwise the verdict is "fail" anyway).
    static func classify(expected: Image, actual: Image, tolerance: GoldenTolerance, ignore: [Bool]?) -> PixelClassification {
        let w = min(expected.width, actual.width), h = min(expected.height, actual.height)
        let ew = expected.width, aw = actual.width
        var kindsOut = [UInt8](repeating: 0, count: max(0, w * h))
        guard w > 0, h > 0 else { return PixelClassification(width: max(0, w), height: max(0, h), kinds: kindsOut) }
        // Counters kept in locals: the closures below must not touch a struct whose array they borrow.
        var maxDiff = 0, worst: ImageComparison.Pixel?, differing = 0, over = 0, aa = 0, ignored = 0
        var hist = [Int](repeating: 0, count: 256)
        var phist = [Int](repeating: 0, count: tolerance.perceptualThreshold == nil ? 0 : 1001)
        let e = PerceptualDifference.premultipliedWords(expected)
        let a = PerceptualDifference.premultipliedWords(actual)
        let k = UInt32(max(0, tolerance.maxChannelDifference))
        let oklab = tolerance.perceptualThreshold != nil && tolerance.effectiveMetric == .oklab
        let limit = oklab ? nil : tolerance.perceptualThreshold.map(PerceptualDifference.deltaLimit(threshold:))
        let threshold = tolerance.perceptualThreshold ?? 0, checkerboard = tolerance.checkerboard ?? true
        // OKLab compares straight pixels, as pixelmatch 7 does; YIQ premultiplied ones.
        let se = oklab ? OKLabDifference.straightWords(expected) : e
        let sa = oklab ? OKLabDifference.straightWords(actual) : a
        let checkAA = tolerance.ignoreAntialiasing && expected.width == actual.width && expected.height == actual.height
        let antialiased = oklab ? OKLabDifference.isAntialiased : PerceptualDifference.isAntialiased
        se.withUnsafeBufferPointer { se in
            sa.withUnsafeBufferPointer { sa in
                kindsOut.withUnsafeMutableBufferPointer { kinds in
                    for y in 0..<h {
                        for x in 0..<w {
                            let i = y * w + x
                            if let ignore, ignore[i] {
                                kinds[i] = Kind.ignored.rawValue; ignored += 1; continue
                            }
                            let p = e[y * ew + x], q = a[y * aw + x]
                            let sp = se[y * ew + x], sq = sa[y * aw + x]
                            if sp == sq && p == q { continue }
                            let d = channelDifference(p, q)
                            if d > 0 { differing += 1 }
                            if d > maxDiff { maxDiff = d; worst = .init(x: x, y: y) }
                            var isOver = UInt32(d) > k
                            if let limit {
                                let delta = PerceptualDifference.delta(p, q)
                                isOver = delta > limit
                                let t = (delta / PerceptualDifference.maxDelta).squareRoot() * 1000
                                phist[min(1000, Int(t.rounded(.up)))] += 1
                            } else if oklab {
                                let c = OKLabDifference.compare(sp, sq, index: y * ew + x, checkerboard: checkerboard,
                                                                threshold: threshold)
                                isOver = c.over
                                phist[min(1000, Int((c.distance * 1000).rounded(.up)))] += 1
                            }
                            if !isOver {
                                kinds[i] = d > 0 ? Kind.within.rawValue : Kind.equal.rawValue; hist[d] += 1
                            } else if checkAA && (antialiased(se, sa, x, y, w, h) || antialiased(sa, se, x, y, w, h)) {
                                kinds[i] = Kind.antialiased.rawValue; aa += 1
                            } else {
                                kinds[i] = Kind.over.rawValue; over += 1; hist[d] += 1
                            }
                        }
                    }
                }
            }
        }
        return PixelClassification(width: w, height: h, kinds: kindsOut, maxChannelDifference: maxDiff, worstPixel: worst,
                                   pixelsDiffering: differing, pixelsOver: over, pixelsAntialiased: aa, pixelsIgnored: ignored,
                                   channelHistogram: hist, perceptualHistogram: phist)
    }

    /// Counts the pixels that exist in one image only, in the `union` of the two: each
    /// maximally different and over any tolerance; the worst pixel becomes the first of
    /// them (row-major) unless an earlier one already differs by 255.
    mutating func addMissing(union: ImageComparison.Size) {
        let missing = union.pixelCount - width * height
        guard missing > 0 else { return }
        pixelsDiffering += missing; pixelsOver += missing
        let firstMissing = width < union.width && height > 0 ? ImageComparison.Pixel(x: width, y: 0)
            : ImageComparison.Pixel(x: 0, y: height)
        if maxChannelDifference < 255 {
            maxChannelDifference = 255; worstPixel = firstMissing
        } else if let w = worstPixel, firstMissing.y * union.width + firstMissing.x < w.y * union.width + w.x {
            worstPixel = firstMissing
        }
    }

    /// The most pixels held against P (`over`) in any `n`×`n` window (each side clamped to
    /// the image's), by running column sums: pixelmatch's `windowSize` count.
    func maxWindowCount(_ n: Int) -> Int {
        // Each side clamped to the image's own, as pixelmatch does: a 40-wide window on a
        // 40×10 image is the whole image, not 10×10.
        let w = max(1, min(n, width)), h = max(1, min(n, height))
        guard width > 0, height > 0 else { return 0 }
        var columns = [Int](repeating: 0, count: width)
        var best = 0
        for y in 0..<height {
            for x in 0..<width {
                if kinds[y * width + x] == Kind.over.rawValue { columns[x] += 1 }
                if y >= h, kinds[(y - h) * width + x] == Kind.over.rawValue { columns[x] -= 1 }
            }
            guard y >= h - 1 else { continue }
            var sum = 0
            for x in 0..<width {
                sum += columns[x]
                if x >= w { sum -= columns[x - w] }
                if x >= w - 1 { best = max(best, sum) }
            }
        }
        return best
    }

    /// The smallest K with at most `allowed` pixels beyond it.
    func neededChannelDifference(allowed: Int) -> Int {
        var beyond = 0
        for d in stride(from: 255, through: 0, by: -1) {
            if beyond + channelHistogram[d] > allowed { return d }
            beyond += channelHistogram[d]
        }
        return 0
    }

    /// The smallest perceptual threshold (to 0.001) with at most `allowed` pixels beyond it.
    func neededPerceptualThreshold(allowed: Int) -> Double {
        var beyond = 0
        for t in stride(from: perceptualHistogram.count - 1, through: 0, by: -1) {
            if beyond + perceptualHistogram[t] > allowed { return Double(t) / 1000 }
            beyond += perceptualHistogram[t]
        }
        return 0
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
