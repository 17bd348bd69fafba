import Foundation
import XCTest
@testable import Stipple

/// `stipple bake` and `stipple render --frames … -o video` as a user runs them: files and
/// pipes, ffmpeg containers, every bad input with its one-line error and nothing partial.
final class VideoCommandTests: XCTestCase {
    static let sketch = """
        {"maxAge": 20, "brushes": {"dot": {"builtin": "hard-round"}},
         "draw": [{"brush": "dot", "color": "#ffffff", "radius": 4,
                   "points": [{"x": 5, "y": 5, "t": 0}, {"x": 40, "y": 30, "t": 0.1}]}]}
        """

    private func folder(video frames: Int = 4, pixFmt: String = "yuv420p", rate: Int = 30) throws -> URL {
        _ = try VideoTestSupport.requireFFmpeg()
        let dir = try TestSupport.temporaryDirectory(self, "bake")
        try Self.sketch.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        try VideoTestSupport.makeVideo(dir.appendingPathComponent("in.y4m").path, width: 48, height: 32,
                                       frames: frames, pixFmt: pixFmt, rate: rate)
        return dir
    }

    private func bake(_ dir: URL, _ args: [String]) throws -> TestSupport.Run {
        try TestSupport.stipple(["bake"] + args, in: dir)
    }

