/// Composites a sketch (straight RGBA, docs/reference.md §1) over a y4m frame's planes (docs/reference.md §11).
///
/// Only samples the sketch covers are touched: where its alpha is 0 (for 4:2:0 chroma:
/// where the 2×2 block's average alpha is 0) the sample stays exactly as read. A covered
/// sample is the sketch's colour converted to Y'CbCr, blended as ffmpeg's `overlay` filter
/// blends straight alpha: `d = ((d·(255 − a) + s·a + 128)·257) >> 16`. For 4:2:0 chroma the
/// block's four straight colours and alphas are averaged first (what swscale and `overlay`
/// do when they subsample an RGBA overlay).
///
/// The work is a scan of the alpha channel (8 bytes — two pixels — at a time), and the
/// conversion and blend only where a stamp landed: a sketch that covers a few percent of
/// the frame costs a few percent of a full conversion.
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
        let h = frame.header
        precondition(width == h.width && height == h.height && pixels.count == width * height * 4,
                     "the sketch is the frame's size")
        let (yo, cbo, cro) = (frame.yOffset, frame.cbOffset, frame.crOffset)
        return pixels.withUnsafeBufferPointer { rgba in
            frame.bytes.withUnsafeMutableBufferPointer { out in
                let base = out.baseAddress!
                let rows = SketchRows(base: rgba.baseAddress!, width: width, height: height, bottomUp: bottomUp)
                if h.chroma == .yuv444 {
                    return composite444(rows, y: base + yo, cb: base + cbo, cr: base + cro, premultiplied, conversion)
                }
                return composite420(rows, y: base + yo, cb: base + cbo, cr: base + cro, chromaWidth: h.chromaWidth,
                                    premultiplied, conversion)
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

    /// A covered pixel's straight colour (alpha > 0).
    @inline(__always)
    static func straight(_ p: UnsafePointer<UInt8>, _ a: Int32, _ premultiplied: Bool) -> (Int32, Int32, Int32) {
        guard premultiplied && a != 255 else { return (Int32(p[0]), Int32(p[1]), Int32(p[2])) }
        @inline(__always) func un(_ c: UInt8) -> Int32 { min((Int32(c) &* 255 &+ a / 2) / a, 255) }
        return (un(p[0]), un(p[1]), un(p[2]))
    }

    static func composite444(_ rows: SketchRows, y: UnsafeMutablePointer<UInt8>, cb: UnsafeMutablePointer<UInt8>,
                             cr: UnsafeMutablePointer<UInt8>, _ premultiplied: Bool, _ c: YCbCrConversion) -> Int {
        var covered = 0
        let width = rows.width
        for row in 0..<rows.height {
            let rgba = rows.row(row)
            let words = UnsafeRawPointer(rgba)
            var x = 0
            while x < width {
                // Two pixels a step while both are transparent.
                if x + 1 < width, words.loadUnaligned(fromByteOffset: x * 4, as: UInt64.self) & alphaMask2 == 0 {
                    x += 2
                    continue
                }
                let p = rgba + x * 4
                let a = Int32(p[3])
                if a != 0 {
                    let (r, g, b) = straight(p, a, premultiplied)
                    let i = row * width + x
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

    /// The alpha bytes of two RGBA pixels read as one little-endian word.
    static let alphaMask2: UInt64 = 0xFF00_0000_FF00_0000

    static func composite420(_ rows: SketchRows, y: UnsafeMutablePointer<UInt8>, cb: UnsafeMutablePointer<UInt8>,
                             cr: UnsafeMutablePointer<UInt8>, chromaWidth: Int,
                             _ premultiplied: Bool, _ c: YCbCrConversion) -> Int {
        var covered = 0
        let (width, height) = (rows.width, rows.height)
        for by in stride(from: 0, to: height, by: 2) {
            let pair = by + 1 < height ? 2 : 1
            let lines = (rows.row(by), pair == 2 ? rows.row(by + 1) : rows.row(by))
            for bx in stride(from: 0, to: width, by: 2) {
                let cols = bx + 1 < width ? 2 : 1
                if pair == 2 && cols == 2 {
                    let top = UnsafeRawPointer(lines.0).loadUnaligned(fromByteOffset: bx * 4, as: UInt64.self)
                    let bottom = UnsafeRawPointer(lines.1).loadUnaligned(fromByteOffset: bx * 4, as: UInt64.self)
                    if (top | bottom) & alphaMask2 == 0 { continue }
                }
                // Luma per pixel; the block's straight colour and alpha summed for chroma.
                var sr: Int32 = 0, sg: Int32 = 0, sb: Int32 = 0, sa: Int32 = 0
                for dy in 0..<pair {
                    let line = dy == 0 ? lines.0 : lines.1
                    for dx in 0..<cols {
                        let i = (by + dy) * width + bx + dx
                        let p = line + (bx + dx) * 4
                        let a = Int32(p[3])
                        guard a != 0 else { continue }
                        let (r, g, b) = straight(p, a, premultiplied)
                        y[i] = blend(y[i], c.y(r, g, b), a)
                        sr &+= r; sg &+= g; sb &+= b; sa &+= a
                        covered += 1
                    }
                }
                let n = Int32(pair * cols)
                let a = sa / n
                guard a != 0 else { continue }
                // The average colour (transparent pixels count as black, as in the overlay's PNG).
                let half = n / 2
                let (r, g, b) = ((sr + half) / n, (sg + half) / n, (sb + half) / n)
                let ci = (by / 2) * chromaWidth + bx / 2
                cb[ci] = blend(cb[ci], c.cb(r, g, b), a)
                cr[ci] = blend(cr[ci], c.cr(r, g, b), a)
            }
        }
        return covered
    }
}
