import CStipple

/// Composites a sketch (straight RGBA, docs/reference.md §1) over a y4m frame's planes (docs/reference.md §11).
///
/// Only samples the sketch covers are touched: where its alpha is 0 (for 4:2:0 chroma:
/// where the 2×2 block's average alpha is 0) the sample stays exactly as read. A covered
/// sample is the sketch's colour converted to Y'CbCr, blended as ffmpeg's `overlay` filter
/// blends straight alpha: `d = ((d·(255 − a) + s·a + 128)·257) >> 16`. For 4:2:0 chroma the
/// block's four straight colours and alphas are averaged first (what swscale and `overlay`
/// do when they subsample an RGBA overlay).
///
/// The work is a scan of the alpha channel (four pixels at a time), and the conversion
/// (un-premultiplied by a table, no division) and blend only where a stamp landed: a
/// sketch that covers a few percent of the frame costs a few percent of a full conversion.
/// Where the CPU has AVX2, whole row pairs of a premultiplied 4:2:0 sketch go eight pixels
/// at a time through `stp_blend_rows420` (CStipple), which gives the same bytes.
package enum PlaneCompositor {
    @inline(__always) static func blend(_ d: UInt8, _ s: Int32, _ a: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: ((Int32(d) &* (255 &- a) &+ s &* a &+ 128) &* 257) >> 16)
    }

    /// Composites `sketch` over `frame`. Returns how many luma samples it covered.
    @discardableResult
    package static func composite(_ sketch: Image, over frame: inout Y4MFrame, conversion: YCbCrConversion) -> Int {
        composite(sketch.pixels, width: sketch.width, height: sketch.height, premultiplied: false, over: &frame,
                  conversion: conversion)
    }

    /// Composites RGBA pixels over `frame`: rows top to bottom, or bottom to top when
    /// `bottomUp` (as GL reads them); straight, or premultiplied as the renderer reads them
    /// back — then only the covered pixels are un-premultiplied, with `Image`'s rounding, so
    /// both forms give the same bytes.
    @discardableResult
    static func composite(_ pixels: [UInt8], width: Int, height: Int, premultiplied: Bool, bottomUp: Bool = false,
                          over frame: inout Y4MFrame, conversion: YCbCrConversion) -> Int {
        precondition(width == frame.header.width && height == frame.header.height, "the sketch is the frame's size")
        return composite(pixels, box: PixelBox(x0: 0, y0: 0, x1: width, y1: height), premultiplied: premultiplied,
                         bottomUp: bottomUp, over: &frame, conversion: conversion)
    }

    /// Composites the RGBA pixels of `box` of the frame (`box.width` a row), as
    /// `composite(_:width:height:…)` does a whole frame's. For 4:2:0 the box holds whole
    /// chroma blocks: its corners are even or on the frame's edge. `vectors` off keeps to
    /// the pixel-by-pixel code where the CPU has AVX2 (the two give the same bytes).
    @discardableResult
    static func composite(_ pixels: [UInt8], box: PixelBox, premultiplied: Bool, bottomUp: Bool,
                          over frame: inout Y4MFrame, conversion: YCbCrConversion,
                          vectors: Bool = PlaneCompositor.hasAVX2) -> Int {
        let h = frame.header
        precondition(box.x0 >= 0 && box.y0 >= 0 && box.x1 <= h.width && box.y1 <= h.height
                     && pixels.count == box.width * box.height * 4, "the box is on the frame and holds its pixels")
        guard !box.isEmpty else { return 0 }
        let (yo, cbo, cro) = (frame.yOffset, frame.cbOffset, frame.crOffset)
        return pixels.withUnsafeBufferPointer { rgba in
            frame.bytes.withUnsafeMutableBufferPointer { out in
                let base = out.baseAddress!
                let rows = SketchRows(base: rgba.baseAddress!, width: box.width, height: box.height, bottomUp: bottomUp)
                let luma = box.y0 * h.width + box.x0
                if h.chroma == .yuv444 {
                    return composite444(rows, y: base + yo + luma, cb: base + cbo + luma, cr: base + cro + luma,
                                        lumaStride: h.width, premultiplied, conversion)
                }
                precondition(box.x0 % 2 == 0 && box.y0 % 2 == 0 && (box.x1 % 2 == 0 || box.x1 == h.width)
                             && (box.y1 % 2 == 0 || box.y1 == h.height), "4:2:0 boxes hold whole chroma blocks")
                let chroma = (box.y0 / 2) * h.chromaWidth + box.x0 / 2
                return composite420(rows, y: base + yo + luma, cb: base + cbo + chroma, cr: base + cro + chroma,
                                    lumaStride: h.width, chromaWidth: h.chromaWidth, premultiplied, conversion,
                                    vectors: vectors)
            }
        }
    }

    /// The sketch's rows in either order.
    struct SketchRows {
        let base: UnsafePointer<UInt8>
        let width: Int, height: Int
        let bottomUp: Bool
        /// Pixel (0, y)'s RGBA.
        @inline(__always) func row(_ y: Int) -> UnsafePointer<UInt8> {
            base + (bottomUp ? height - 1 - y : y) * width * 4
        }
    }

    /// Un-premultiplied channel `c` of alpha `a` at `a << 8 | c`, as `Image` rounds
    /// (`min((c·255 + a/2) / a, 255)`; 0 where `a` is 0): a table, no division.
    static let straightTable: [UInt8] = (0..<65536).map { i in
        let a = i >> 8, c = i & 255
        return a == 0 ? 0 : UInt8(min((c * 255 + a / 2) / a, 255))
    }

    /// A covered pixel's straight colour and alpha (alpha > 0), `un` being `straightTable`.
    @inline(__always)
    static func straight(_ p: UnsafePointer<UInt8>, _ a: Int32, _ premultiplied: Bool,
                         _ un: UnsafePointer<UInt8>) -> (Int32, Int32, Int32) {
        guard premultiplied && a != 255 else { return (Int32(p[0]), Int32(p[1]), Int32(p[2])) }
        let t = Int(a) << 8
        return (Int32(un[t | Int(p[0])]), Int32(un[t | Int(p[1])]), Int32(un[t | Int(p[2])]))
    }

    /// The planes start at the sketch's first pixel; `lumaStride` is a plane's row.
    static func composite444(_ rows: SketchRows, y: UnsafeMutablePointer<UInt8>, cb: UnsafeMutablePointer<UInt8>,
                             cr: UnsafeMutablePointer<UInt8>, lumaStride: Int, _ premultiplied: Bool,
                             _ c: YCbCrConversion) -> Int {
        straightTable.withUnsafeBufferPointer { table in
            let un = table.baseAddress!
            var covered = 0
            let width = rows.width
            for row in 0..<rows.height {
                let rgba = rows.row(row)
                let words = UnsafeRawPointer(rgba)
                var x = 0
                while x < width {
                    // Four, then two pixels a step while they are transparent.
                    if x + 3 < width, (words.loadUnaligned(fromByteOffset: x * 4, as: UInt64.self)
                                       | words.loadUnaligned(fromByteOffset: x * 4 + 8, as: UInt64.self)) & alphaMask2 == 0 {
                        x += 4
                        continue
                    }
                    if x + 1 < width, words.loadUnaligned(fromByteOffset: x * 4, as: UInt64.self) & alphaMask2 == 0 {
                        x += 2
                        continue
                    }
                    let p = rgba + x * 4
                    let a = Int32(p[3])
                    if a != 0 {
                        let (r, g, b) = straight(p, a, premultiplied, un)
                        let i = row * lumaStride + x
                        y[i] = blend(y[i], c.y(r, g, b), a)
                        cb[i] = blend(cb[i], c.cb(r, g, b), a)
                        cr[i] = blend(cr[i], c.cr(r, g, b), a)
                        covered += 1
                    }
                    x += 1
                }
            }
            return covered
        }
    }

    /// Whether the CPU runs `stp_blend_rows420` (AVX2).
    static let hasAVX2 = stp_blend_has_avx2() != 0

    /// The alpha bytes of two RGBA pixels read as one little-endian word.
    static let alphaMask2: UInt64 = 0xFF00_0000_FF00_0000

    /// Blends a whole 2×2 block of premultiplied pixels (`top`, `bottom`: its two rows) onto
    /// luma at `y` and chroma at `cb`, `cr`, with no branch on coverage: a transparent pixel
    /// un-premultiplies to black by the table, adds nothing to the block's sums, and blends
    /// with alpha 0 — which gives back the sample as read. Returns the pixels covered.
    @inline(__always)
    static func wholeBlock(_ top: UnsafeRawPointer, _ bottom: UnsafeRawPointer, _ y: UnsafeMutablePointer<UInt8>,
                           _ lumaStride: Int, _ cb: UnsafeMutablePointer<UInt8>, _ cr: UnsafeMutablePointer<UInt8>,
                           _ un: UnsafePointer<UInt8>, _ c: YCbCrConversion) -> Int {
        @inline(__always) func pixel(_ word: UInt32, _ i: Int) -> SIMD4<Int32> {
            let a = Int(word >> 24), t = a << 8
            let r = Int32(un[t | Int(word & 0xFF)]), g = Int32(un[t | Int((word >> 8) & 0xFF)])
            let b = Int32(un[t | Int((word >> 16) & 0xFF)])
            y[i] = blend(y[i], c.y(r, g, b), Int32(a))
            return SIMD4(r, g, b, Int32(a))
        }
        let w = (top.loadUnaligned(as: UInt32.self), top.loadUnaligned(fromByteOffset: 4, as: UInt32.self),
                 bottom.loadUnaligned(as: UInt32.self), bottom.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        let sum = pixel(w.0, 0) &+ pixel(w.1, 1) &+ pixel(w.2, lumaStride) &+ pixel(w.3, lumaStride + 1)
        // The block's average straight colour and alpha (transparent pixels count as black).
        let (r, g, b, a) = ((sum[0] &+ 2) >> 2, (sum[1] &+ 2) >> 2, (sum[2] &+ 2) >> 2, sum[3] >> 2)
        cb[0] = blend(cb[0], c.cb(r, g, b), a)
        cr[0] = blend(cr[0], c.cr(r, g, b), a)
        @inline(__always) func covers(_ word: UInt32) -> Int { word >> 24 != 0 ? 1 : 0 }
        return covers(w.0) + covers(w.1) + covers(w.2) + covers(w.3)
    }

    /// The planes start at the sketch's first pixel (its first block for chroma); `lumaStride`
    /// is a luma row, `chromaWidth` a chroma row.
    static func composite420(_ rows: SketchRows, y: UnsafeMutablePointer<UInt8>, cb: UnsafeMutablePointer<UInt8>,
                             cr: UnsafeMutablePointer<UInt8>, lumaStride: Int, chromaWidth: Int,
                             _ premultiplied: Bool, _ c: YCbCrConversion, vectors: Bool) -> Int {
        straightTable.withUnsafeBufferPointer { table in
            let un = table.baseAddress!
            var covered = 0
            let (width, height) = (rows.width, rows.height)
            var lanes = c.lanes
            // Whole row pairs of premultiplied pixels go eight at a time through AVX2 where the
            // CPU has it, up to the last multiple of 8; the rest pixel by pixel.
            let vectorWidth = premultiplied && vectors ? width & ~7 : 0
            for by in stride(from: 0, to: height, by: 2) {
                let pair = by + 1 < height ? 2 : 1
                let lines = (rows.row(by), pair == 2 ? rows.row(by + 1) : rows.row(by))
                let (top, bottom) = (UnsafeRawPointer(lines.0), UnsafeRawPointer(lines.1))
                var bx = 0
                if pair == 2 && vectorWidth > 0 {
                    covered += Int(stp_blend_rows420(lines.0, lines.1, Int32(vectorWidth), y + by * lumaStride,
                                                     y + (by + 1) * lumaStride, cb + (by / 2) * chromaWidth,
                                                     cr + (by / 2) * chromaWidth, &lanes))
                    bx = vectorWidth
                }
                while bx < width {
                    if pair == 2 && bx + 3 < width {
                        // Two whole blocks a step while they are transparent.
                        let k = bx * 4
                        if (top.loadUnaligned(fromByteOffset: k, as: UInt64.self)
                            | top.loadUnaligned(fromByteOffset: k + 8, as: UInt64.self)
                            | bottom.loadUnaligned(fromByteOffset: k, as: UInt64.self)
                            | bottom.loadUnaligned(fromByteOffset: k + 8, as: UInt64.self)) & alphaMask2 == 0 {
                            bx += 4
                            continue
                        }
                    }
                    defer { bx += 2 }
                    let cols = bx + 1 < width ? 2 : 1
                    if pair == 2 && cols == 2 {
                        let k = bx * 4
                        if (top.loadUnaligned(fromByteOffset: k, as: UInt64.self)
                            | bottom.loadUnaligned(fromByteOffset: k, as: UInt64.self)) & alphaMask2 == 0 { continue }
                        if premultiplied {
                            covered += wholeBlock(top + k, bottom + k, y + by * lumaStride + bx, lumaStride,
                                                  cb + (by / 2) * chromaWidth + bx / 2,
                                                  cr + (by / 2) * chromaWidth + bx / 2, un, c)
                            continue
                        }
                    }
                    // Luma per pixel; the block's straight colour and alpha summed for chroma.
                    var sr: Int32 = 0, sg: Int32 = 0, sb: Int32 = 0, sa: Int32 = 0
                    for dy in 0..<pair {
                        let line = dy == 0 ? lines.0 : lines.1
                        for dx in 0..<cols {
                            let i = (by + dy) * lumaStride + bx + dx
                            let p = line + (bx + dx) * 4
                            let a = Int32(p[3])
                            guard a != 0 else { continue }
                            let (r, g, b) = straight(p, a, premultiplied, un)
                            y[i] = blend(y[i], c.y(r, g, b), a)
                            sr &+= r; sg &+= g; sb &+= b; sa &+= a
                            covered += 1
                        }
                    }
                    // The average colour (transparent pixels count as black, as in the overlay's
                    // PNG); a whole block's by shifts.
                    let a: Int32, r: Int32, g: Int32, b: Int32
                    if pair == 2 && cols == 2 {
                        a = sa >> 2
                        (r, g, b) = ((sr &+ 2) >> 2, (sg &+ 2) >> 2, (sb &+ 2) >> 2)
                    } else {
                        let n = Int32(pair * cols), half = n / 2
                        a = sa / n
                        (r, g, b) = ((sr + half) / n, (sg + half) / n, (sb + half) / n)
                    }
                    guard a != 0 else { continue }
                    let ci = (by / 2) * chromaWidth + bx / 2
                    cb[ci] = blend(cb[ci], c.cb(r, g, b), a)
                    cr[ci] = blend(cr[ci], c.cr(r, g, b), a)
                }
            }
            return covered
        }
    }
}
