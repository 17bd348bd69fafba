import Foundation
import XCTest
@testable import Stipple

/// Stroke layers baked over a video: an effect acts on the frame's colour, samples it does
/// not touch are written exactly as read, and an eraser reveals the video.
final class ModeBakeTests: XCTestCase {
    private let (w, h) = (64, 48)

    private func video(frames: Int) -> [UInt8] {
        var data = Array("YUV4MPEG2 W\(w) H\(h) F30:1 Ip A1:1 C420jpeg\n".utf8)
        for f in 0..<frames {
            data += Array("FRAME\n".utf8)
            for y in 0..<h { for x in 0..<w { data.append(UInt8((40 + x * 2 + y + f * 3) % 256)) } }
            for _ in 0..<(h / 2) { for x in 0..<(w / 2) { data.append(UInt8(60 + x * 3)) } }
            for y in 0..<(h / 2) { for _ in 0..<(w / 2) { data.append(UInt8(200 - y * 3)) } }
        }
        return data
    }

    /// Bakes `draw` (the entries of a script) over a two-frame video; returns input and output.
    private func bake(_ draw: String) throws -> (input: [UInt8], output: [UInt8], header: Int) {
        let dir = try TestSupport.temporaryDirectory(self)
        let input = video(frames: 2)
        let videoPath = dir.appendingPathComponent("in.y4m").path
        try Data(input).write(to: URL(fileURLWithPath: videoPath))
        let script = dir.appendingPathComponent("s.json").path
        try Data(#"{ "brushes": { "s": { "builtin": "hard-round" } }, "draw": [ \#(draw) ] }"#.utf8)
            .write(to: URL(fileURLWithPath: script))
        let out = dir.appendingPathComponent("out.y4m").path
        let run = try TestSupport.stipple(["bake", script, "--video", videoPath, "-o", out])
        XCTAssertEqual(run.status, 0, run.stderr)
        let output = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        return (input, output, input.firstIndex(of: 0x0A)! + 1)
    }

    private var frameSize: Int { 6 + w * h + 2 * (w / 2) * (h / 2) }

    func testDesaturateActsOnTheFrameAndLeavesTheRestAsRead() throws {
        let r = try bake(#"{ "brush": "s", "radius": 6, "effect": "desaturate", "points": [{ "x": 4, "y": 24, "t": 0 }, { "x": 40, "y": 24, "t": 0 }] }"#)
        XCTAssertEqual(r.output.count, r.input.count)
        for f in 0..<2 {
            let base = r.header + f * frameSize + 6
            let cb = base + w * h, cr = cb + (w / 2) * (h / 2)
            for y in 0..<h {
                for x in 0..<w where x > 47 || y < 14 || y > 34 {
                    XCTAssertEqual(r.output[base + y * w + x], r.input[base + y * w + x], "luma (\(x), \(y)) frame \(f)")
                }
            }
            // Fully inside the stroke the colour is grey: Cb and Cr at the middle of their range.
            for cx in 4..<18 {
                let i = 12 * (w / 2) + cx
                XCTAssertLessThanOrEqual(abs(Int(r.output[cb + i]) - 128), 1)
                XCTAssertLessThanOrEqual(abs(Int(r.output[cr + i]) - 128), 1)
                XCTAssertNotEqual(r.input[cb + i], 128)
            }
        }
    }

    func testEraseRevealsTheVideo() throws {
        let paint = ##"{ "brush": "s", "radius": 8, "color": "#ff0000", "points": [{ "x": 10, "y": 24, "t": 0 }, { "x": 54, "y": 24, "t": 0 }] }"##
        let erase = #"{ "brush": "s", "radius": 5, "blend": "erase", "points": [{ "x": 32, "y": 4, "t": 0 }, { "x": 32, "y": 44, "t": 0 }] }"#
        let r = try bake(paint + ", " + erase)
        let base = r.header + 6
        // Where the eraser went fully over the paint, the video's samples come back as read.
        for y in 20..<28 {
            for x in 30..<35 { XCTAssertEqual(r.output[base + y * w + x], r.input[base + y * w + x], "(\(x), \(y))") }
        }
        // The paint beside it is still there.
        XCTAssertNotEqual(r.output[base + 24 * w + 16], r.input[base + 24 * w + 16])
    }

    /// A "detect edges" stroke that an undo hides when it is born reads its reference the
    /// first frame that draws it; `bake --frames` draws that frame too, unwritten, so its part
    /// is the whole bake's frame.
    func testAPartReadsTheReferenceOfAStrokeHiddenWhenBornWhereTheWholeBakeDoes() throws {
        let dir = try TestSupport.temporaryDirectory(self)
        let videoPath = dir.appendingPathComponent("in.y4m").path
        try Data(video(frames: 24)).write(to: URL(fileURLWithPath: videoPath))
        let script = dir.appendingPathComponent("s.json").path
        // Born at frame 14 (t 0.449), undone from frame 4 until the redo at frame 15.
        try Data(#"""
            { "fps": 30, "brushes": { "s": { "builtin": "soft-round", "size": 64 } }, "draw": [
              { "brush": "s", "blend": "screen", "color": "#498c0586", "edges": { "tolerance": 39 }, "radius": 16,
                "points": [{ "x": 54.5, "y": 8, "t": 0.449 }, { "x": 40.6, "y": 25.9, "t": 0.529 }, { "x": 23.8, "y": 35.1, "t": 0.569 }] },
              { "undo": 1, "t": 0.156 }, { "redo": 1, "t": 0.511 } ] }
            """#.utf8).write(to: URL(fileURLWithPath: script))
        func bake(_ extra: [String]) throws -> [UInt8] {
            let out = dir.appendingPathComponent("out\(extra.count).y4m").path
            let run = try TestSupport.stipple(["bake", script, "--video", videoPath, "-o", out] + extra)
            XCTAssertEqual(run.status, 0, run.stderr)
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        let whole = try bake([]), part = try bake(["--frames", "17...17"])
        let header = whole.firstIndex(of: 0x0A)! + 1
        let frame17 = Array(whole[(header + 17 * frameSize)..<(header + 18 * frameSize)])
        XCTAssertEqual(Array(part[header...]), frame17)
        XCTAssertNotEqual(frame17, Array(video(frames: 24)[(header + 17 * frameSize)..<(header + 18 * frameSize)]),
                          "the stroke changes frame 17")
    }
}
