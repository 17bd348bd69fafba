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
}
