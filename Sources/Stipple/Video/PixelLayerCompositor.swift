import Foundation
/// Stroke layers that act pixel by pixel (`PixelLayer`) laid over a frame's planes on the
/// CPU, with no trip through the GPU for the frame's colour: each pixel a layer covers is
/// converted to R′G′B′ (fixed point, `YCbCrToRGB`), every covering layer applied in order
/// by the formulas of docs/brush-modes.md in single precision, and the result laid over the
/// frame as read and written back where it changed — for 4:2:0 chroma, each 2×2 block
/// with a changed pixel, from the block's colours averaged. A pixel no layer covers (L's
/// alpha 0) is never converted, and its samples stay exactly as read.
///
/// The frame is visited a chroma row at a time (two luma rows for 4:2:0), each layer only
/// along its covered span of the row: the working colours stay in the cache.
final class PixelLayerCompositor: @unchecked Sendable {
    /// One band's working rows: for the rows at hand, each pixel's colour as drawn so far
    /// (premultiplied, 0…1), its colour as read, later as written (RGBA8 as a little-endian
    /// word), its state; and each 32-pixel chunk a layer reached (1) or not (0).
    private final class Scratch: @unchecked Sendable {
        let colour: UnsafeMutablePointer<SIMD4<Float>>, words: UnsafeMutablePointer<UInt32>
        let state: UnsafeMutablePointer<UInt8>, chunks: UnsafeMutablePointer<UInt8>
        let pixels: Int

        init(pixels: Int, chunks n: Int) {
            self.pixels = pixels
            colour = .allocate(capacity: pixels)
            colour.initialize(repeating: .zero, count: pixels)
            words = .allocate(capacity: pixels)
            words.initialize(repeating: 0, count: pixels)
            state = .allocate(capacity: pixels)
            state.initialize(repeating: 0, count: pixels)
            chunks = .allocate(capacity: n)
            chunks.initialize(repeating: 0, count: n)
        }

        deinit { colour.deallocate(); words.deallocate(); state.deallocate(); chunks.deallocate() }
    }
    private var scratch: [Scratch] = []
    /// The frames composed so far.
    private(set) var frames = 0
    private static let untouched: UInt8 = 0, touched: UInt8 = 1, changed: UInt8 = 2

