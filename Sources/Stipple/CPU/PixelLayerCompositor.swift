import CStipple
import Foundation

/// Stroke layers that act pixel by pixel (`PixelLayer`) laid over a frame's planes on the
/// CPU, with no trip through the GPU for the frame's colour: the pixels near a layer's
/// drawing are converted to R′G′B′ (fixed point, `YCbCrToRGB`), every covering layer
/// applied in order by the formulas of docs/brush-modes.md in single precision, and the
/// result laid over the frame as read and written back where it changed — for 4:2:0
/// chroma, each 2×2 block with a changed pixel, from the block's colours averaged. A pixel
/// whose colour comes out as read keeps its samples exactly as read.
///
/// The frame is visited a chroma row at a time (two luma rows for 4:2:0), eight pixels at a
/// time, and only in the groups of eight pixels of a row that a layer's drawing reaches; each band
/// of rows is its own work, on its own core. Where the CPU has AVX2, a row's whole groups run
/// in the loops of stp_layers.c, which give these loops' bytes (a row's partial last group
/// stays here).
// Unchecked: one bake's frames call `apply` one after another; inside it each band's scratch and rows are its
// own.
final class PixelLayerCompositor: @unchecked Sendable {
    private var scratch: [Scratch] = []
    /// The frames composed so far.
    private(set) var frames = 0
    /// Whether the rows' whole groups of eight are composed by the AVX2 loops of
    /// stp_layers.c (the same bytes; where the CPU has AVX2, unless a test compares the two).
    var usesAVX2 = PlaneCompositor.hasAVX2

