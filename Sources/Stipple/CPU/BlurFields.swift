import Foundation

/// Parts of a target read back: boxes of canvas pixels, each with its pixels as GL gives
/// them (premultiplied 8-bit RGBA, rows bottom to top). Boxes may overlap: where they do,
/// they hold the same pixels.
struct ReadBoxes {
    var parts: [(box: PixelBox, bytes: [UInt8])] = []

    /// Copies row `y`'s pixels in columns `lo..<hi` from every part that holds them into
    /// `row` (one pixel at `row[x - lo]`, four bytes), leaving the other pixels as they were.
    func copyRow(_ y: Int, _ lo: Int, _ hi: Int, into row: UnsafeMutablePointer<UInt8>) {
        for (box, bytes) in parts where y >= box.y0 && y < box.y1 {
            let x0 = max(lo, box.x0), x1 = min(hi, box.x1)
            guard x0 < x1 else { continue }
            let start = ((box.y1 - 1 - y) * box.width + (x0 - box.x0)) * 4
            bytes.withUnsafeBufferPointer { b in
                (row + (x0 - lo) * 4).update(from: b.baseAddress! + start, count: (x1 - x0) * 4)
            }
        }
    }
}

/// The blurred fields of brush modes, worked out on the CPU from pixels read back (docs/
/// brush-modes.md): the soften/sharpen blur B of the canvas, and a drop shadow's blurred
/// weight. A software rasterizer runs a blur tap through its texture sampler at several
/// times the cost of a multiply-add here; a GPU does not, and blurs in its passes. Both
/// compute the same separable sums in single precision; each field is rounded to 8 bits
/// once, at the end. Every output is a pure function of its own pixel's inputs, so a box's
/// pixels are the same whichever boxes are asked for (tiles never show).
enum BlurFields {
    /// What a soften or sharpen stroke needs besides the canvas: L read back, its opacity k,
    /// which effect, and "detect edges" (the reference, 8-bit premultiplied, and tolerance).
    struct BlurEffect: Sendable {
        var layer: ReadBoxes
        var opacity: Float
        var sharpen: Bool
        var reference: SIMD4<Float>?
        var tolerance: Float = 0
    }

