import XCTest
@testable import Stipple

/// The bake reads the sketch back premultiplied and un-premultiplies only covered pixels
/// in the compositor: the same bytes as compositing the straight `Image`.
final class VideoCompositorTests: XCTestCase {
    func testPremultipliedInputGivesTheSameBytesAsTheStraightImage() {
        var rng = SplitMix64(seed: 11)
        for chroma in [Y4MHeader.Chroma.yuv420(tag: "420jpeg"), .yuv444] {
            let (w, h) = (37, 23)
            var premultiplied = [UInt8](repeating: 0, count: w * h * 4)
            for i in stride(from: 0, to: premultiplied.count, by: 4) where rng.next() % 3 != 0 {
                let a = UInt8(truncatingIfNeeded: rng.next() % 256)
                premultiplied[i + 3] = a
                for c in 0..<3 { premultiplied[i + c] = a == 0 ? 0 : UInt8(rng.next() % (UInt64(a) + 1)) }
            }
            let header = Y4MHeader(width: w, height: h, chroma: chroma)
            var a = Y4MFrame(header: header), b = Y4MFrame(header: header)
            for i in a.bytes.indices { a.bytes[i] = UInt8(truncatingIfNeeded: rng.next()); b.bytes[i] = a.bytes[i] }
            let conversion = YCbCrConversion(matrix: .bt709, range: .limited)
            let straight = Image(width: w, height: h, premultiplied: premultiplied)
            let n1 = PlaneCompositor.composite(straight, over: &a, conversion: conversion)
            let n2 = PlaneCompositor.composite(premultiplied, width: w, height: h, premultiplied: true, over: &b,
                                               conversion: conversion)
            XCTAssertEqual(n1, n2)
            XCTAssertGreaterThan(n1, w * h / 2)
            XCTAssertEqual(a.bytes, b.bytes, "\(chroma)")
        }
    }
}