    /// Lays `layers` (in order) over `frame`, in place. `startsFrame`: false for a region of a
    /// frame after its first.
    func apply(_ layers: [PixelLayer], to frame: inout Y4MFrame, _ c: YCbCrConversion, startsFrame: Bool = true) {
        if startsFrame { frames += 1 }
        let h = frame.header
        let rows = h.chroma == .yuv444 ? 1 : 2
        let top = (layers.map(\.box.y0).min() ?? 0) / rows * rows, bottom = layers.map(\.box.y1).max() ?? 0
        guard top < bottom else { return }
        let groups = (bottom - top + rows - 1) / rows
        let bands = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4, groups / 16))
        if scratch.count < bands || scratch.first?.width != h.width {
            scratch = (0..<bands).map { _ in Scratch(width: h.width) }
        }
        let rgb = YCbCrToRGB(c)
        let (offsets, scratch, avx2) = ((frame.yOffset, frame.cbOffset, frame.crOffset), scratch, usesAVX2)
        // Each layer's arrays as pointers, taken once a frame: the bands read them row by row
        // without taking and giving back the arrays' counts (which the two bands would do
        // together, on the same counts, for every layer of every row). `layers` holds the
        // arrays, unchanged, until the bands are done.
        let refs = layers.map { layer in
            layer.planes.withUnsafeBufferPointer { planes in
                layer.spans.withUnsafeBufferPointer { spans in LayerRows(layer, planes.baseAddress, spans.baseAddress) }
            }
        }
        withExtendedLifetime(layers) {
            frame.bytes.withUnsafeMutableBufferPointer { planesBuffer in
                let shared = Shared(planes: planesBuffer.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: bands) { band in
                    let rowsAt = RowsAt(planes: shared.planes, scratch: scratch[band], header: h, offsets: offsets, rgb: rgb,
                                        conversion: c, avx2: avx2)
                    for g in (groups * band / bands)..<(groups * (band + 1) / bands) {
                        let y = top + g * rows
                        rowsAt.draw(refs, rows: y..<min(y + rows, h.height))
                    }
                }
            }
        }
    }

    /// The frame's planes, written by several bands at once, each in its own rows.
    // Unchecked: a pointer the bands share, each writing only its own rows.
    private struct Shared: @unchecked Sendable { let planes: UnsafeMutablePointer<UInt8> }

    /// A layer as the bands read it: its box, op and opacity, and where its planes and spans
    /// are (in the layer's arrays, which outlive the frame's composition).
    // Unchecked: pointers into arrays that no one changes while the bands read them.
    private struct LayerRows: @unchecked Sendable {
        let box: PixelBox, op: PixelLayer.Op
        /// k / 255: a sample of L times this is its share of the layer's opacity.
        let k: Float
        /// A row of a plane, and a plane.
        let stride: Int, plane: Int
        let planes: UnsafePointer<UInt8>?, spans: UnsafePointer<Int32>?

        init(_ layer: PixelLayer, _ planes: UnsafePointer<UInt8>?, _ spans: UnsafePointer<Int32>?) {
            (box, op, k) = (layer.box, layer.op, layer.opacity / 255)
            stride = layer.box.width + 2 * PixelLayer.pad
            plane = layer.box.height * stride
            (self.planes, self.spans) = (planes, spans)
        }

        /// Whether the layer has rows among `rows` (a layer of no rows may have no planes or spans).
        func meets(_ rows: Range<Int>) -> Bool { box.y0 < box.y1 && box.y0 < rows.upperBound && box.y1 > rows.lowerBound }
    }

    /// One band's two working rows, each `stride` pixels (the frame's width rounded up to
    /// eight): each pixel's colour as drawn so far (premultiplied, 0…1, a plane a channel),
    /// its colour as read and later as written (RGBA8 as a little-endian word), whether it
    /// changed; and each group of eight pixels of the rows that a layer reached (1) or not (0).
    // Unchecked: each band works in its own scratch, one band at a time.
    private final class Scratch: @unchecked Sendable {
        let width: Int, stride: Int
        let r: UnsafeMutablePointer<Float>, g: UnsafeMutablePointer<Float>
        let b: UnsafeMutablePointer<Float>, a: UnsafeMutablePointer<Float>
        let words: UnsafeMutablePointer<UInt32>, changed: UnsafeMutablePointer<UInt8>
        let groups: UnsafeMutablePointer<UInt8>

        init(width: Int) {
            self.width = width
            stride = (width + 7) / 8 * 8
            func make<T>(_ zero: T, _ n: Int) -> UnsafeMutablePointer<T> {
                let p = UnsafeMutablePointer<T>.allocate(capacity: n)
                p.initialize(repeating: zero, count: n)
                return p
            }
            (r, g, b, a) = (make(0, 2 * stride), make(0, 2 * stride), make(0, 2 * stride), make(0, 2 * stride))
            words = make(0, 2 * stride)
            changed = make(0, 2 * stride)
            groups = make(0, (width + 7) / 8)
        }

        deinit {
            for p in [r, g, b, a] { p.deallocate() }
            words.deallocate(); changed.deallocate(); groups.deallocate()
        }
    }

    private typealias F8 = SIMD8<Float>
    private typealias I8 = SIMD8<Int32>
    /// How many rows ahead of the one being composed a layer's rows are asked of the memory:
    /// the layers are visited a row at a time, one after another, so no prefetcher follows
    /// any one layer's rows, and its drawing has left the cache since the frame before.
    static let rowsAhead = 6

    /// `v` (0 ≤ v < 2²³) as floats: its bits under the exponent of 2²³, less 2²³. (The
    /// standard library converts SIMD lanes one by one.)
    @inline(__always) private static func float(_ v: I8) -> F8 {
        unsafeBitCast(v | 0x4B00_0000, to: F8.self) - 8_388_608
    }

    /// `v` (|v| < 2²²) to the nearest whole number, ties to even: added to 1.5 × 2²³, its
    /// low bits are that number.
    @inline(__always) private static func rounded(_ v: F8) -> I8 {
        unsafeBitCast(v + 12_582_912, to: I8.self) &- 0x4B40_0000
    }

    /// One chroma row's luma rows being drawn.
    private struct RowsAt {
        let planes: UnsafeMutablePointer<UInt8>
        let s: Scratch
        let width: Int, chromaWidth: Int, subsampled: Bool
        let yOffset: Int, cbOffset: Int, crOffset: Int
        let rgb: YCbCrToRGB, c: YCbCrConversion
        /// The AVX2 loops' coefficients, when they run; the groups they leave (a row's partial last one) to Swift.
        let fast: (rgb: stp_rgb_of_ycbcr, c: stp_ycbcr)?
        let partial: Int?

        init(planes: UnsafeMutablePointer<UInt8>, scratch: Scratch, header: Y4MHeader, offsets: (Int, Int, Int),
             rgb: YCbCrToRGB, conversion: YCbCrConversion, avx2: Bool) {
            (self.planes, s) = (planes, scratch)
            (width, chromaWidth, subsampled) = (header.width, header.chromaWidth, header.chroma != .yuv444)
            (yOffset, cbOffset, crOffset) = offsets
            (self.rgb, c) = (rgb, conversion)
            fast = avx2 ? (stp_rgb_of_ycbcr(y: rgb.y, r_cr: rgb.rCr, g_cb: rgb.gCb, g_cr: rgb.gCr, b_cb: rgb.bCb,
                                            black: rgb.black), conversion.lanes) : nil
            partial = width % 8 == 0 ? nil : width >> 3
        }

        /// The groups of `lo...hi` the AVX2 loops leave to Swift: all of them without those
        /// loops, else a partial last group.
        func left(_ lo: Int, _ hi: Int) -> Range<Int> {
            guard fast != nil else { return lo..<(hi + 1) }
            guard let partial, partial <= hi, partial >= lo else { return 0..<0 }
            return partial..<(partial + 1)
        }

        /// Eight samples from `at` of a plane's row that ends at `end`; lanes past it repeat
        /// the row's last sample.
        @inline(__always) func load(_ at: Int, end: Int) -> I8 {
            if at + 8 <= end { return I8(truncatingIfNeeded: UnsafeRawPointer(planes + at).loadUnaligned(as: SIMD8<UInt8>.self)) }
            var v = I8()
            for i in 0..<8 { v[i] = Int32(planes[min(at + i, end - 1)]) }
            return v
        }

        /// Stores eight samples from `at`, those before `end`.
        @inline(__always) func store(_ v: I8, _ at: Int, end: Int) {
            let bytes = SIMD8<UInt8>(truncatingIfNeeded: v)
            if at + 8 <= end {
                UnsafeMutableRawPointer(planes + at).storeBytes(of: bytes, as: SIMD8<UInt8>.self)
            } else {
                for i in 0..<max(0, end - at) { planes[at + i] = bytes[i] }
            }
        }

        /// Chroma for pixels x…x + 7 (x a multiple of 8) of chroma row `cy`.
        @inline(__always) func chroma(_ offset: Int, _ x: Int, _ cy: Int) -> I8 {
            let row = offset + cy * chromaWidth, end = row + chromaWidth
            guard subsampled else { return load(row + x, end: end) }
            let q = row + x / 2
            if q + 4 <= end {
                let v = SIMD4<Int32>(truncatingIfNeeded: UnsafeRawPointer(planes + q).loadUnaligned(as: SIMD4<UInt8>.self))
                return I8(v[0], v[0], v[1], v[1], v[2], v[2], v[3], v[3])
            }
            var v = I8()
            for i in 0..<8 { v[i] = Int32(planes[min(q + i / 2, end - 1)]) }
            return v
        }

        @inline(__always) func channel(_ w: SIMD8<UInt32>, _ shift: UInt32) -> I8 {
            I8(truncatingIfNeeded: (w &>> shift) & 0xFF)
        }

        func draw(_ layers: [LayerRows], rows: Range<Int>) {
            // The groups any layer reaches in these rows.
            var (lo, hi) = (Int.max, -1)
            for layer in layers where layer.meets(rows) {
                let (box, spans) = (layer.box, layer.spans!)
                for y in max(rows.lowerBound, box.y0)..<min(rows.upperBound, box.y1) {
                    let r = box.y1 - 1 - y
                    let (a, b) = (box.x0 + Int(spans[2 * r]), box.x0 + Int(spans[2 * r + 1]))
                    guard a < b else { continue }
                    for group in (a >> 3)...((b - 1) >> 3) { s.groups[group] = 1 }
                    (lo, hi) = (min(lo, a >> 3), max(hi, (b - 1) >> 3))
                }
            }
            guard lo <= hi else { return }
            // Their pixels as read.
            if let fast {
                withUnsafePointer(to: fast.rgb) { k in
                    for y in rows {
                        let cy = subsampled ? y >> 1 : y, i = (y - rows.lowerBound) * s.stride
                        stp_layers_read(planes + yOffset + y * width, planes + cbOffset + cy * chromaWidth,
                                        planes + crOffset + cy * chromaWidth, subsampled ? 1 : 0, Int32(width), s.groups,
                                        Int32(lo), Int32(hi), k, s.words + i, s.r + i, s.g + i, s.b + i, s.a + i)
                    }
                }
            }
            for group in left(lo, hi) where s.groups[group] != 0 {
                let x = group << 3
                for y in rows {
                    let i = (y - rows.lowerBound) * s.stride + x, cy = subsampled ? y >> 1 : y
                    let w = rgb.pixels(load(yOffset + y * width + x, end: yOffset + (y + 1) * width),
                                       chroma(cbOffset, x, cy), chroma(crOffset, x, cy))
                    UnsafeMutableRawPointer(s.words + i).storeBytes(of: w, as: SIMD8<UInt32>.self)
                    put(float(channel(w, 0)) / 255, s.r, i); put(float(channel(w, 8)) / 255, s.g, i)
                    put(float(channel(w, 16)) / 255, s.b, i); put(F8(repeating: 1), s.a, i)
                }
            }
            // Each layer along its spans.
            for layer in layers where layer.meets(rows) {
                let (box, op, k, stride, plane) = (layer.box, layer.op, layer.k, layer.stride, layer.plane)
                let (planes, spans) = (layer.planes!, layer.spans!)
                for y in max(rows.lowerBound, box.y0)..<min(rows.upperBound, box.y1) {
                    let r = box.y1 - 1 - y
                    let (a, b) = (box.x0 + Int(spans[2 * r]), box.x0 + Int(spans[2 * r + 1]))
                    guard a < b else { continue }
                    // L's planes of this row, indexed by canvas column (zeros around the box).
                    let l = planes + (r * stride + PixelLayer.pad - box.x0)
                    let row = (y - rows.lowerBound) * self.s.stride
                    // The row the layer reaches `rowsAhead` rows further down, asked of the
                    // memory while this one is drawn (0: none).
                    let ahead = r >= PixelLayerCompositor.rowsAhead ? -PixelLayerCompositor.rowsAhead * stride : 0
                    // The op a constant in each call: the loop is compiled for each.
                    switch op {
                    case .over: span(.over, a..<b, row, l, plane, ahead, k)
                    case .erase: span(.erase, a..<b, row, l, plane, ahead, k)
                    case .multiply: span(.multiply, a..<b, row, l, plane, ahead, k)
                    case .screen: span(.screen, a..<b, row, l, plane, ahead, k)
                    case .lighten: span(.lighten, a..<b, row, l, plane, ahead, k)
                    case .darken: span(.darken, a..<b, row, l, plane, ahead, k)
                    case .saturate: span(.saturate, a..<b, row, l, plane, ahead, k)
                    case .desaturate: span(.desaturate, a..<b, row, l, plane, ahead, k)
                    }
                }
            }
            write(rows: rows, lo: lo, hi: hi)
            (s.groups + lo).update(repeating: 0, count: hi - lo + 1)
        }

        /// Applies a layer along columns `xs` of the working row from `row`, eight pixels at a
        /// time; L's planes for canvas column x are at `l + p × plane + x`.
        @inline(__always) func span(_ op: PixelLayer.Op, _ xs: Range<Int>, _ row: Int, _ l: UnsafePointer<UInt8>,
                                    _ plane: Int, _ ahead: Int, _ k: Float) {
            if fast != nil {
                stp_layers_span(op.code, l, plane, ahead, k, Int32(xs.lowerBound), Int32(xs.upperBound), s.r + row, s.g + row,
                                s.b + row, s.a + row)
                return
            }
            for x in Swift.stride(from: xs.lowerBound & ~7, to: xs.upperBound, by: 8) {
                // Eight transparent pixels of L: nothing to do.
                guard UnsafeRawPointer(l + 3 * plane + x).loadUnaligned(as: UInt64.self) != 0 else { continue }
                @inline(__always) func at(_ p: Int) -> F8 {
                    PixelLayerCompositor.float(I8(truncatingIfNeeded: UnsafeRawPointer(l + p * plane + x).loadUnaligned(as: SIMD8<UInt8>.self))) * k
                }
                let i = row + x
                var d = (get(s.r, i), get(s.g, i), get(s.b, i), get(s.a, i))
                op.apply(&d, op.readsColour ? (at(0), at(1), at(2), at(3)) : (.zero, .zero, .zero, at(3)))
                put(d.0, s.r, i); put(d.1, s.g, i); put(d.2, s.b, i)
                if op.changesAlpha { put(d.3, s.a, i) }
            }
        }

        /// Each lane within 0…255, by its bits (lanes well inside ±2³⁰).
        @inline(__always) func clamp(_ v: I8) -> I8 {
            ((v & ~(v &>> 31)) | ((255 &- v) &>> 31)) & 255
        }

        /// `new` where `mask` is −1, `old` where it is 0.
        @inline(__always) func select(_ new: I8, _ old: I8, _ mask: I8) -> I8 { (new & mask) | (old & ~mask) }

        @inline(__always) func get(_ p: UnsafeMutablePointer<Float>, _ i: Int) -> F8 {
            UnsafeRawPointer(p + i).loadUnaligned(as: F8.self)
        }

        @inline(__always) func put(_ v: F8, _ p: UnsafeMutablePointer<Float>, _ i: Int) {
            UnsafeMutableRawPointer(p + i).storeBytes(of: v, as: F8.self)
        }

        /// Lays the reached groups' colours over their colours as read and writes the samples
        /// that change.
        private func write(rows: Range<Int>, lo: Int, hi: Int) {
            if let fast {
                withUnsafePointer(to: fast.c) { k in
                    for y in rows {
                        let i = (y - rows.lowerBound) * s.stride
                        let (cb, cr) = subsampled ? (nil, nil) : (planes + cbOffset + y * chromaWidth, planes + crOffset + y * chromaWidth)
                        stp_layers_write(planes + yOffset + y * width, cb, cr, Int32(width), s.groups, Int32(lo), Int32(hi), k,
                                         s.words + i, s.r + i, s.g + i, s.b + i, s.a + i, s.changed + i)
                    }
                    guard subsampled else { return }
                    if rows.count == 2 {
                        let cy = rows.lowerBound >> 1
                        stp_layers_chroma420(planes + cbOffset + cy * chromaWidth, planes + crOffset + cy * chromaWidth,
                                             Int32(width), s.groups, Int32(lo), Int32(hi), k, s.words, s.words + s.stride,
                                             s.changed, s.changed + s.stride)
                    } else {
                        // The frame's last row, alone: its chroma as Swift writes it.
                        for group in lo..<max(lo, min(hi + 1, width / 8)) where s.groups[group] != 0 { writeChroma(rows: rows, x: group << 3) }
                    }
                }
            }
            for group in left(lo, hi) where s.groups[group] != 0 {
                let x = group << 3
                for y in rows {
                    let row = (y - rows.lowerBound) * s.stride
                    pixels: do {
                        let i = row + x
                        let w = UnsafeRawPointer(s.words + i).loadUnaligned(as: SIMD8<UInt32>.self)
                        let (vr, vg, vb) = (channel(w, 0), channel(w, 8), channel(w, 16))
                        let keep = 1 - get(s.a, i)
                        // No clamp: premultiplied colour over an opaque one stays within 0…255 (a
                        // rounding error far below half a unit either side).
                        @inline(__always) func out(_ d: F8, _ v: I8) -> I8 {
                            PixelLayerCompositor.rounded(d * 255 + PixelLayerCompositor.float(v) * keep)
                        }
                        let (r, g, b) = (out(get(s.r, i), vr), out(get(s.g, i), vg), out(get(s.b, i), vb))
                        // −1 where the colour changed, else 0.
                        let diff = (r ^ vr) | (g ^ vg) | (b ^ vb)
                        let changed = (diff | (0 &- diff)) &>> 31
                        UnsafeMutableRawPointer(s.changed + i).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: changed & 1),
                                                                          as: SIMD8<UInt8>.self)
                        guard UnsafeRawPointer(s.changed + i).load(as: UInt64.self) != 0 else { break pixels }
                        let word = SIMD8<UInt32>(truncatingIfNeeded: r | g &<< 8 | b &<< 16) | 0xFF00_0000
                        UnsafeMutableRawPointer(s.words + i).storeBytes(of: word, as: SIMD8<UInt32>.self)
                        let lumaAt = yOffset + y * width + x, lumaEnd = yOffset + (y + 1) * width
                        // Luma's weights sum to its range: no clamp.
                        let luma = (c.yR &* r &+ c.yG &* g &+ c.yB &* b &+ c.yOffset) &>> 16
                        store(select(luma, load(lumaAt, end: lumaEnd), changed), lumaAt, end: lumaEnd)
                        if !subsampled {
                            @inline(__always) func put(_ v: I8, _ offset: Int) {
                                let at = offset + y * chromaWidth + x, end = offset + (y + 1) * chromaWidth
                                store(select(clamp(v), load(at, end: end), changed), at, end: end)
                            }
                            put((c.cbR &* r &+ c.cbG &* g &+ c.cbB &* b &+ c.cOffset) &>> 16, cbOffset)
                            put((c.crR &* r &+ c.crG &* g &+ c.crB &* b &+ c.cOffset) &>> 16, crOffset)
                        }
                    }
                }
                if subsampled { writeChroma(rows: rows, x: x) }
            }
        }

        /// The 4:2:0 chroma blocks of pixels x…x + 7 in `rows`: each with a changed pixel from
        /// its pixels' colours (as written, or as read where unchanged) averaged.
        private func writeChroma(rows: Range<Int>, x: Int) {
            let cy = rows.lowerBound >> 1
            if rows.count == 2, x + 8 <= width {
                let (i, j) = (x, s.stride + x)
                let c0 = UnsafeRawPointer(s.changed + i).loadUnaligned(as: SIMD8<UInt8>.self)
                let c1 = UnsafeRawPointer(s.changed + j).loadUnaligned(as: SIMD8<UInt8>.self)
                let both = c0 | c1
                let blocks = both.evenHalf | both.oddHalf
                guard UnsafeRawPointer(s.changed + i).load(as: UInt64.self) | UnsafeRawPointer(s.changed + j).load(as: UInt64.self) != 0
                else { return }
                let w0 = UnsafeRawPointer(s.words + i).loadUnaligned(as: SIMD8<UInt32>.self)
                let w1 = UnsafeRawPointer(s.words + j).loadUnaligned(as: SIMD8<UInt32>.self)
                @inline(__always) func mean(_ shift: UInt32) -> SIMD4<Int32> {
                    let sum = channel(w0, shift) &+ channel(w1, shift)
                    return (sum.evenHalf &+ sum.oddHalf &+ 2) &>> 2
                }
                let (r, g, b) = (mean(0), mean(8), mean(16))
                // −1 for a block with a changed pixel, else 0.
                let mask = 0 &- SIMD4<Int32>(truncatingIfNeeded: blocks)
                @inline(__always) func put(_ v: SIMD4<Int32>, _ offset: Int) {
                    let v = ((v & ~(v &>> 31)) | ((255 &- v) &>> 31)) & 255
                    let p = planes + offset + cy * chromaWidth + x / 2
                    let old = SIMD4<Int32>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt8>.self))
                    UnsafeMutableRawPointer(p).storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: (v & mask) | (old & ~mask)),
                                                          as: SIMD4<UInt8>.self)
                }
                put((c.cbR &* r &+ c.cbG &* g &+ c.cbB &* b &+ c.cOffset) &>> 16, cbOffset)
                put((c.crR &* r &+ c.crG &* g &+ c.crB &* b &+ c.cOffset) &>> 16, crOffset)
                return
            }
            // A block at the frame's right or bottom edge: fewer pixels.
            for cx in (x / 2)..<min(chromaWidth, x / 2 + 4) {
                var (r, g, b, n, any) = (0, 0, 0, 0, false)
                for y in rows {
                    for px in (cx * 2)..<min(cx * 2 + 2, width) {
                        let i = (y - rows.lowerBound) * s.stride + px
                        any = any || s.changed[i] != 0
                        let v = s.words[i]
                        r += Int(v & 0xFF); g += Int(v >> 8 & 0xFF); b += Int(v >> 16 & 0xFF); n += 1
                    }
                }
                guard any else { continue }
                let (ar, ag, ab) = (Int32((r + n / 2) / n), Int32((g + n / 2) / n), Int32((b + n / 2) / n))
                planes[cbOffset + cy * chromaWidth + cx] = UInt8(c.cb(ar, ag, ab))
                planes[crOffset + cy * chromaWidth + cx] = UInt8(c.cr(ar, ag, ab))
            }
        }
    }
}
