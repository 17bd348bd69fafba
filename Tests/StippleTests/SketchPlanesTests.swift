import XCTest
@testable import Stipple

/// The bake's tile compositor (sketch kept as premultiplied Y′CbCr, only covered tiles
/// blended) writes the same bytes as the pixel-by-pixel compositor that the ffmpeg oracle
/// holds to the overlay filter: random premultiplied sketches, 4:2:0 and 4:4:4, odd sizes,
/// patches in either row order, and patches that change part of a sketch.
final class SketchPlanesTests: XCTestCase {
    private func randomSketch(_ w: Int, _ h: Int, _ rng: inout SplitMix64, coverage: Double) -> [UInt8] {
        var px = [UInt8](repeating: 0, count: w * h * 4)
        // Blobs of partly covered pixels on a transparent canvas.
        for _ in 0..<6 {
            let cx = Int(rng.next() % UInt64(w)), cy = Int(rng.next() % UInt64(h)), r = 2 + Int(rng.next() % 9)
            for y in max(0, cy - r)..<min(h, cy + r) {
                for x in max(0, cx - r)..<min(w, cx + r) where Double(rng.next() % 1000) / 1000 < coverage {
                    let a = UInt8(rng.next() % 256)
                    let i = (y * w + x) * 4
                    for c in 0..<3 { px[i + c] = a == 0 ? 0 : UInt8(rng.next() % (UInt64(a) + 1)) }
                    px[i + 3] = a
                }
            }
        }
        return px
    }

    private func frame(_ header: Y4MHeader, _ rng: inout SplitMix64) -> Y4MFrame {
        var f = Y4MFrame(header: header)
        for i in f.yOffset..<f.bytes.count { f.bytes[i] = UInt8(rng.next() % 256) }
        return f
    }

    /// `box` of a canvas-sized image, rows top to bottom or bottom to top.
    private func patch(_ px: [UInt8], width: Int, _ box: PixelBox, bottomUp: Bool) -> SketchUpdate.Patch {
        var out: [UInt8] = []
        let rows = Array(box.y0..<box.y1)
        for y in bottomUp ? rows.reversed() : rows {
            out += px[((y * width + box.x0) * 4)..<((y * width + box.x1) * 4)]
        }
        return .init(box: box, pixels: out, bottomUp: bottomUp)
    }

    func testTilesEqualThePixelCompositor() {
        var rng = SplitMix64(seed: 11)
        for (w, h) in [(37, 23), (64, 48), (17, 33), (1, 1), (50, 2)] {
            for chroma in [Y4MHeader.Chroma.yuv420(tag: nil), .yuv444] {
                for range in [ColorRange.limited, .full] {
                    let header = Y4MHeader(width: w, height: h, rateNumerator: 30, rateDenominator: 1, chroma: chroma)
                    let conversion = YCbCrConversion(matrix: .bt709, range: range)
                    var planes = SketchPlanes(header: header, conversion: conversion)
                    var sketch = [UInt8](repeating: 0, count: w * h * 4)
                    for step in 0..<4 {
                        let whole = PixelBox(x0: 0, y0: 0, x1: w, y1: h)
                        if step == 0 || step == 3 {
                            sketch = randomSketch(w, h, &rng, coverage: step == 3 ? 0 : 0.7)
                            planes.apply(SketchUpdate(replacesAll: true, patches: [patch(sketch, width: w, whole, bottomUp: step == 0)]))
                        } else {
                            // A box with even corners (or the canvas edge) drawn again.
                            let x0 = Int(rng.next() % UInt64(w)) & ~1, y0 = Int(rng.next() % UInt64(h)) & ~1
                            let box = PixelBox(x0: x0, y0: y0, x1: min(w, x0 + 2 + Int(rng.next() % 10) * 2),
                                               y1: min(h, y0 + 2 + Int(rng.next() % 10) * 2))
                            let fresh = randomSketch(w, h, &rng, coverage: 0.9)
                            for y in box.y0..<box.y1 {
                                for x in box.x0..<box.x1 {
                                    for c in 0..<4 { sketch[(y * w + x) * 4 + c] = fresh[(y * w + x) * 4 + c] }
                                }
                            }
                            planes.apply(SketchUpdate(replacesAll: false, patches: [patch(sketch, width: w, box, bottomUp: step == 2)]))
                        }
                        var expected = frame(header, &rng)
                        var got = expected
                        PlaneCompositor.composite(sketch, width: w, height: h, premultiplied: true, over: &expected,
                                                  conversion: conversion)
                        planes.composite(over: &got)
                        let at = got.bytes.indices.first { got.bytes[$0] != expected.bytes[$0] }
                        XCTAssertNil(at, "\(w)×\(h) \(chroma) \(range) step \(step): byte \(at ?? -1) differs")
                    }
                }
            }
        }
    }

