import XCTest
@testable import Stipple

/// The compositor's AVX2 loops (stp_layers.c) and its Swift loops give the same bytes: random
/// layers of every op over random frames of widths that are not whole groups of eight, odd
/// heights, both chroma layouts and both ranges.
final class PixelLayerCompositorTests: XCTestCase {
    private static let ops: [PixelLayer.Op] = [.over, .erase, .multiply, .screen, .lighten, .darken, .saturate, .desaturate]

    /// A layer of `op` in a random box of a `w` × `h` frame: a few soft discs of a random
    /// colour, premultiplied (colour at most alpha), transparent elsewhere.
    private func layer(_ op: PixelLayer.Op, _ w: Int, _ h: Int, _ rng: inout SplitMix64) -> PixelLayer {
        func below(_ n: Int) -> Int { Int(rng.next() % UInt64(max(n, 1))) }
        let x0 = max(0, below(w) - 10), y0 = max(0, below(h) - 10)
        let box = PixelBox(x0: x0, y0: y0, x1: min(w, x0 + 8 + below(70)), y1: min(h, y0 + 4 + below(50)))
        let (bw, bh) = (box.x1 - box.x0, box.y1 - box.y0)
        var pixels = [UInt8](repeating: 0, count: bw * bh * 4)
        for _ in 0..<(1 + below(3)) {
            let (cx, cy, r) = (Double(below(bw)), Double(below(bh)), Double(3 + below(20)))
            let colour = (0..<3).map { _ in Double(below(256)) / 255 }, strength = Double(64 + below(192)) / 255
            for y in 0..<bh {
                for x in 0..<bw {
                    let d = ((Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy)).squareRoot()
                    guard d < r else { continue }
                    let a = strength * (1 - d / r), i = (y * bw + x) * 4
                    // Over what is there, premultiplied.
                    let keep = 1 - a
                    for c in 0..<3 { pixels[i + c] = UInt8((colour[c] * a * 255 + Double(pixels[i + c]) * keep).rounded()) }
                    pixels[i + 3] = UInt8((a * 255 + Double(pixels[i + 3]) * keep).rounded())
                }
            }
        }
        return PixelLayer(op: op, opacity: [1, 0.6, 0.25][below(3)], box: box,
                          planes: PixelLayer.planes(of: pixels, width: bw), spans: PixelLayer.spans(of: pixels, width: bw))
    }

    func testTheAVX2LoopsGiveTheSwiftLoopsBytes() throws {
        guard PlaneCompositor.hasAVX2 else { throw XCTSkip("this CPU has no AVX2: only the Swift loops run here") }
        var rng = SplitMix64(seed: 42)
        var changed = 0
        for (n, (w, h)) in [(96, 64), (203, 121), (131, 77), (64, 2), (9, 33), (1280, 36), (15, 15)].enumerated() {
            for chroma in [Y4MHeader.Chroma.yuv420(tag: "420jpeg"), .yuv444] {
                let header = Y4MHeader(width: w, height: h, rateNumerator: 30, rateDenominator: 1, chroma: chroma)
                var frame = Y4MFrame(header: header)
                for i in frame.bytes.indices { frame.bytes[i] = UInt8(truncatingIfNeeded: rng.next()) }
                let layers = (0..<(4 + n)).map { i in layer(Self.ops[(i + n) % Self.ops.count], w, h, &rng) }
                for range in [ColorRange.limited, .full] {
                    let c = YCbCrConversion(matrix: n % 2 == 0 ? .bt709 : .bt601, range: range)
                    let label = "\(w)×\(h) \(header.chroma == .yuv444 ? "4:4:4" : "4:2:0") \(range)"
                    var (fast, plain) = (frame, frame)
                    let (a, b) = (PixelLayerCompositor(), PixelLayerCompositor())
                    b.usesAVX2 = false
                    a.apply(layers, to: &fast, c)
                    b.apply(layers, to: &plain, c)
                    XCTAssert(fast.bytes == plain.bytes,
                              "\(label): \(zip(fast.bytes, plain.bytes).filter { $0 != $1 }.count) samples differ")
                    changed += zip(plain.bytes, frame.bytes).filter { $0 != $1 }.count
                }
            }
        }
        XCTAssertGreaterThan(changed, 10_000, "the layers changed the frames")
    }

    /// A layer of no rows (no planes, no spans) among others: nothing of it is read, and the
    /// frame comes out as the other layers alone make it, with both loops.
    func testALayerOfNoRowsIsPassedOver() {
        var rng = SplitMix64(seed: 7)
        let header = Y4MHeader(width: 96, height: 64, rateNumerator: 30, rateDenominator: 1, chroma: .yuv420(tag: "420jpeg"))
        var frame = Y4MFrame(header: header)
        for i in frame.bytes.indices { frame.bytes[i] = UInt8(truncatingIfNeeded: rng.next()) }
        let drawn = (0..<4).map { layer(Self.ops[$0 * 2], 96, 64, &rng) }
        // Its box's one row index is inside the others' rows.
        let empty = PixelLayer(op: .desaturate, opacity: 1, box: PixelBox(x0: 10, y0: 20, x1: 40, y1: 20), planes: [], spans: [])
        let c = YCbCrConversion(matrix: .bt709, range: .limited)
        for avx2 in [true, false] where avx2 == false || PlaneCompositor.hasAVX2 {
            var (with, without) = (frame, frame)
            let (a, b) = (PixelLayerCompositor(), PixelLayerCompositor())
            (a.usesAVX2, b.usesAVX2) = (avx2, avx2)
            a.apply(drawn + [empty] + drawn.prefix(1), to: &with, c)
            b.apply(drawn + drawn.prefix(1), to: &without, c)
            XCTAssert(with.bytes == without.bytes, "avx2 \(avx2): the empty layer changed the frame")
            XCTAssert(with.bytes != frame.bytes, "avx2 \(avx2): the layers changed nothing")
        }
    }
}