    private func assertFails(_ run: TestSupport.Run, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, 2, run.stderr, file: file, line: line)
        XCTAssertTrue(run.stderr.hasPrefix("stipple: error: "), run.stderr, file: file, line: line)
        XCTAssertTrue(run.stderr.contains(expected), "expected “\(expected)” in: \(run.stderr)", file: file, line: line)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "one line: \(run.stderr)", file: file, line: line)
    }

    func testBakeKeepsHeaderAndFrameCountAndPrintsASummary() throws {
        let dir = try folder()
        let run = try bake(dir, ["s.json", "--video", "in.y4m", "-o", "out.y4m"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("baked 4 frames in "), run.stderr)
        XCTAssertTrue(run.stderr.contains("48×32 4:2:0 bt601 limited → out.y4m"), run.stderr)
        let input = try VideoTestSupport.read(dir.appendingPathComponent("in.y4m").path)
        let output = try VideoTestSupport.read(dir.appendingPathComponent("out.y4m").path)
        XCTAssertEqual(output.header.line, input.header.line)
        XCTAssertEqual(output.frames.count, 4)
        XCTAssertNotEqual(output.frames[1], input.frames[1], "the sketch is drawn")
    }

    func testPipeGivesTheSameBytesAsFiles() throws {
        let dir = try folder()
        XCTAssertEqual(try bake(dir, ["s.json", "--video", "in.y4m", "-o", "file.y4m"]).status, 0)
        let r = try VideoTestSupport.shell("cat in.y4m | '\(TestSupport.stippleBinary.path)' bake s.json --video - -o - > pipe.y4m",
                                           in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("pipe.y4m")),
                       try Data(contentsOf: dir.appendingPathComponent("file.y4m")))
    }

    func testTruncatedInputLeavesNoFileAndSendsOnlyWholeFramesDownAPipe() throws {
        let dir = try folder()
        let full = try Data(contentsOf: dir.appendingPathComponent("in.y4m"))
        let header = try VideoTestSupport.read(dir.appendingPathComponent("in.y4m").path).header
        let cut = header.line.utf8.count + 2 * (6 + header.frameSize) + 6 + 100
        try full.prefix(cut).write(to: dir.appendingPathComponent("cut.y4m"))
        let run = try bake(dir, ["s.json", "--video", "cut.y4m", "-o", "out.y4m"])
        assertFails(run, "cut.y4m:byte \(cut): frame 2 is truncated: 100 of its \(header.frameSize) bytes")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(),
                       ["cut.y4m", "in.y4m", "s.json"], "nothing partial is left")
        let r = try VideoTestSupport.shell("'\(TestSupport.stippleBinary.path)' bake s.json --video - -o - < cut.y4m > pipe.y4m",
                                           in: dir)
        XCTAssertTrue(r.status == 2 || r.status == 134, r.stderr)  // 134: the known exit-time abort (VideoTestSupport)
        XCTAssertTrue(r.stderr.contains("stdin:byte \(cut): frame 2 is truncated"), r.stderr)
        let sent = try Data(contentsOf: dir.appendingPathComponent("pipe.y4m"))
        XCTAssertEqual(sent.count, header.line.utf8.count + 2 * (6 + header.frameSize), "two whole frames")
    }

    func testBadHeadersAndScripts() throws {
        let dir = try folder()
        func write(_ text: String, _ name: String) throws {
            try Data(text.utf8).write(to: dir.appendingPathComponent(name))
        }
        try write("YUV4MPEG2 W48 H32 F30:1 Ip C422\n", "c422.y4m")
        assertFails(try bake(dir, ["s.json", "--video", "c422.y4m", "-o", "o.y4m"]),
                    "c422.y4m:byte 0: unsupported chroma C422: Stipple reads 8-bit 4:2:0 (C420jpeg")
        try write("YUV4MPEG2 W48 H32 F30:1 It\n", "tff.y4m")
        assertFails(try bake(dir, ["s.json", "--video", "tff.y4m", "-o", "o.y4m"]), "unsupported interlacing It")
        try write("YUV4MPEG2 W48 Hx\n", "bad.y4m")
        assertFails(try bake(dir, ["s.json", "--video", "bad.y4m", "-o", "o.y4m"]), "bad.y4m:byte 0: malformed header: height Hx")
        try write("{\"canvas\": {\"width\": 64, \"height\": 32}, \"draw\": []}", "size.json")
        assertFails(try bake(dir, ["size.json", "--video", "in.y4m", "-o", "o.y4m"]),
                    "size.json:1:22: the canvas is 64×32 but the video in.y4m is 48×32")
        try write("{\"canvas\": {\"width\": 48, \"height\": 32, \"background\": \"#000000\"}, \"draw\": []}", "bg.json")
        assertFails(try bake(dir, ["bg.json", "--video", "in.y4m", "-o", "o.y4m"]),
                    "bg.json:1:54: a baked script has no canvas background")
        try write("{\"fps\": 25, \"draw\": []}", "fps.json")
        assertFails(try bake(dir, ["fps.json", "--video", "in.y4m", "-o", "o.y4m"]),
                    "fps.json:1:9: fps 25 differs from the video's rate 30 (F30:1 in in.y4m)")
        try write("{\"draw\": [}", "broken.json")
        assertFails(try bake(dir, ["broken.json", "--video", "in.y4m", "-o", "o.y4m"]), "broken.json:1:11:")
        assertFails(try bake(dir, ["s.json", "--video", "in.y4m", "-o", "in.y4m"]), "refusing to overwrite")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("o.y4m").path))
    }

    func testMatchingCanvasAndFpsAreAccepted() throws {
        let dir = try folder()
        try Data("{\"canvas\": {\"width\": 48, \"height\": 32}, \"fps\": 30, \"draw\": []}".utf8)
            .write(to: dir.appendingPathComponent("ok.json"))
        let run = try bake(dir, ["ok.json", "--video", "in.y4m", "-o", "o.y4m"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("o.y4m")),
                       try Data(contentsOf: dir.appendingPathComponent("in.y4m")), "nothing drawn: bit-identical")
    }

    func testContainersGoThroughFFmpegAndItsFailuresAreShown() throws {
        let dir = try folder(video: 6)
        let make = try VideoTestSupport.shell("ffmpeg -v error -y -i in.y4m -f lavfi -i sine=sample_rate=48000 -shortest "
                                              + "-c:v libx264 -c:a aac -pix_fmt yuv420p in.mp4", in: dir)
        XCTAssertEqual(make.status, 0, make.stderr)
        let run = try bake(dir, ["s.json", "--video", "in.mp4", "-o", "out.mp4"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let probe = try VideoTestSupport.shell("ffprobe -v error -count_frames -show_entries stream=codec_type,nb_read_frames "
                                               + "-of csv=p=0 out.mp4 1>&2", in: dir)
        XCTAssertTrue(probe.stderr.contains("video,6"), probe.stderr)
        XCTAssertTrue(probe.stderr.contains("audio"), "the input's audio is copied: \(probe.stderr)")

        try Data("not a video".utf8).write(to: dir.appendingPathComponent("junk.mp4"))
        assertFails(try bake(dir, ["s.json", "--video", "junk.mp4", "-o", "o.y4m"]),
                    "junk.mp4: ffmpeg failed decoding junk.mp4 (exit 1): ")
        XCTAssertTrue(try bake(dir, ["s.json", "--video", "junk.mp4", "-o", "o.y4m"]).stderr.hasSuffix("junk.mp4: Invalid data found when processing input\n"))
        let noFFmpeg = try TestSupport.stipple(["bake", "s.json", "--video", "in.y4m", "-o", "o.mp4"],
                                               environment: ["PATH": "/nonexistent"], in: dir)
        assertFails(noFFmpeg, "o.mp4: reading or writing this container needs ffmpeg, which is not on PATH")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") || $0.hasPrefix("o.") }
        XCTAssertEqual(leftovers, [], "nothing partial")
    }

    func testRenderFramesToVideo() throws {
        let dir = try folder()
        try Data("{\"canvas\": {\"width\": 48, \"height\": 32}, \(Self.sketch.dropFirst())".utf8)
            .write(to: dir.appendingPathComponent("c.json"))
        var run = try TestSupport.stipple(["render", "c.json", "--frames", "all", "-o", "all.y4m"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        let all = try VideoTestSupport.read(dir.appendingPathComponent("all.y4m").path)
        // The last stamp is born at t = 0.1 s (frame 3) and lives 20 frames: frames 0...22.
        XCTAssertEqual(all.frames.count, 23)
        XCTAssertEqual(all.header.line, "YUV4MPEG2 W48 H32 F30:1 Ip A1:1 C420jpeg\n")
        XCTAssertTrue(all.frames.last!.contains { $0 > 16 }, "a live stamp in the last frame")
        run = try TestSupport.stipple(["render", "c.json", "--frames", "2...5", "-o", "a.mp4"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        let probe = try VideoTestSupport.shell("ffprobe -v error -count_frames -show_entries stream=nb_read_frames "
                                               + "-of csv=p=0 a.mp4 1>&2", in: dir)
        XCTAssertEqual(probe.stderr.trimmingCharacters(in: .whitespacesAndNewlines), "4")
        // H.264 in 4:2:0 needs even sizes: ffmpeg's reason is shown, nothing is left behind.
        try Data("{\"canvas\": {\"width\": 47, \"height\": 31}, \"draw\": []}".utf8)
            .write(to: dir.appendingPathComponent("odd.json"))
        run = try TestSupport.stipple(["render", "odd.json", "--frames", "0...2", "-o", "odd.mp4"], in: dir)
        assertFails(run, "odd.mp4: ffmpeg failed encoding odd.mp4 (exit 1): [libx264")
        XCTAssertTrue(run.stderr.contains("width not divisible by 2"), run.stderr)
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: dir.path).contains { $0.contains("odd.mp4") })
    }

    /// 300 frames of 1280×720 through a pipe: exactly 300 frames and the input's header come
    /// out, streamed (nothing holds the video: ~415 MB would not fit the test's budget).
    func testThreeHundredFramesAt720pStream() throws {
        let dir = try folder()
        let count = dir.appendingPathComponent("count.txt").path
        // Frames are counted by size as they pass: header line, then FRAME lines of known length.
        let cmd = "ffmpeg -v error -f lavfi -i testsrc2=size=1280x720:rate=30 -frames:v 300 -pix_fmt yuv420p "
            + "-f yuv4mpegpipe - | '\(TestSupport.stippleBinary.path)' bake s.json --video - -o - "
            + "| { head -1 > header.txt; wc -c > '\(count)'; }"
        let r = try VideoTestSupport.shell(cmd, in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("baked 300 frames"), r.stderr)
        let header = try String(contentsOf: dir.appendingPathComponent("header.txt"), encoding: .utf8)
        XCTAssertEqual(header, "YUV4MPEG2 W1280 H720 F30:1 Ip A1:1 C420jpeg XYSCSS=420JPEG\n")
        let bytes = Int(try String(contentsOfFile: count, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertEqual(bytes, 300 * (6 + 1280 * 720 * 3 / 2))
    }
}
