import Foundation
import XCTest
@testable import Stipple

/// A bake keeps its sketch on the GPU and draws again only what changed between frames;
/// the video it writes is the full redraw's, byte for byte: random scripts, stamps that
/// never age and stamps that dissolve, strokes born across the video, undo and clear.
final class KeptSketchPropertyTests: XCTestCase {
    private func script(seed: UInt64, maxAge: Int, sessions: Bool) -> String {
        var rng = SplitMix64(seed: seed)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        let strokes = (0..<8).map { _ -> String in
            let t0 = unit() * 1.2, x = unit() * 96, y = unit() * 64
            let samples = (0..<5).map { i in
                #"{ "x": \#(x + Double(i) * (unit() * 12 - 6)), "y": \#(y + Double(i) * (unit() * 10 - 5)), "t": \#(t0 + Double(i) * 0.08) }"#
            }
            let color = String(format: "#%02x%02x%02x%02x", Int(unit() * 255), Int(unit() * 255), Int(unit() * 255), 128 + Int(unit() * 127))
            return #"{ "brush": "soft", "color": "\#(color)", "radius": \#(2 + unit() * 7), "points": [\#(samples.joined(separator: ", "))] }"#
        }
        var draw = strokes
        if sessions {
            draw.append(#"{ "undo": 1, "t": 1.0 }"#)
            draw.append(#"{ "clear": true, "t": 1.3 }"#)
            draw.append(#"{ "undo": 1, "t": 1.5 }"#)
        }
        return """
            { "fps": 30, "maxAge": \(maxAge), "seed": \(seed), "brushes": { "soft": { "builtin": "soft-round", "size": 32 } },
              "draw": [ \(draw.joined(separator: ",\n")) ] }
            """
    }

    private func bake(_ scene: Scene, _ header: Y4MHeader, input: String, output: String, keep: Bool) async throws -> [UInt8] {
        let bake = try VideoBake(scene: scene, header: header, renderer: try Renderer())
        bake.keepsSketch = keep
        let reader = try Y4MReader(path: input)
        let writer = try Y4MWriter(path: output, header: header)
        _ = try await bake.run(reader: reader, writer: writer)
        try writer.finish()
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    func testKeptEqualsFullRedraw() async throws {
        let dir = try TestSupport.temporaryDirectory(self, "kept-sketch")
        let header = Y4MHeader(width: 96, height: 64, rateNumerator: 30, rateDenominator: 1)
        let input = dir.appendingPathComponent("in.y4m").path
        let writer = try Y4MWriter(path: input, header: header)
        var frame = Y4MFrame(header: header)
        for n in 0..<60 {
            frame.fill(y: UInt8(16 + n * 3), cb: UInt8(100 + n), cr: UInt8(150 - n))
            try writer.write(frame)
        }
        try writer.finish()
        for (seed, maxAge, sessions) in [(1 as UInt64, 0, false), (2, 20, false), (3, 0, true), (4, 12, true), (5, 0, false)] {
            let path = dir.appendingPathComponent("s\(seed).json").path
            try script(seed: seed, maxAge: maxAge, sessions: sessions).write(toFile: path, atomically: true, encoding: .utf8)
            let scene = try VideoBake.loadScene(script: path, header: header, video: input)
            let kept = try await bake(scene, header, input: input, output: dir.appendingPathComponent("k\(seed).y4m").path, keep: true)
            let full = try await bake(scene, header, input: input, output: dir.appendingPathComponent("f\(seed).y4m").path, keep: false)
            XCTAssertEqual(kept.count, full.count)
            let first = kept.indices.first { kept[$0] != full[$0] }
            XCTAssertNil(first, "seed \(seed), maxAge \(maxAge), sessions \(sessions): first differing byte \(first ?? -1) of \(full.count)")
        }
    }
}
