import Foundation
import XCTest
@testable import Stipple

/// y4m headers, reading and writing, and the compositor's arithmetic, without GL or ffmpeg.
final class VideoStreamTests: XCTestCase {
    func testHeaderKeepsEveryTagAsWritten() throws {
        let text = "YUV4MPEG2 W1280 H720 F30000:1001 Ip A1:1 C420mpeg2 XYSCSS=420MPEG2 XCOLORRANGE=FULL"
        let h = try Y4MHeader.parse(text, file: "in.y4m")
        XCTAssertEqual(h.width, 1280); XCTAssertEqual(h.height, 720)
        XCTAssertEqual(h.rateNumerator, 30000); XCTAssertEqual(h.rateDenominator, 1001)
        XCTAssertEqual(h.chroma, .yuv420(tag: "420mpeg2"))
        XCTAssertEqual(h.colorRange, .full)
        XCTAssertEqual(h.line, text + "\n")
        XCTAssertEqual(h.frameSize, 1280 * 720 * 3 / 2)
    }

    func testHeaderDefaults() throws {
        let h = try Y4MHeader.parse("YUV4MPEG2 W5 H3", file: "x")
        XCTAssertEqual(h.chroma, .yuv420(tag: nil), "no C tag is 4:2:0")
        XCTAssertEqual(h.fps, 25, "ffmpeg reads a missing rate as 25:1")
        XCTAssertNil(h.colorRange)
        XCTAssertEqual(h.chromaWidth, 3); XCTAssertEqual(h.chromaHeight, 2, "odd sizes round chroma up")
        XCTAssertEqual(try Y4MHeader.parse("YUV4MPEG2 W4 H4 C444 I?", file: "x").chroma, .yuv444)
    }

    func testUnsupportedHeadersListWhatIsSupported() {
        for (text, expected) in [("YUV4MPEG2 W4 H4 C422", "unsupported chroma C422"),
                                 ("YUV4MPEG2 W4 H4 C420p10", "unsupported chroma C420p10"),
                                 ("YUV4MPEG2 W4 H4 Cmono", "unsupported chroma Cmono"),
                                 ("YUV4MPEG2 W4 H4 It", "unsupported interlacing It"),
                                 ("YUV4MPEG2 W4 H4 Im", "unsupported interlacing Im")] {
            XCTAssertThrowsError(try Y4MHeader.parse(text, file: "v.y4m")) { error in
                let message = "\(error)"
                XCTAssertTrue(message.hasPrefix("v.y4m:byte 0: \(expected)"), message)
                XCTAssertTrue(message.contains("C420jpeg") && message.contains("C444") && message.contains("Ip"), message)
            }
        }
    }

    func testMalformedHeaders() {
        for (text, expected) in [("YUV4MPEG W4 H4", "not a YUV4MPEG2 stream"),
                                 ("YUV4MPEG2 H4", "needs both W<width> and H<height>"),
                                 ("YUV4MPEG2 W0 H4", "width W0"),
                                 ("YUV4MPEG2 W4 H4 F30", "frame rate F30"),
                                 ("YUV4MPEG2 W4 H4 Q1", "unknown tag \"Q1\""),
                                 ("YUV4MPEG2 W4 H4 XCOLORRANGE=ODD", "XCOLORRANGE=FULL or"),
                                 // Found by `make fuzz`: the message's pixel count overflowed.
                                 ("YUV4MPEG2 W3 H3333333333333333333", "3×3333333333333333333 (more than"),
                                 ("YUV4MPEG2 W4 H4 Xa\u{1B}[2J", #"tag "Xa\u001b[2J" holds the control character U+001B"#),
                                 ("YUV4MPEG2 W4 H4\r", #"tag "H4\r" holds the control character U+000D"#)] {
            XCTAssertThrowsError(try Y4MHeader.parse(text, file: "v.y4m")) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(text): \(error)")
            }
        }
    }

    /// Writes `frames` frames of `header` whose samples count up, returns the file.
    private func makeStream(_ header: Y4MHeader, frames: Int, in dir: URL) throws -> (String, [Y4MFrame]) {
        let path = dir.appendingPathComponent("in.y4m").path
        let writer = try Y4MWriter(path: path, header: header)
        var written: [Y4MFrame] = []
        for n in 0..<frames {
            var f = Y4MFrame(header: header)
            for i in f.yOffset..<f.bytes.count { f.bytes[i] = UInt8(truncatingIfNeeded: i * 7 + n) }
            try writer.write(f)
            written.append(f)
        }
        try writer.finish()
        return (path, written)
    }

    func testRoundTripIsByteExact() throws {
        let dir = try TestSupport.temporaryDirectory(self, "y4m")
        let header = try Y4MHeader.parse("YUV4MPEG2 W7 H5 F24:1 Ip A1:1 C420paldv XYSCSS=420PALDV", file: "x")
        let (path, written) = try makeStream(header, frames: 3, in: dir)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(bytes.count, header.line.utf8.count + 3 * (6 + header.frameSize))
        let reader = try Y4MReader(path: path)
        XCTAssertEqual(reader.header, header)
        var frame = Y4MFrame(header: reader.header)
        for n in 0..<3 {
            XCTAssertTrue(try reader.read(into: &frame))
            XCTAssertEqual(frame.bytes, written[n].bytes, "frame \(n)")
        }
        XCTAssertFalse(try reader.read(into: &frame))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["in.y4m"], "no temporary left")
    }

