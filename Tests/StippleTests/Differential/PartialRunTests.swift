import Foundation
import XCTest
@testable import Stipple

/// A part of a run is a window onto the whole run: any `--frames A...B`, `--shard K/N` or
/// bake range writes the whole run's bytes for its frames, whatever the script holds —
/// "detect edges" strokes born before the window included (their references are read at
/// the frames they need, not at the window's first frame).
final class PartialRunTests: XCTestCase {
    /// A "detect edges" stamps entry whose first stamp is born before frame 0 (age 3), over a
    /// video whose pixels change every frame: every window of the bake is the whole bake's.
    func testBakeWindowsOfAnEdgesStrokeBornBeforeFrameZeroAreTheWholeBakes() async throws {
        let dir = try TestSupport.temporaryDirectory(self, "partial-bake")
        let script = dir.appendingPathComponent("s.json").path
        try #"""
            {"brushes": {"s": {"builtin": "soft-round", "size": 32}}, "draw": [{"brush": "s", "stamps": [
             [24.5, 10.1, 2, 3, 1.564, 0.417, 0.48, 0.311, 0.5], [24.5, -0.91, 14, 0, 1.92, 0.304, 0.973, 0.557, 1],
             [-3.95, 15.14, 14, 0, 2.56, 0.456, 0.351, 0.376, 0.5], [24.5, 32.42, 14, 0, 0.031, 0.527, 0.938, 0.688, 1],
             [9.59, 27.17, 4, 3, 0.63, 0.225, 0.178, 0.923, 1]], "blend": "screen", "edges": {"tolerance": 32}}]}
            """#.write(toFile: script, atomically: true, encoding: .utf8)
        // ffmpeg's geq=lum='mod(N*60+X*3,256)':cb=128:cr=128 at 70×26, 8 frames of 4:2:0.
        let header = Y4MHeader(width: 70, height: 26, rateNumerator: 25, rateDenominator: 1, chroma: .yuv420(tag: "420jpeg"))
        let input = dir.appendingPathComponent("in.y4m").path
        let writer = try Y4MWriter(path: input, header: header)
        for n in 0..<8 {
            var frame = Y4MFrame(header: header)
            frame.fill(y: 0, cb: 128, cr: 128)
            for y in 0..<26 { for x in 0..<70 { frame.bytes[frame.yOffset + y * 70 + x] = UInt8((n * 60 + x * 3) % 256) } }
            try writer.write(frame)
        }
        try writer.finish()
        let scene = try VideoBake.loadScene(script: script, header: header, video: input)
        func bake(_ frames: ClosedRange<Int>?, name: String) async throws -> [[UInt8]] {
            let bake = try VideoBake(scene: scene, header: header, renderer: try Renderer())
            let output = dir.appendingPathComponent(name).path
            let writer = try Y4MWriter(path: output, header: header)
            _ = try await bake.run(reader: try Y4MReader(path: input), writer: writer, frames: frames)
            try writer.finish()
            return try VideoTestSupport.read(output).frames
        }
        let whole = try await bake(nil, name: "whole.y4m")
        XCTAssertEqual(whole.count, 8)
        for a in 1..<8 {
            let part = try await bake(a...a, name: "part-\(a).y4m")
            XCTAssertEqual(part.count, 1)
            XCTAssertTrue(part.first == whole[a], "bake --frames \(a)...\(a) differs from the whole bake's frame \(a)")
        }
        // The command line's shards, joined, are the whole bake.
        var joined: [[UInt8]] = []
        for k in 1...3 {
            let out = dir.appendingPathComponent("shard-\(k).y4m").path
            let r = try TestSupport.stipple(["bake", script, "--video", input, "-o", out, "--shard", "\(k)/3"])
            XCTAssertEqual(r.status, 0, r.stderr)
            joined += try VideoTestSupport.read(out).frames
        }
        XCTAssertEqual(joined.count, 8)
        XCTAssertTrue(joined == whole, "bake --shard K/3 joined differs from the whole bake")
    }
}
