import XCTest
@testable import Stipple

/// The compositor un-premultiplies by a table and blends whole blocks with no branch on
/// coverage: every colour and alpha must give the division's bytes, and any box of any
/// sketch the bytes of the formula written out sample by sample.
final class PlaneCompositorBoxTests: XCTestCase {
    func testTheTableUnPremultipliesEveryColourAndAlphaAsTheDivision() {
        for a in 0..<256 {
            for c in 0..<256 {
                let expected = a == 0 ? 0 : min((c * 255 + a / 2) / a, 255)
                XCTAssertEqual(Int(PlaneCompositor.straightTable[a << 8 | c]), expected, "a \(a), c \(c)")
            }
        }
    }

    /// Every alpha (a row each) with every colour value (a column each), whole blocks and
    /// both row orders: the vector path (where the CPU has it) and the pixel path against
    /// the formula.
    func testEveryColourAndAlphaMatchesTheFormula() {
        var rng = SplitMix64(seed: 31)
        for (bottomUp, vectors) in [(false, true), (true, true), (false, false), (true, false)] {
            let header = Y4MHeader(width: 256, height: 256, chroma: .yuv420(tag: nil))
            var pixels = [UInt8](repeating: 0, count: 256 * 256 * 4)
            for a in 0..<256 {
                for c in 0..<256 {
                    let i = (a * 256 + c) * 4
                    pixels[i] = UInt8(c); pixels[i + 1] = UInt8(255 - c); pixels[i + 2] = UInt8((c * 7) & 255)
                    pixels[i + 3] = UInt8(a)
                }
            }
            var frame = Y4MFrame(header: header)
            for i in frame.bytes.indices { frame.bytes[i] = UInt8(truncatingIfNeeded: rng.next()) }
            var expected = frame
            let box = PixelBox(x0: 0, y0: 0, x1: 256, y1: 256)
            let conversion = YCbCrConversion(matrix: .bt709, range: .limited)
            let covered = PlaneCompositor.composite(pixels, box: box, premultiplied: true, bottomUp: bottomUp,
                                                    over: &frame, conversion: conversion,
                                                    vectors: vectors && PlaneCompositor.hasAVX2)
            XCTAssertEqual(covered, reference(pixels, box: box, bottomUp: bottomUp, over: &expected, conversion))
            let differing = frame.bytes.indices.filter { frame.bytes[$0] != expected.bytes[$0] }
            XCTAssertTrue(differing.isEmpty, "bottomUp \(bottomUp), vectors \(vectors): \(differing.count) samples differ, "
                          + "the first at byte \(differing.first ?? 0)")
        }
    }

    /// Random boxes of random sketches — transparent runs, soft edges, opaque parts — on odd
    /// and even frames, both chroma layouts, both row orders, against the formula.
    func testBoxesMatchTheFormulaSampleBySample() {
        var rng = SplitMix64(seed: 29)
        for round in 0..<40 {
            let w = 9 + Int(rng.next() % 60), h = 5 + Int(rng.next() % 30)
            let chroma: Y4MHeader.Chroma = round % 3 == 0 ? .yuv444 : .yuv420(tag: nil)
            let header = Y4MHeader(width: w, height: h, chroma: chroma)
            let conversion = YCbCrConversion(matrix: round % 2 == 0 ? .bt709 : .bt601,
                                              range: round % 4 < 2 ? .limited : .full)
            // A box with even corners, or corners on the frame's edge.
            func even(_ v: Int) -> Int { v & ~1 }
            let x0 = even(Int(rng.next() % UInt64(w / 2))), y0 = even(Int(rng.next() % UInt64(h / 2)))
            let x1 = rng.next() % 2 == 0 ? w : max(x0 + 2, even(x0 + 2 + Int(rng.next() % UInt64(w - x0 - 1))))
            let y1 = rng.next() % 2 == 0 ? h : max(y0 + 2, even(y0 + 2 + Int(rng.next() % UInt64(h - y0 - 1))))
            let box = PixelBox(x0: x0, y0: y0, x1: min(x1, w), y1: min(y1, h))
            let bottomUp = rng.next() % 2 == 0
            var pixels = [UInt8](repeating: 0, count: box.width * box.height * 4)
            for i in stride(from: 0, to: pixels.count, by: 4) {
                switch rng.next() % 6 {
                case 0, 1: continue
                case 2: pixels[i + 3] = 255
                default: pixels[i + 3] = UInt8(1 + rng.next() % 254)
                }
                let a = UInt64(pixels[i + 3])
                for k in 0..<3 { pixels[i + k] = UInt8(rng.next() % (a + 1)) }
            }
            var frame = Y4MFrame(header: header)
            for i in frame.bytes.indices { frame.bytes[i] = UInt8(truncatingIfNeeded: rng.next()) }
            var expected = frame
            let vectors = round % 2 == 0
            let covered = PlaneCompositor.composite(pixels, box: box, premultiplied: true, bottomUp: bottomUp,
                                                    over: &frame, conversion: conversion,
                                                    vectors: vectors && PlaneCompositor.hasAVX2)
            let reference = reference(pixels, box: box, bottomUp: bottomUp, over: &expected, conversion)
            XCTAssertEqual(covered, reference, "round \(round)")
            let differing = frame.bytes.indices.filter { frame.bytes[$0] != expected.bytes[$0] }
            XCTAssertTrue(differing.isEmpty, "round \(round): \(w)×\(h) \(chroma), box \(box), bottomUp \(bottomUp), "
                          + "vectors \(vectors): "
                          + "\(differing.count) samples differ, the first at byte \(differing.first ?? 0) "
                          + "(\(frame.bytes[differing.first ?? 0]) where the formula gives \(expected.bytes[differing.first ?? 0]))")
        }
    }