    func testFrameLinesWithTagsAreRead() throws {
        let dir = try TestSupport.temporaryDirectory(self, "y4m")
        let path = dir.appendingPathComponent("t.y4m").path
        let planes = [UInt8](repeating: 9, count: 6)  // 2×2 4:2:0: 4 + 1 + 1
        try Data(Array("YUV4MPEG2 W2 H2\nFRAME Ixyz\n".utf8) + planes).write(to: URL(fileURLWithPath: path))
        let reader = try Y4MReader(path: path)
        var frame = Y4MFrame(header: reader.header)
        XCTAssertTrue(try reader.read(into: &frame))
        XCTAssertEqual(Array(frame.planes), planes)
    }

    func testTruncatedFrameNamesFrameAndByteOffset() throws {
        let dir = try TestSupport.temporaryDirectory(self, "y4m")
        let header = Y4MHeader(width: 4, height: 4)  // 24 bytes of planes a frame
        let (path, _) = try makeStream(header, frames: 3, in: dir)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.removeLast(10)
        try bytes.write(to: URL(fileURLWithPath: path))
        let reader = try Y4MReader(path: path)
        var frame = Y4MFrame(header: header)
        XCTAssertTrue(try reader.read(into: &frame))
        XCTAssertTrue(try reader.read(into: &frame))
        XCTAssertThrowsError(try reader.read(into: &frame)) { error in
            let end = bytes.count
            XCTAssertEqual("\(error)", "\(path):byte \(end): frame 2 is truncated: 14 of its 24 bytes of planes "
                           + "(4×4 4:2:0) before the end of the stream")
        }
    }

    func testGarbageWhereAFrameLineShouldBe() throws {
        let dir = try TestSupport.temporaryDirectory(self, "y4m")
        let path = dir.appendingPathComponent("g.y4m").path
        try Data(Array("YUV4MPEG2 W2 H2\nFRAMX\n".utf8)).write(to: URL(fileURLWithPath: path))
        let reader = try Y4MReader(path: path)
        var frame = Y4MFrame(header: reader.header)
        XCTAssertThrowsError(try reader.read(into: &frame)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(path):byte 16: frame 0: expected a FRAME line"), "\(error)")
        }
    }

    func testAbandonedWriterLeavesNothing() throws {
        let dir = try TestSupport.temporaryDirectory(self, "y4m")
        let path = dir.appendingPathComponent("out.y4m").path
        let writer = try Y4MWriter(path: path, header: Y4MHeader(width: 2, height: 2))
        try writer.write(Y4MFrame(header: Y4MHeader(width: 2, height: 2)))
        writer.abandon()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }

    func testConversionMatchesTheStandardFormulas() {
        // BT.709 limited (the figures of the standard): white, black, pure red.
        let c709 = YCbCrConversion(matrix: .bt709, range: .limited)
        XCTAssertEqual([c709.y(255, 255, 255), c709.cb(255, 255, 255), c709.cr(255, 255, 255)], [235, 128, 128])
        XCTAssertEqual([c709.y(0, 0, 0), c709.cb(0, 0, 0), c709.cr(0, 0, 0)], [16, 128, 128])
        XCTAssertEqual([c709.y(255, 0, 0), c709.cb(255, 0, 0), c709.cr(255, 0, 0)], [63, 102, 240])
        let c601 = YCbCrConversion(matrix: .bt601, range: .limited)
        XCTAssertEqual([c601.y(255, 0, 0), c601.cb(255, 0, 0), c601.cr(255, 0, 0)], [81, 90, 240])
        let full = YCbCrConversion(matrix: .bt601, range: .full)
        XCTAssertEqual([full.y(255, 255, 255), full.y(0, 0, 0), full.cr(255, 0, 0), full.cb(0, 0, 255)], [255, 0, 255, 255])
        XCTAssertEqual(ColorMatrix.default(forHeight: 720), .bt709)
        XCTAssertEqual(ColorMatrix.default(forHeight: 719), .bt601)
    }

