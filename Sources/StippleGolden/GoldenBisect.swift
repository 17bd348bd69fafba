import Stipple

/// Which draw entry first makes a script's frame differ from its golden: a binary search
/// over the prefixes of the entries shown at that frame. Prefix k (the background and the
/// first k entries) is compared with the golden on the pixels whose value it already
/// decides: those some entry draws and no entry after k touches. The first prefix that
/// differs there ends with the entry to blame. Pixels no entry draws are judged apart (the
/// background, or an entry that moved away). Each prefix is rendered at most once.
package struct GoldenBisect {
    /// A probe: prefix `count` against the golden.
    package struct Probe {
        package var count: Int
        package var comparison: ImageComparison
        /// The pixels beyond the tolerance, as (x, y, width, height); nil when none are.
        package var bounds: (x: Int, y: Int, width: Int, height: Int)?
        package var diff: Image
    }

    package enum Outcome {
        /// `entry` is the index in the script's `draw` of the first entry whose drawing
        /// differs; `probe` compares the prefix ending with it.
        case entry(Int, probe: Probe, shown: Int)
        /// Most pixels no entry draws differ: the background itself changed.
        case background(Probe)
        /// Where entries draw, the frame matches; some pixels no entry draws differ (an
        /// entry that moved away or was removed, or a part of the background).
        case undrawn(Probe)
        /// The whole frame is within the tolerance.
        case nothing(Probe)
        /// The golden's size is not the canvas's.
        case sizes(golden: ImageComparison.Size, canvas: ImageComparison.Size)
    }

    let renderer: Renderer
    let scene: Scene
    let frame: Int
    let golden: Image
    let tolerance: GoldenTolerance
    let primitive: Primitive
    /// The entries shown at the frame, as indices into the script's `draw`, and their batches.
    let shown: [Int]
    let batches: [StampBatch]
    /// Prefixes rendered so far.
    package private(set) var renderedPrefixes = 0

    package init(renderer: Renderer, scene: Scene, frame: Int, golden: Image, tolerance: GoldenTolerance,
                 primitive: Primitive = .points) async throws {
        self.renderer = renderer; self.scene = scene; self.frame = frame; self.golden = golden
        self.tolerance = tolerance; self.primitive = primitive
        shown = scene.session.shownEntries(count: scene.batches.count, atFrame: frame)
        // Each "detect edges" stroke keeps the reference of the whole frame: a prefix draws
        // exactly what the frame draws up to it.
        batches = try await renderer.resolvedBatches(scene, atFrame: frame, primitive: primitive)
    }

    /// Runs the search: the background, then ⌈log₂ n⌉ + 1 prefixes rendered, each with
    /// the coverage of the entries after it.
    package mutating func run() async throws -> Outcome {
        let canvas = ImageComparison.Size(width: scene.canvas.width, height: scene.canvas.height)
        let goldenSize = ImageComparison.Size(width: golden.width, height: golden.height)
        guard canvas == goldenSize else { return .sizes(golden: goldenSize, canvas: canvas) }
        let n = batches.count
        let all = try await coverage(of: batches)
        var cache: [Int: Probe] = [:]
        func probe(_ k: Int) async throws -> Probe {
            if let p = cache[k] { return p }
            let p = try await makeProbe(k, drawn: all)
            cache[k] = p
            return p
        }
        // Pixels no entry draws show the background: when most of them differ, the
        // background itself changed, and no entry is to blame.
        let untouched = GoldenBisect.mask(judging: { all.pixels[$0 * 4 + 3] == 0 }, like: all)
        let bare = compare(try await render(0), mask: untouched)
        let untouchedCount = (0..<all.width * all.height).reduce(0) { $0 + (all.pixels[$1 * 4 + 3] == 0 ? 1 : 0) }
        let whole = try await probe(n)
        if !bare.comparison.passes && bare.comparison.pixelsOverTolerance * 2 > untouchedCount {
            return .background(bare)
        }
        guard !whole.comparison.passes else {
            // Every pixel an entry decides matches; what differs, if anything, lies where none draws.
            return bare.comparison.passes ? .nothing(bare) : .undrawn(bare)
        }
        var low = 0, high = n  // prefix `low` matches where it decides, prefix `high` does not
        while high - low > 1 {
            let mid = (low + high) / 2
            if try await probe(mid).comparison.passes { low = mid } else { high = mid }
        }
        return .entry(shown[high - 1], probe: try await probe(high), shown: high)
    }

    private mutating func render(_ k: Int) async throws -> Image {
        renderedPrefixes += 1
        return try await draw(Array(batches.prefix(k)), on: scene.canvas)
    }

    /// `entries` over `canvas`, in tiles where the canvas needs them (the same pixels).
    private func draw(_ entries: [StampBatch], on canvas: Canvas) async throws -> Image {
        let settings = RenderSettings(effects: scene.effects, primitive: primitive)
        if renderer.needsTiles(canvas, batches: entries, tile: nil) {
            return try await renderer.renderTiled(renderer.planTiles(canvas: canvas, batches: entries, settings: settings))
        }
        return try await renderer.render(canvas: canvas, batches: entries, settings: settings)
    }

    /// Where `entries` may change the canvas: their stamps, and their shadows, painted alone
    /// on a transparent canvas. An effect or an eraser changes only what is under its stamps
    /// but draws nothing on a transparent canvas, and "detect edges" may keep any stamp:
    /// each is painted here as a plain stroke of its stamps.
    private func coverage(of entries: [StampBatch]) async throws -> Image {
        let footprints = entries.map { entry -> StampBatch in
            var b = entry
            b.mode = entry.mode?.footprint
            b.stamps = entry.stamps.map { var p = $0; p.alpha = 1; return p }
            return b
        }
        return try await draw(footprints, on: Canvas(width: scene.canvas.width, height: scene.canvas.height))
    }

    private mutating func makeProbe(_ k: Int, drawn all: Image) async throws -> Probe {
        let image = try await render(k)
        let later = k < batches.count ? try await coverage(of: Array(batches.suffix(from: k))) : nil
        let mask = GoldenBisect.mask(judging: { i in
            all.pixels[i * 4 + 3] != 0 && (later.map { $0.pixels[i * 4 + 3] == 0 } ?? true)
        }, like: all)
        var p = compare(image, mask: mask)
        p.count = k
        return p
    }

    private func compare(_ image: Image, mask: Image) -> Probe {
        let (c, diff) = ImageComparison.compareWithDiff(expected: golden, actual: image, tolerance: tolerance, mask: mask)
        let bounds = ImageComparison.overBounds(expected: golden, actual: image, tolerance: tolerance, mask: mask)
        return Probe(count: batches.count, comparison: c, bounds: bounds, diff: diff)
    }

    /// A comparison mask: white (compared) where `judged(pixel index)`, black (left out) elsewhere.
    static func mask(judging judged: (Int) -> Bool, like image: Image) -> Image {
        var pixels = [UInt8](repeating: 0, count: image.width * image.height * 4)
        for i in 0..<image.width * image.height {
            pixels[i * 4 + 3] = 255
            if judged(i) { pixels[i * 4] = 255; pixels[i * 4 + 1] = 255; pixels[i * 4 + 2] = 255 }
        }
        return Image(width: image.width, height: image.height, pixels: pixels)
    }
}

extension ImageComparison {
    /// The bounding box of the pixels beyond `tolerance` (same-size images), or nil.
    package static func overBounds(expected: Image, actual: Image, tolerance: GoldenTolerance,
                                   mask: Image?) -> (x: Int, y: Int, width: Int, height: Int)? {
        let w = min(expected.width, actual.width), h = min(expected.height, actual.height)
        let ignore = IgnoreMap.make(width: w, height: h, regions: tolerance.ignoreRegions, mask: mask)
        let k = PixelClassification.classify(expected: expected, actual: actual, tolerance: tolerance, ignore: ignore)
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0..<k.height {
            for x in 0..<k.width where k.kinds[y * k.width + x] == PixelClassification.Kind.over.rawValue {
                x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
            }
        }
        return x1 < 0 ? nil : (x0, y0, x1 - x0 + 1, y1 - y0 + 1)
    }
}
