import XCTest
@testable import Stipple

/// Straight and premultiplied alpha, both ways, for every colour value at every alpha,
/// against the rounding written out in floating point.
final class ImageAlphaTests: XCTestCase {
    func testPremultiplyingRoundsEveryValueToNearest() {
        var pixels: [UInt8] = []
        for a in 0...255 { for c in 0...255 { pixels += [UInt8(c), UInt8(255 - c), UInt8(c / 2), UInt8(a)] } }
        let out = Image(width: 256, height: 256, pixels: pixels).premultiplied()
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let a = Double(pixels[i + 3])
            for k in 0..<3 {
                let want = UInt8((Double(pixels[i + k]) * a / 255).rounded())
                if out[i + k] != want { return XCTFail("\(pixels[i + k]) at alpha \(a): \(out[i + k]), want \(want)") }
            }
            XCTAssertEqual(out[i + 3], pixels[i + 3])
        }
    }

    func testUnpremultiplyingRoundsHalvesUpAndClearsTransparentPixels() {
        var pixels: [UInt8] = []
        for a in 0...255 { for c in 0...255 { pixels += [UInt8(c), UInt8(min(c, a)), UInt8(255 - c), UInt8(a)] } }
        let image = Image(width: 256, height: 256, premultiplied: pixels)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let a = Double(pixels[i + 3])
            for k in 0..<3 {
                let c = Double(pixels[i + k])
                let want: UInt8 = a == 0 ? 0 : a == 255 ? pixels[i + k] : UInt8(min(255, (c * 255 / a + 0.5).rounded(.down)))
                if image.pixels[i + k] != want {
                    return XCTFail("\(pixels[i + k]) at alpha \(a): \(image.pixels[i + k]), want \(want)")
                }
            }
            XCTAssertEqual(image.pixels[i + 3], pixels[i + 3])
        }
    }

    /// Frames are mostly opaque, with translucent pixels in runs and alone: opaque pixels are
    /// passed over four at a time, and every other one is made straight as alone. Random
    /// images of every length from 0 to 40 pixels and a long one, at several shares of opaque
    /// pixels, against the pixel-by-pixel rule.
    func testUnpremultiplyingPassesOverOpaqueRunsAndMissesNoOtherPixel() {
        var rng = SplitMix64(seed: 42)
        for opaque in [0.0, 0.5, 0.9, 0.99, 1.0] {
            for count in Array(0...40) + [4099] {
                var pixels = [UInt8](repeating: 0, count: count * 4)
                for p in 0..<count {
                    let solid = Double(rng.next() >> 11) / Double(1 << 53) < opaque
                    let a = solid ? 255 : UInt8(rng.next() % 255)
                    pixels[p * 4 + 3] = a
                    for k in 0..<3 { pixels[p * 4 + k] = UInt8(rng.next() % (UInt64(a) + 1)) }
                }
                var want = pixels
                for i in stride(from: 0, to: want.count, by: 4) {
                    let a = UInt32(want[i + 3])
                    for k in 0..<3 {
                        want[i + k] = a == 0 ? 0 : a == 255 ? want[i + k] : UInt8(min(255, (UInt32(want[i + k]) * 255 + a / 2) / a))
                    }
                }
                let got = Image(width: count, height: 1, premultiplied: pixels).pixels
                if got != want {
                    let at = got.indices.first { got[$0] != want[$0] }!
                    return XCTFail("\(count) pixels, \(opaque) opaque: byte \(at) is \(got[at]), want \(want[at])")
                }
            }
        }
    }
}