    func testUncoveredSamplesAreUntouchedAndCoveredOnesBlend() {
        for header in [Y4MHeader(width: 9, height: 7, chroma: .yuv420(tag: nil)), Y4MHeader(width: 9, height: 7, chroma: .yuv444)] {
            var frame = Y4MFrame(header: header)
            for i in frame.yOffset..<frame.bytes.count { frame.bytes[i] = UInt8(truncatingIfNeeded: i &* 37) }
            let before = frame
            var sketch = Image(width: 9, height: 7, fill: .transparent)
            // One opaque white pixel at (2, 2), one half-covered at (8, 6) (the odd corner).
            sketch.pixels.replaceSubrange((2 * 9 + 2) * 4..<(2 * 9 + 3) * 4, with: [255, 255, 255, 255])
            sketch.pixels.replaceSubrange((6 * 9 + 8) * 4..<(6 * 9 + 9) * 4, with: [0, 0, 0, 128])
            let c = YCbCrConversion(matrix: .bt601, range: .limited)
            XCTAssertEqual(PlaneCompositor.composite(sketch, over: &frame, conversion: c), 2)
            let h = header
            var changedLuma: [Int] = []
            for i in 0..<h.lumaSize where frame.bytes[frame.yOffset + i] != before.bytes[frame.yOffset + i] {
                changedLuma.append(i)
            }
            XCTAssertEqual(frame.bytes[frame.yOffset + 2 * 9 + 2], 235, "opaque white is Y' 235")
            XCTAssertTrue(Set(changedLuma).isSubset(of: [2 * 9 + 2, 6 * 9 + 8]))
            // Chroma: only the samples whose block (4:2:0) or pixel (4:4:4) has coverage.
            let covered: Set<Int> = h.chroma == .yuv444 ? [2 * 9 + 2, 6 * 9 + 8] : [1 * 5 + 1, 3 * 5 + 4]
            for plane in [frame.cbOffset, frame.crOffset] {
                for i in 0..<h.chromaSize where !covered.contains(i) {
                    XCTAssertEqual(frame.bytes[plane + i], before.bytes[plane + i], "chroma sample \(i)")
                }
            }
        }
    }

    func testBlendIsOverlaysFormula() {
        for d in stride(from: 0, through: 255, by: 15) {
            for s: Int32 in [0, 16, 128, 235, 255] {
                for a: Int32 in [0, 1, 127, 128, 254, 255] {
                    let expected = ((Int32(d) * (255 - a) + s * a + 128) * 257) >> 16
                    XCTAssertEqual(Int32(PlaneCompositor.blend(UInt8(d), s, a)), expected)
                }
            }
            XCTAssertEqual(PlaneCompositor.blend(UInt8(d), 77, 0), UInt8(d), "alpha 0 keeps the sample")
        }
    }

    func testSceneTimelineFrames() throws {
        let fixture = try ScriptFixture()
        let script = try fixture.parse("""
            {"canvas": {"width": 50, "height": 50}, "maxAge": 10, "brushes": {"d": {"builtin": "hard-round"}},
             "draw": [{"brush": "d", "stamps": [[1, 1, 2, -3, 0, 1, 1, 1, 1], [1, 1, 2, -7.5, 0, 1, 1, 1, 1]]}]}
            """)
        let timeline = try Scene(script: script).timeline
        XCTAssertEqual(timeline.firstFrame, 3)
        XCTAssertEqual(timeline.lastFrame, 17, "born at 7.5 (frame 8), dead from age 10: frame 17.5, so 17 is the last")
        XCTAssertEqual(timeline.allFrames, 0...17)
        XCTAssertFalse(timeline.mayShow(frame: 2)); XCTAssertTrue(timeline.mayShow(frame: 3))
        XCTAssertFalse(timeline.mayShow(frame: 18))
    }

    /// With stamps that never die, `--frames all` runs to the last session entry, as `describe` says.
    func testAllFramesReachTheLastSessionEntry() throws {
        let fixture = try ScriptFixture()
        let script = try fixture.parse("""
            {"canvas": {"width": 64, "height": 64}, "fps": 30, "brushes": {"d": {"builtin": "hard-round"}},
             "draw": [{"brush": "d", "points": [{"x": 10, "y": 10, "t": 0}, {"x": 50, "y": 40, "t": 0.1}]},
                      {"undo": 1, "t": 0.5}, {"redo": 1, "t": 0.8}]}
            """)
        let timeline = try Scene(script: script).timeline
        XCTAssertEqual(timeline.liveFrames?.upperBound, 24)
        XCTAssertEqual(timeline.allFrames, 0...24)
        XCTAssertTrue(timeline.mayShow(frame: 24))
    }
}
