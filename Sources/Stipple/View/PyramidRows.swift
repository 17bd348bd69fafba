/// One step of a pyramid, row by row (docs/views.md): rows of premultiplied RGBA8 go in, and
/// every second one a row half as wide comes out, each pixel the mean of its 2×2 block
/// rounded to nearest, ties up — (a + b + c + d + 2) / 4; a last odd column or row averages
/// the pixels it has, (a + b + 1) / 2, or is the pixel itself.
package struct HalvingRows {
    /// Pixels in a row going in.
    let width: Int
    /// Pixels in a row coming out: ⌈width / 2⌉.
    var halfWidth: Int { (width + 1) / 2 }
    private var held: [UInt8] = []
    private var holding = false

    init(width: Int) {
        precondition(width >= 1, "a row of pixels")
        self.width = width
    }

    /// Takes a row (`width` pixels); returns the halved row when it completes a pair.
    mutating func push(_ row: UnsafeRawBufferPointer) -> [UInt8]? {
        precondition(row.count == width * 4, "a row of the pyramid's width")
        guard holding else {
            held = Array(row)
            holding = true
            return nil
        }
        holding = false
        return held.withUnsafeBytes { top in Self.halve(top, row, width: width) }
    }

    /// The halved last row when the rows ended on an odd one (it averages with itself).
    mutating func finish() -> [UInt8]? {
        guard holding else { return nil }
        holding = false
        return held.withUnsafeBytes { top in Self.halve(top, nil, width: width) }
    }

    /// The 2×2 means of `top` over `bottom` (of `top` alone when there is none).
    package static func halve(_ top: UnsafeRawBufferPointer, _ bottom: UnsafeRawBufferPointer?, width: Int) -> [UInt8] {
        let half = (width + 1) / 2
        return [UInt8](unsafeUninitializedCapacity: half * 4) { out, count in
            count = half * 4
            let t = top.bindMemory(to: UInt8.self).baseAddress!
            let pairs = width / 2
            if let bottom {
                let b = bottom.bindMemory(to: UInt8.self).baseAddress!
                for i in 0..<pairs {
                    let p = i * 8
                    for c in 0..<4 {
                        let s = UInt32(t[p + c]) + UInt32(t[p + 4 + c]) + UInt32(b[p + c]) + UInt32(b[p + 4 + c])
                        out[i * 4 + c] = UInt8(truncatingIfNeeded: (s + 2) >> 2)
                    }
                }
                if width % 2 == 1 {
                    let p = pairs * 8
                    for c in 0..<4 { out[pairs * 4 + c] = UInt8(truncatingIfNeeded: (UInt32(t[p + c]) + UInt32(b[p + c]) + 1) >> 1) }
                }
            } else {
                for i in 0..<pairs {
                    let p = i * 8
                    for c in 0..<4 { out[i * 4 + c] = UInt8(truncatingIfNeeded: (UInt32(t[p + c]) + UInt32(t[p + 4 + c]) + 1) >> 1) }
                }
                if width % 2 == 1 {
                    for c in 0..<4 { out[pairs * 4 + c] = t[pairs * 8 + c] }
                }
            }
        }
    }
}

/// Rows of level 0 in, rows of every level up to `levels` out: a chain of `HalvingRows`,
/// each level's rows handed to `emit(level, row)` as they complete, top to bottom.
struct PyramidRows {
    private var steps: [HalvingRows]

    /// A chain from rows `width` pixels wide up to level `levels`.
    init(width: Int, levels: Int) {
        var steps: [HalvingRows] = []
        var w = width
        for _ in 0..<levels {
            steps.append(HalvingRows(width: w))
            w = (w + 1) / 2
        }
        self.steps = steps
    }

    /// Takes a row of level 0; level 0's row and every row it completes above go to `emit`.
    mutating func push(_ row: UnsafeRawBufferPointer, emit: (Int, UnsafeRawBufferPointer) throws -> Void) rethrows {
        try emit(0, row)
        try climb(from: 0, row, emit: emit)
    }

    private mutating func climb(from level: Int, _ row: UnsafeRawBufferPointer,
                                emit: (Int, UnsafeRawBufferPointer) throws -> Void) rethrows {
        guard level < steps.count, let up = steps[level].push(row) else { return }
        try up.withUnsafeBytes {
            try emit(level + 1, $0)
            try climb(from: level + 1, $0, emit: emit)
        }
    }

    /// Ends the rows: a level holding a lone last row halves it alone, bottom level first.
    mutating func finish(emit: (Int, UnsafeRawBufferPointer) throws -> Void) rethrows {
        for level in steps.indices {
            guard let up = steps[level].finish() else { continue }
            try up.withUnsafeBytes {
                try emit(level + 1, $0)
                try climb(from: level + 1, $0, emit: emit)
            }
        }
    }
}

/// The area-weighted box that takes a level's pixels to a view's (docs/views.md): output
/// pixel i covers [start + i·step, start + (i + 1)·step) of the level, each level pixel
/// weighing the length it overlaps; the mean of premultiplied channels, rounded to nearest.
struct BoxWeights {
    /// For each output pixel: the first level pixel it reads and the weights from there.
    let first: [Int]
    let weights: [[Double]]

    init(start: Double, end: Double, outputs: Int, extent: Int) {
        let step = (end - start) / Double(outputs)
        var first: [Int] = [], weights: [[Double]] = []
        for i in 0..<outputs {
            let a = start + Double(i) * step, b = i == outputs - 1 ? end : start + Double(i + 1) * step
            let lo = max(0, Int(a.rounded(.down))), hi = min(extent, Int(b.rounded(.up)))
            var w: [Double] = []
            for p in lo..<max(lo + 1, hi) { w.append(max(0, min(b, Double(p + 1)) - max(a, Double(p)))) }
            first.append(lo)
            weights.append(w)
        }
        self.first = first
        self.weights = weights
    }

    /// `pixels` (`width` × `height`, premultiplied RGBA8) boxed to `xs.first.count` × `ys.first.count`.
    static func resample(_ pixels: [UInt8], width: Int, height: Int, xs: BoxWeights, ys: BoxWeights) -> [UInt8] {
        let (w, h) = (xs.first.count, ys.first.count)
        var out = [UInt8](repeating: 0, count: w * h * 4)
        // Rows first: each level row boxed across, then the boxed rows weighed down.
        var across = [Double](repeating: 0, count: w * 4 * height)
        for y in 0..<height {
            for i in 0..<w {
                var sum = SIMD4<Double>()
                for (k, weight) in xs.weights[i].enumerated() where weight > 0 {
                    let p = (y * width + xs.first[i] + k) * 4
                    sum += weight * SIMD4(Double(pixels[p]), Double(pixels[p + 1]), Double(pixels[p + 2]), Double(pixels[p + 3]))
                }
                let total = xs.weights[i].reduce(0, +)
                for c in 0..<4 { across[(y * w + i) * 4 + c] = sum[c] / total }
            }
        }
        for j in 0..<h {
            let total = ys.weights[j].reduce(0, +)
            for i in 0..<w {
                for c in 0..<4 {
                    var sum = 0.0
                    for (k, weight) in ys.weights[j].enumerated() where weight > 0 {
                        sum += weight * across[((ys.first[j] + k) * w + i) * 4 + c]
                    }
                    out[(j * w + i) * 4 + c] = UInt8(max(0, min(255, (sum / total + 0.5 + 1e-9).rounded(.down))))
                }
            }
        }
        return out
    }
}