    /// A soften or sharpen stroke over `box` (canvas pixels), worked out whole: B, the
    /// canvas blurred (taps −R…R along x, then y, `weights[|k|]` each, its border pixels
    /// repeated beyond it), then `d' = d + (E − d)·m` with E = B (soften) or clamp(2d − B)
    /// (sharpen, colour at most alpha) and m = L.a × k × w, where d.a > 0 and m > 0; every
    /// other pixel is written as read. `canvas`, the canvas before the stroke, holds every
    /// pixel a tap of `box` reaches. Returns premultiplied 8-bit RGBA, rows bottom to top.
    static func blurEffect(_ canvas: ReadBoxes, _ effect: BlurEffect, width: Int, height: Int, box: PixelBox,
                           weights: [Float]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: box.width * box.height * 4)
        out.withUnsafeMutableBufferPointer {
            blurEffect(canvas, effect, width: width, height: height, box: box, weights: weights, scratch: BlurScratch(),
                       into: $0.baseAddress!)
        }
        return out
    }

    /// As above, into `out` (`box`'s pixels, four bytes each), working in `scratch`.
    static func blurEffect(_ canvas: ReadBoxes, _ effect: BlurEffect, width: Int, height: Int, box: PixelBox,
                           weights: [Float], scratch: BlurScratch, into out: UnsafeMutablePointer<UInt8>) {
        let r = weights.count - 1, w = box.width, h = box.height
        // L over the box, and in each row the span of pixels where it is not zero: B is
        // worked out there alone (elsewhere m = 0), along x over the rows and columns those
        // spans' taps reach.
        let l = scratch.layer.take(w * h * 4, 0)
        let spans = scratch.spans.take(h, 0..<0)
        var any = false
        for y in 0..<h {
            let row = l + (h - 1 - y) * w * 4
            effect.layer.copyRow(box.y0 + y, box.x0, box.x1, into: row)
            if let first = (0..<w).first(where: { row[$0 * 4 + 3] > 0 }),
               let last = (0..<w).last(where: { row[$0 * 4 + 3] > 0 }) {
                spans[y] = first..<(last + 1)
                any = true
            }
        }
        out.initialize(repeating: 0, count: w * h * 4)
        for y in 0..<h { canvas.copyRow(box.y0 + y, box.x0, box.x1, into: out + (h - 1 - y) * w * 4) }
        guard any else { return }
        // The rows the y taps read (clamped to the canvas), and the columns the x taps read.
        let top = max(0, box.y0 - r), bottom = min(height, box.y1 + r)
        let lo = max(0, box.x0 - r), hi = min(width, box.x1 + r)
        let px = scratch.row.take((hi - lo) * 4, 0)
        // One row of the taps' pixels as floats, the canvas's border repeated: pixel x at x − x0 + R.
        let taps = scratch.taps.take(w + 2 * r)
        let across = scratch.across.take((bottom - top) * w)
        for yy in top..<bottom {
            // The output rows whose taps read this row (a clamped row stands for those beyond it).
            let first = max(box.y0, yy == top ? box.y0 : yy - r), last = min(box.y1 - 1, yy == bottom - 1 ? box.y1 - 1 : yy + r)
            var needed: Range<Int>?
            for y in stride(from: first, through: last, by: 1) where !spans[y - box.y0].isEmpty {
                let s = spans[y - box.y0]
                needed = needed.map { min($0.lowerBound, s.lowerBound)..<max($0.upperBound, s.upperBound) } ?? s
            }
            guard let need = needed else { continue }
            px.update(repeating: 0, count: (hi - lo) * 4)
            canvas.copyRow(yy, lo, hi, into: px)
            for i in (need.lowerBound)..<(need.upperBound + 2 * r) {
                let p = (min(max(box.x0 - r + i, lo), hi - 1) - lo) * 4
                taps[i] = SIMD4(Float(px[p]), Float(px[p + 1]), Float(px[p + 2]), Float(px[p + 3]))
            }
            convolve(taps + r + need.lowerBound, into: across + (yy - top) * w + need.lowerBound, count: need.count,
                     weights: weights)
        }
        let scale = effect.opacity / 255
        let sum = scratch.sums.take(w)
        func line(_ y: Int) -> UnsafePointer<SIMD4<Float>> { UnsafePointer(across + (min(max(y, top), bottom - 1) - top) * w) }
        for y in 0..<h where !spans[y].isEmpty {
            let span = spans[y], cy = box.y0 + y
            let (centre, w0) = (line(cy), weights[0])
            for x in span { sum[x] = w0 * centre[x] }
            for k in weights.indices.dropFirst() {
                let (above, below, wk) = (line(cy - k), line(cy + k), weights[k])
                for x in span { sum[x] += wk * (above[x] + below[x]) }
            }
            let d = out + (h - 1 - y) * w * 4, lrow = l + (h - 1 - y) * w * 4
            for x in span where d[x * 4 + 3] > 0 && lrow[x * 4 + 3] > 0 {
                let p = d + x * 4
                let before = SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3]))
                // Lane by lane: SIMD comparisons and selections compile to slow generic code.
                if let ref = effect.reference, (0..<4).contains(where: { abs(before[$0] - ref[$0]) > effect.tolerance }) {
                    continue
                }
                let m = Float(lrow[x * 4 + 3]) * scale
                var e = sum[x]
                if effect.sharpen {
                    for c in 0..<4 { e[c] = min(255, max(0, 2 * before[c] - e[c])) }
                    for c in 0..<3 { e[c] = min(e[c], e[3]) }
                }
                store(before + (e - before) * m, p)
            }
        }
    }

    /// A drop shadow's blurred weight over `box` (canvas pixels; it may reach past the
    /// canvas): G(L.a × k) with taps −R…R along x, then y, `weights[|k|]` each, L read back
    /// in `layer` (zero where no part holds it and beyond the canvas, `width` × `height`).
    /// Returns the weight in all four channels, 8-bit, rows bottom to top.
    static func shadow(_ layer: ReadBoxes, opacity: Float, width: Int, height: Int, box: PixelBox,
                       weights: [Float]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: box.width * box.height * 4)
        out.withUnsafeMutableBufferPointer {
            shadow(layer, opacity: opacity, width: width, height: height, box: box, weights: weights,
                   scratch: BlurScratch(), into: $0.baseAddress!)
        }
        return out
    }

    /// As above, into `out` (`box`'s pixels, four bytes each), working in `scratch`.
    static func shadow(_ layer: ReadBoxes, opacity: Float, width: Int, height: Int, box: PixelBox,
                       weights: [Float], scratch: BlurScratch, into out: UnsafeMutablePointer<UInt8>) {
        typealias V = SIMD8<Float>
        let r = weights.count - 1, w = box.width, h = box.height
        // Rows eight floats at a time: the width rounded up, and R + 8 spare on each side of L's row.
        let stride = (w + 7) / 8 * 8, pad = r + 8
        let lo = box.x0 - r
        // Rows and columns of L the taps reach: beyond the canvas it is zero.
        let top = max(0, box.y0 - r), bottom = min(height, box.y1 + r)
        let x0 = max(lo, 0), x1 = min(box.x1 + r, width)
        out.initialize(repeating: 0, count: w * h * 4)
        guard top < bottom, x0 < x1 else { return }
        let px = scratch.row.take((x1 - x0) * 4, 0)
        let alpha = scratch.alpha.take(stride + 2 * pad, 0)
        let across = UnsafeMutableRawPointer(scratch.weights.take((bottom - top) * stride))
        let sums = UnsafeMutableRawPointer(scratch.sumsAlone.take(stride))
        // Rows along which L is zero stay zero, and the taps along y leave them out.
        let inked = scratch.inked.take(bottom - top, false)
        let scale = opacity / 255
        let al = UnsafeRawPointer(alpha)
        // L's pixel x − R + i … at float pad + i − R: output x at pad + x.
        func at(_ i: Int) -> V { al.loadUnaligned(fromByteOffset: (pad + i) * 4, as: V.self) }
        for y in top..<bottom where layer.parts.contains(where: { y >= $0.box.y0 && y < $0.box.y1 }) {
            var any = false
            px.update(repeating: 0, count: (x1 - x0) * 4)
            layer.copyRow(y, x0, x1, into: px)
            for x in x0..<x1 {
                let a = px[(x - x0) * 4 + 3]
                alpha[pad - r + x - lo] = Float(a) * scale
                any = any || a != 0
            }
            guard any else { continue }
            inked[y - top] = true
            let line = across + (y - top) * stride * 4
            func sum(_ x: Int) -> V { line.load(fromByteOffset: x * 4, as: V.self) }
            for x in Swift.stride(from: 0, to: stride, by: 8) {
                line.storeBytes(of: weights[0] * at(x), toByteOffset: x * 4, as: V.self)
            }
            for k in weights.indices.dropFirst() {
                let wk = weights[k]
                for x in Swift.stride(from: 0, to: stride, by: 8) {
                    line.storeBytes(of: sum(x) + wk * (at(x - k) + at(x + k)), toByteOffset: x * 4, as: V.self)
                }
            }
            for x in x0..<x1 { alpha[pad - r + x - lo] = 0 }
        }
        for y in box.y0..<box.y1 {
            let taps = (-r...r).filter { y + $0 >= top && y + $0 < bottom && inked[y + $0 - top] }
            guard !taps.isEmpty else { continue }
            sums.initializeMemory(as: Float.self, repeating: 0, count: stride)
            for k in taps {
                let wk = weights[abs(k)], line = across + (y + k - top) * stride * 4
                for x in Swift.stride(from: 0, to: stride * 4, by: 32) {
                    let v = sums.load(fromByteOffset: x, as: V.self) + wk * line.load(fromByteOffset: x, as: V.self)
                    sums.storeBytes(of: v, toByteOffset: x, as: V.self)
                }
            }
            let dst = out + (box.y1 - 1 - y) * w * 4
            let s = sums.assumingMemoryBound(to: Float.self)
            for x in 0..<w { (dst + x * 4).initialize(repeating: UInt8(min(255, Int(s[x] * 255 + 0.5))), count: 4) }
        }
    }

    /// `out[x] = Σ weights[|k|] · taps[x + k]`, k = −R…R, for x in 0..<count (`taps` readable
    /// R before and after). A tap at a time along the whole row: the inner loop is a plain
    /// multiply-add.
    private static func convolve(_ taps: UnsafePointer<SIMD4<Float>>, into out: UnsafeMutablePointer<SIMD4<Float>>,
                                 count: Int, weights: [Float]) {
        let w0 = weights[0]
        for x in 0..<count { out[x] = w0 * taps[x] }
        for k in weights.indices.dropFirst() {
            let wk = weights[k]
            for x in 0..<count { out[x] += wk * (taps[x - k] + taps[x + k]) }
        }
    }

    /// Rounds a pixel's channels (0…255) to bytes.
    @inline(__always)
    private static func store(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<UInt8>) {
        for c in 0..<4 { p[c] = UInt8(min(255, max(0, Int(v[c] + 0.5)))) }
    }

    /// `field` over each of `boxes`, into `out` one after another (`box.width × height × 4`
    /// bytes each, in order; `out` grows to hold them), on every core: a worker a
    /// `scratch`, each taking every so many boxes. Returns each box's offset in `out`.
    static func each(_ boxes: [PixelBox], scratch: [BlurScratch], into out: inout [UInt8],
                     _ field: @Sendable (PixelBox, BlurScratch, UnsafeMutablePointer<UInt8>) -> Void) -> [Int] {
        var starts: [Int] = [], total = 0
        for b in boxes { starts.append(total); total += b.width * b.height * 4 }
        let offsets = starts
        if out.count < total { out = [UInt8](repeating: 0, count: total) }
        let workers = max(1, min(scratch.count, boxes.count))
        out.withUnsafeMutableBufferPointer { o in
            let base = Shared(o.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                for i in Swift.stride(from: worker, to: boxes.count, by: workers) {
                    field(boxes[i], scratch[worker], base.pointer + offsets[i])
                }
            }
        }
        return offsets
    }

    /// A buffer the workers share, each writing its own boxes' bytes.
    // Unchecked: a pointer the workers share, each writing only its own boxes' bytes.
    private struct Shared: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<UInt8>
        init(_ pointer: UnsafeMutablePointer<UInt8>) { self.pointer = pointer }
    }
}

