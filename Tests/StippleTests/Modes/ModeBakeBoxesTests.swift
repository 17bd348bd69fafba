import Foundation
import XCTest
@testable import Stipple

/// A bake with stroke layers draws, converts and writes only the boxes its layers reach;
/// the video it writes is the whole-frame bake's, byte for byte: every blend and effect, a
/// shadow, detect edges, erase, plain strokes between, stamps that age and dissolve, strokes
/// at the frame's edges, odd sizes, 4:2:0 and 4:4:4, over a video whose every sample differs
/// from its neighbours.
final class ModeBakeBoxesTests: XCTestCase {
    private static let modes = [
        #""effect": "desaturate""#, #""effect": "soften""#, #""effect": "sharpen""#, #""blend": "multiply""#,
        #""shadow": { "blur": 3, "offset": [5, -4] }"#, #""edges": { "tolerance": 40 }"#, #""blend": "erase""#, #""strokeOpacity": 0.6"#,
        #""blend": "screen""#, #""effect": "saturate""#,
    ]

    private func script(seed: UInt64, maxAge: Int, width: Int, height: Int) -> String {
        var rng = SplitMix64(seed: seed)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        let (w, h) = (Double(width), Double(height))
        let draw = (0..<14).map { i -> String in
            let t0 = unit() * 0.8
            // Every fourth stroke starts on an edge of the frame.
            let x = i % 4 == 0 ? 0 : unit() * w, y = i % 4 == 1 ? h - 1 : unit() * h
            let samples = (0..<4).map { k in
                #"{ "x": \#(x + Double(k) * (unit() * w / 6 - w / 12)), "y": \#(y + Double(k) * (unit() * h / 6 - h / 12)), "t": \#(t0 + Double(k) * 0.1) }"#
            }
            let mode = i % 3 == 2 ? "" : Self.modes[(i + Int(seed)) % Self.modes.count] + ", "
            let colour = String(format: "#%02x%02x%02x", Int(unit() * 255), Int(unit() * 255), Int(unit() * 255))
            return #"{ "brush": "soft", \#(mode)"color": "\#(colour)", "radius": \#(3 + unit() * 6), "points": [\#(samples.joined(separator: ", "))] }"#
        }
        return """
            { "fps": 30, "maxAge": \(maxAge), "dissolveDistance": 4, "brushes": { "soft": { "builtin": "soft-round", "size": 32 } },
              "draw": [ \(draw.joined(separator: ",\n")) ] }
            """
    }

    private func bake(_ loaded: Script, _ header: Y4MHeader, input: String, output: String, keep: Bool) async throws -> [UInt8] {
        let renderer = try Renderer()
        let bake = try VideoBake(scene: try Scene(script: loaded), header: header, renderer: renderer)
        bake.keepsSketch = keep
        let writer = try Y4MWriter(path: output, header: header)
        _ = try await bake.run(reader: try Y4MReader(path: input), writer: writer)
        try writer.finish()
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    func testBoxesEqualWholeFrames() async throws {
        let dir = try TestSupport.temporaryDirectory(self, "mode-boxes")
        // seed, maxAge, width, height, 4:4:4
        let cases: [(UInt64, Int, Int, Int, Bool)] = [(1, 0, 96, 64, false), (2, 12, 131, 77, false), (3, 0, 203, 121, true),
                                                      (4, 20, 97, 63, true), (5, 8, 160, 90, false)]
        for (seed, maxAge, w, h, full444) in cases {
            let header = Y4MHeader(width: w, height: h, rateNumerator: 30, rateDenominator: 1,
                                   chroma: full444 ? .yuv444 : .yuv420(tag: "420jpeg"))
            let input = dir.appendingPathComponent("in\(seed).y4m").path
            try ModeFixtures.writeBusyVideo(input, header: header, frames: 36)
            let path = dir.appendingPathComponent("s\(seed).json").path
            try script(seed: seed, maxAge: maxAge, width: w, height: h).write(toFile: path, atomically: true, encoding: .utf8)
            let loaded = try VideoBake.loadScript(script: path, header: header, video: input)
            let boxes = try await bake(loaded, header, input: input, output: dir.appendingPathComponent("b\(seed).y4m").path,
                                       keep: true)
            let whole = try await bake(loaded, header, input: input, output: dir.appendingPathComponent("w\(seed).y4m").path,
                                       keep: false)
            let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: input)))
            XCTAssertEqual(boxes.count, whole.count)
            XCTAssertNotEqual(whole, original, "seed \(seed): the strokes change the video")
            let first = boxes.indices.first { boxes[$0] != whole[$0] }
            XCTAssertNil(first, "seed \(seed), maxAge \(maxAge), \(w)×\(h)\(full444 ? " 4:4:4" : ""): first differing byte")
        }
    }

    /// The fixed-point conversion is the exact one, rounded, within one unit.
    func testYCbCrToRGBIsWithinOneOfExact() {
        for matrix in ColorMatrix.allCases {
            for range in [ColorRange.limited, .full] {
                let c = YCbCrConversion(matrix: matrix, range: range)
                let fixed = YCbCrToRGB(c)
                let kr = matrix.kr, kb = matrix.kb, kg = 1 - kr - kb
                let (ys, yo, cs) = range == .limited ? (219.0, 16.0, 224.0) : (255.0, 0.0, 255.0)
                func byte(_ v: Double) -> Int { Int(min(max((v * 255).rounded(), 0), 255)) }
                var (checked, equal) = (0, 0)
                for l in stride(from: 0, through: 255, by: 3) {
                    for cb in stride(from: 0, through: 255, by: 5) {
                        for cr in stride(from: 1, through: 255, by: 5) {
                            let yn = (Double(l) - yo) / ys, u = (Double(cb) - 128) / cs, v = (Double(cr) - 128) / cs
                            let r = yn + 2 * (1 - kr) * v, b = yn + 2 * (1 - kb) * u, g = (yn - kr * r - kb * b) / kg
                            let p = fixed.pixel(Int32(l), Int32(cb), Int32(cr))
                            let got = [Int(p & 255), Int(p >> 8 & 255), Int(p >> 16 & 255)]
                            XCTAssertEqual(p >> 24, 255)
                            for (k, want) in [byte(r), byte(g), byte(b)].enumerated() {
                                XCTAssertLessThanOrEqual(abs(got[k] - want), 1, "\(matrix) \(range) \(l) \(cb) \(cr)")
                                checked += 1
                                if got[k] == want { equal += 1 }
                            }
                        }
                    }
                }
                XCTAssertGreaterThan(Double(equal), 0.999 * Double(checked), "\(matrix) \(range)")
            }
        }
    }

    /// Eight samples at a time give what one at a time gives.
    func testSIMDMatchesOneAtATime() {
        let fixed = YCbCrToRGB(YCbCrConversion(matrix: .bt709, range: .limited))
        var rng = SplitMix64(seed: 9)
        for _ in 0..<2000 {
            let l = SIMD8<Int32>((0..<8).map { _ in Int32(rng.next() % 256) })
            let u = SIMD8<Int32>((0..<8).map { _ in Int32(rng.next() % 256) })
            let v = SIMD8<Int32>((0..<8).map { _ in Int32(rng.next() % 256) })
            let eight = fixed.pixels(l, u, v)
            for k in 0..<8 { XCTAssertEqual(eight[k], fixed.pixel(l[k], u[k], v[k])) }
        }
    }
}