    /// Lays `layers` (in order) over `frame`, in place. The rows are shared out among the
    /// cores: each band of them is its own work, samples and all.
    func apply(_ layers: [PixelLayer], to frame: inout Y4MFrame, _ c: YCbCrConversion) {
        frames += 1
        let h = frame.header
        let (width, height) = (h.width, h.height)
        let rows = h.chroma == .yuv444 ? 1 : 2
        let top = (layers.map(\.box.y0).min() ?? 0) / rows * rows, bottom = layers.map(\.box.y1).max() ?? 0
        guard top < bottom else { return }
        let groups = (bottom - top + rows - 1) / rows
        let bands = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4, groups / 16))
        if scratch.count < bands || scratch.first?.pixels != rows * width {
            scratch = (0..<bands).map { _ in Scratch(pixels: rows * width, chunks: (width + 31) / 32) }
        }
        let rgb = YCbCrToRGB(c)
        let (offsets, header, scratch) = ((frame.yOffset, frame.cbOffset, frame.crOffset), frame.header, scratch)
        frame.bytes.withUnsafeMutableBufferPointer { planesBuffer in
            let planes = Planes(base: planesBuffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let s = scratch[band]
                let rowsAt = RowsAt(planes: planes.base, colour: s.colour, words: s.words, state: s.state,
                                    chunks: s.chunks, header: header, offsets: offsets, rgb: rgb, conversion: c)
                for g in (groups * band / bands)..<(groups * (band + 1) / bands) {
                    let y = top + g * rows
                    rowsAt.draw(layers, rows: y..<min(y + rows, height))
                }
            }
        }
    }

    /// The frame's planes, written by several bands at once, each in its own rows.
    private struct Planes: @unchecked Sendable { let base: UnsafeMutablePointer<UInt8> }

    /// One chroma row's luma rows being drawn: where their samples and working colours are.
    private struct RowsAt {
        let planes: UnsafeMutablePointer<UInt8>
        let colour: UnsafeMutablePointer<SIMD4<Float>>
        let words: UnsafeMutablePointer<UInt32>
        let state: UnsafeMutablePointer<UInt8>
        let chunks: UnsafeMutablePointer<UInt8>
        let width: Int, chromaWidth: Int, subsampled: Bool
        let yOffset: Int, cbOffset: Int, crOffset: Int
        let rgb: YCbCrToRGB, c: YCbCrConversion

        init(planes: UnsafeMutablePointer<UInt8>, colour: UnsafeMutablePointer<SIMD4<Float>>,
             words: UnsafeMutablePointer<UInt32>, state: UnsafeMutablePointer<UInt8>, chunks: UnsafeMutablePointer<UInt8>,
             header: Y4MHeader,
             offsets: (Int, Int, Int), rgb: YCbCrToRGB, conversion: YCbCrConversion) {
            (self.planes, self.colour, self.words, self.state, self.chunks) = (planes, colour, words, state, chunks)
            (width, chromaWidth) = (header.width, header.chromaWidth)
            subsampled = header.chroma != .yuv444
            (yOffset, cbOffset, crOffset) = offsets
            (self.rgb, c) = (rgb, conversion)
        }

        /// The colour of pixel (x, y) as read.
        @inline(__always) func video(_ x: Int, _ y: Int) -> UInt32 {
            let ci = subsampled ? (y >> 1) * chromaWidth + (x >> 1) : y * chromaWidth + x
            return rgb.pixel(Int32(planes[yOffset + y * width + x]), Int32(planes[cbOffset + ci]), Int32(planes[crOffset + ci]))
        }

        /// Applies a layer along columns `xs` of row `y` (its pixels at `at` in the rows at
        /// hand), whose L for column x is at `src + 4x`.
        @inline(__always) func span(_ op: PixelLayer.Op, _ xs: Range<Int>, _ y: Int, _ at: Int,
                                    _ src: UnsafePointer<UInt8>, _ k: Float) {
            for x in xs {
                let l = src + 4 * x
                guard l[3] != 0 else { continue }
                let i = at + x
                if state[i] == PixelLayerCompositor.untouched {
                    state[i] = PixelLayerCompositor.touched
                    let v = video(x, y)
                    words[i] = v
                    colour[i] = PixelLayerCompositor.unpack(v) / 255
                }
                // The effects and the eraser read only L's alpha (a constant test: op is one).
                let s = op.readsColour ? SIMD4<Float>(Float(l[0]), Float(l[1]), Float(l[2]), Float(l[3])) * k
                    : SIMD4<Float>(0, 0, 0, Float(l[3]) * k)
                colour[i] = PixelLayerCompositor.apply(op, colour[i], s)
            }
        }

        func draw(_ layers: [PixelLayer], rows: Range<Int>) {
            var (lo, hi) = (width, 0)
            for n in layers.indices where layers[n].box.y0 < rows.upperBound && layers[n].box.y1 > rows.lowerBound {
                let (box, op, k) = (layers[n].box, layers[n].op, layers[n].opacity / 255)
                layers[n].pixels.withUnsafeBufferPointer { pixels in
                    layers[n].spans.withUnsafeBufferPointer { spans in
                        for y in max(rows.lowerBound, box.y0)..<min(rows.upperBound, box.y1) {
                            // The layer's rows run bottom up.
                            let r = box.y1 - 1 - y
                            let (a, b) = (box.x0 + Int(spans[2 * r]), box.x0 + Int(spans[2 * r + 1]))
                            guard a < b else { continue }
                            (lo, hi) = (min(lo, a), max(hi, b))
                            for chunk in (a >> 5)...((b - 1) >> 5) { chunks[chunk] = 1 }
                            let src = pixels.baseAddress! + (r * box.width - box.x0) * 4
                            let at = (y - rows.lowerBound) * width
                            // The op a constant in each call: the loop is compiled for each.
                            switch op {
                            case .over: span(.over, a..<b, y, at, src, k)
                            case .erase: span(.erase, a..<b, y, at, src, k)
                            case .multiply: span(.multiply, a..<b, y, at, src, k)
                            case .screen: span(.screen, a..<b, y, at, src, k)
                            case .lighten: span(.lighten, a..<b, y, at, src, k)
                            case .darken: span(.darken, a..<b, y, at, src, k)
                            case .saturate: span(.saturate, a..<b, y, at, src, k)
                            case .desaturate: span(.desaturate, a..<b, y, at, src, k)
                            }
                        }
                    }
                }
            }
            guard lo < hi else { return }
            // Each touched pixel laid over its colour as read; the luma that changes written.
            // Only the 32-pixel chunks a layer's span reached are looked at.
            var anyChanged = false
            for chunk in (lo >> 5)...((hi - 1) >> 5) where chunks[chunk] != 0 {
                let (x0, x1) = (chunk << 5, min(width, (chunk + 1) << 5))
                for y in rows {
                    let at = (y - rows.lowerBound) * width
                    for x in x0..<x1 where state[at + x] != PixelLayerCompositor.untouched {
                        let i = at + x, v = words[i], d = colour[i]
                        let out = SIMD4<Float>(d.x, d.y, d.z, 0) * 255 + PixelLayerCompositor.unpack(v) * (1 - d.w)
                        let (r, g, b) = (PixelLayerCompositor.byte(out.x), PixelLayerCompositor.byte(out.y),
                                         PixelLayerCompositor.byte(out.z))
                        let word = r | g << 8 | b << 16 | 0xFF00_0000
                        guard word != v else { continue }
                        words[i] = word
                        state[i] = PixelLayerCompositor.changed
                        anyChanged = true
                        let (ri, gi, bi) = (Int32(r), Int32(g), Int32(b))
                        planes[yOffset + y * width + x] = UInt8(c.y(ri, gi, bi))
                        if !subsampled {
                            planes[cbOffset + y * chromaWidth + x] = UInt8(c.cb(ri, gi, bi))
                            planes[crOffset + y * chromaWidth + x] = UInt8(c.cr(ri, gi, bi))
                        }
                    }
                }
                guard subsampled && anyChanged else { continue }
                // Each block with a changed pixel, from its pixels' colours as written (as read
                // where unchanged).
                let cy = rows.lowerBound >> 1
                for cx in (x0 >> 1)..<((x1 + 1) >> 1) {
                    let xs = (cx * 2)..<min(cx * 2 + 2, width)
                    guard rows.contains(where: { y in
                        xs.contains { state[(y - rows.lowerBound) * width + $0] == PixelLayerCompositor.changed }
                    }) else { continue }
                    var (r, g, b, n) = (0, 0, 0, 0)
                    for y in rows {
                        let at = (y - rows.lowerBound) * width
                        for x in xs {
                            let v = state[at + x] == PixelLayerCompositor.untouched ? video(x, y) : words[at + x]
                            r += Int(v & 0xFF); g += Int(v >> 8 & 0xFF); b += Int(v >> 16 & 0xFF); n += 1
                        }
                    }
                    // Rounded to nearest; a whole block (four pixels) by a shift.
                    let (ar, ag, ab) = n == 4 ? (Int32((r + 2) >> 2), Int32((g + 2) >> 2), Int32((b + 2) >> 2))
                        : (Int32((r + n / 2) / n), Int32((g + n / 2) / n), Int32((b + n / 2) / n))
                    planes[cbOffset + cy * chromaWidth + cx] = UInt8(c.cb(ar, ag, ab))
                    planes[crOffset + cy * chromaWidth + cx] = UInt8(c.cr(ar, ag, ab))
                }
                anyChanged = false
            }
            (chunks + (lo >> 5)).update(repeating: 0, count: ((hi - 1) >> 5) - (lo >> 5) + 1)
            for y in rows { (state + (y - rows.lowerBound) * width + lo).update(repeating: 0, count: hi - lo) }
        }
    }

    @inline(__always) static func unpack(_ v: UInt32) -> SIMD4<Float> {
        SIMD4(Float(v & 0xFF), Float(v >> 8 & 0xFF), Float(v >> 16 & 0xFF), 255)
    }

    /// To the nearest whole value, halves up (v is never negative).
    @inline(__always) static func byte(_ v: Float) -> UInt32 { UInt32(min(max(v + 0.5, 0), 255)) }

    /// `d` (premultiplied, 0…1) after a layer whose premultiplied source there is `s`
    /// (L × k): the blends' W3C formulas, the effects on the straight colour.
    @inline(__always) static func apply(_ op: PixelLayer.Op, _ d: SIMD4<Float>, _ s: SIMD4<Float>) -> SIMD4<Float> {
        switch op {
        case .over: return s + d * (1 - s.w)
        case .erase: return d * (1 - s.w)
        // For alpha too: s.a(1 − d.a) + d.a(1 − s.a) + s.a·d.a = s.a + d.a(1 − s.a).
        case .multiply: return s * (1 - d.w) + d * (1 - s.w) + s * d
        case .screen: return s + d - s * d
        case .desaturate:
            // On the straight colour c = d.rgb / d.a, times d.a: linear in d.rgb.
            let luma = 0.299 * d.x + 0.587 * d.y + 0.114 * d.z
            return d + (SIMD4(luma, luma, luma, d.w) - d) * s.w
        case .lighten, .darken, .saturate:
            guard d.w > 0, s.w > 0 else { return d }
            let c = SIMD3(d.x, d.y, d.z) / d.w
            let luma = 0.299 * c.x + 0.587 * c.y + 0.114 * c.z
            let e: SIMD3<Float>
            switch op {
            case .lighten: e = 1 - (1 - c) * (1 - c)
            case .darken: e = c * c
            default:
                e = (SIMD3(repeating: luma) + 2 * (c - luma)).clamped(lowerBound: SIMD3(repeating: 0),
                                                                     upperBound: SIMD3(repeating: 1))
            }
            let r = (c + (e - c) * s.w) * d.w
            return SIMD4(r.x, r.y, r.z, d.w)
        }
    }
}