/// Working buffers a blur worker reuses from box to box and frame to frame (fresh
/// allocations of their size would be fresh pages from the kernel every frame).
// Unchecked: one worker (one core) uses a scratch at a time; frames use them one after another.
final class BlurScratch: @unchecked Sendable {
    let layer = Scratch<UInt8>(), row = Scratch<UInt8>(), spans = Scratch<Range<Int>>()
    let taps = Scratch<SIMD4<Float>>(), across = Scratch<SIMD4<Float>>(), sums = Scratch<SIMD4<Float>>()
    let alpha = Scratch<Float>(), weights = Scratch<Float>(), sumsAlone = Scratch<Float>(), inked = Scratch<Bool>()

    /// One buffer of plain values, grown as needed and never shrunk.
    final class Scratch<T> {
        private var pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        private var capacity = 1
        deinit { pointer.deallocate() }

        /// `count` elements, each `value`.
        func take(_ count: Int, _ value: T) -> UnsafeMutablePointer<T> {
            let p = take(count)
            p.initialize(repeating: value, count: count)
            return p
        }

        /// Room for `count` elements, as the last use left them: for a buffer whose every
        /// element read is written first (`T` a plain value).
        func take(_ count: Int) -> UnsafeMutablePointer<T> {
            if count > capacity {
                pointer.deallocate()
                capacity = max(count, 2 * capacity)
                pointer = .allocate(capacity: capacity)
            }
            return pointer
        }
    }
}