    /// The compositing contract written out: each covered pixel's straight colour (divided,
    /// `Image`'s rounding) blended into luma; for 4:2:0 each block's average colour and alpha.
    private func reference(_ pixels: [UInt8], box: PixelBox, bottomUp: Bool, over frame: inout Y4MFrame,
                           _ c: YCbCrConversion) -> Int {
        let h = frame.header
        func pixel(_ x: Int, _ y: Int) -> (Int32, Int32, Int32, Int32) {
            let row = bottomUp ? box.y1 - 1 - y : y - box.y0
            let i = (row * box.width + x - box.x0) * 4
            let a = Int32(pixels[i + 3])
            func un(_ v: UInt8) -> Int32 { a == 0 ? 0 : min((Int32(v) * 255 + a / 2) / a, 255) }
            return (un(pixels[i]), un(pixels[i + 1]), un(pixels[i + 2]), a)
        }
        func blend(_ d: UInt8, _ s: Int32, _ a: Int32) -> UInt8 {
            UInt8(((Int32(d) * (255 - a) + s * a + 128) * 257) >> 16)
        }
        var covered = 0
        for y in box.y0..<box.y1 {
            for x in box.x0..<box.x1 {
                let (r, g, b, a) = pixel(x, y)
                guard a > 0 else { continue }
                covered += 1
                let i = y * h.width + x
                frame.bytes[frame.yOffset + i] = blend(frame.bytes[frame.yOffset + i], c.y(r, g, b), a)
                if h.chroma == .yuv444 {
                    frame.bytes[frame.cbOffset + i] = blend(frame.bytes[frame.cbOffset + i], c.cb(r, g, b), a)
                    frame.bytes[frame.crOffset + i] = blend(frame.bytes[frame.crOffset + i], c.cr(r, g, b), a)
                }
            }
        }
        guard h.chroma != .yuv444 else { return covered }
        for by in stride(from: box.y0, to: box.y1, by: 2) {
            for bx in stride(from: box.x0, to: box.x1, by: 2) {
                var sum: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
                var n: Int32 = 0
                for y in by..<min(by + 2, box.y1) {
                    for x in bx..<min(bx + 2, box.x1) {
                        let p = pixel(x, y)
                        sum = (sum.0 + p.0, sum.1 + p.1, sum.2 + p.2, sum.3 + p.3)
                        n += 1
                    }
                }
                let a = sum.3 / n
                guard a > 0 else { continue }
                let (r, g, b) = ((sum.0 + n / 2) / n, (sum.1 + n / 2) / n, (sum.2 + n / 2) / n)
                let ci = (by / 2) * h.chromaWidth + bx / 2
                frame.bytes[frame.cbOffset + ci] = blend(frame.bytes[frame.cbOffset + ci], c.cb(r, g, b), a)
                frame.bytes[frame.crOffset + ci] = blend(frame.bytes[frame.crOffset + ci], c.cr(r, g, b), a)
            }
        }
        return covered
    }
}