    /// A sketch over most of a large frame is blended by several threads, a band of tile
    /// rows each: the same bytes.
    func testALargeSketchBlendedInBandsEqualsThePixelCompositor() {
        var rng = SplitMix64(seed: 29)
        let (w, h) = (1283, 723)
        for chroma in [Y4MHeader.Chroma.yuv420(tag: nil), .yuv444] {
            let header = Y4MHeader(width: w, height: h, rateNumerator: 30, rateDenominator: 1, chroma: chroma)
            let conversion = YCbCrConversion(matrix: .bt709, range: .limited)
            var planes = SketchPlanes(header: header, conversion: conversion)
            var sketch = [UInt8](repeating: 0, count: w * h * 4)
            // Ink in a pixel of five, all over but a band of empty rows in the middle.
            for y in 0..<h where !(300..<340).contains(y) {
                for x in 0..<w where rng.next() % 5 == 0 {
                    let a = UInt8(1 + rng.next() % 255), i = (y * w + x) * 4
                    for c in 0..<3 { sketch[i + c] = UInt8(rng.next() % (UInt64(a) + 1)) }
                    sketch[i + 3] = a
                }
            }
            planes.apply(SketchUpdate(replacesAll: true, patches: [patch(sketch, width: w, PixelBox(x0: 0, y0: 0, x1: w, y1: h), bottomUp: false)]))
            XCTAssertGreaterThanOrEqual(planes.coveredTiles, SketchPlanes.parallelTiles)
            var expected = frame(header, &rng)
            var got = expected
            PlaneCompositor.composite(sketch, width: w, height: h, premultiplied: true, over: &expected, conversion: conversion)
            planes.composite(over: &got)
            let at = got.bytes.indices.first { got.bytes[$0] != expected.bytes[$0] }
            XCTAssertNil(at, "\(chroma): byte \(at ?? -1) differs")
        }
    }

    func testATransparentSketchBlendsNothing() {
        let header = Y4MHeader(width: 40, height: 30, rateNumerator: 30, rateDenominator: 1)
        var planes = SketchPlanes(header: header, conversion: YCbCrConversion(matrix: .bt601, range: .limited))
        var rng = SplitMix64(seed: 3)
        var px = randomSketch(40, 30, &rng, coverage: 1)
        planes.apply(SketchUpdate(replacesAll: true, patches: [patch(px, width: 40, PixelBox(x0: 0, y0: 0, x1: 40, y1: 30), bottomUp: false)]))
        XCTAssertGreaterThan(planes.coveredTiles, 0)
        px = [UInt8](repeating: 0, count: px.count)
        planes.apply(SketchUpdate(replacesAll: true, patches: []))  // all transparent now
        XCTAssertEqual(planes.coveredTiles, 0)
        var f = frame(header, &rng)
        let before = f.bytes
        XCTAssertEqual(planes.composite(over: &f), 0)
        XCTAssertEqual(f.bytes, before)
    }
}
