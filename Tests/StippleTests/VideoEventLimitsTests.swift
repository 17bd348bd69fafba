import Foundation
import XCTest
@testable import Stipple

/// `stipple bake --events` and `--video` held to the limits of docs/limits.md: live strokes
/// are culled and counted as a script's strokes are, open strokes and events are bounded,
/// a frame's size is checked at the header, and the events source is a file, a FIFO or stdin.
final class VideoEventLimitsTests: XCTestCase {
    static let script = """
        {"brushes":{"s":{"builtin":"soft-round"}},"draw":[{"brush":"s","points":[{"x":2,"y":2,"t":0},{"x":14,"y":14,"t":0.05}]}]}
        """
    static let header = "YUV4MPEG2 W16 H16 F30:1 Ip A1:1 C420jpeg\n"

    private func folder(frames: Int = 2) throws -> URL {
        let dir = try TestSupport.temporaryDirectory(self, "event-limits")
        try write(Self.script, "sk.json", in: dir)
        let frame = Array("FRAME\n".utf8) + [UInt8](repeating: 0x80, count: 384)
        let video = Array(Self.header.utf8) + (0..<frames).flatMap { _ in frame }
        try Data(video).write(to: dir.appendingPathComponent("in.y4m"))
        return dir
    }

    private func write(_ text: String, _ name: String, in dir: URL) throws {
        try Data(text.utf8).write(to: dir.appendingPathComponent(name))
    }

    private func bake(_ dir: URL, events: String? = nil, video: String = "in.y4m",
                      output: String = "o.y4m") throws -> TestSupport.Run {
        try TestSupport.stipple(["bake", "sk.json", "--video", video, "-o", output]
                                + (events.map { ["--events", $0] } ?? []), in: dir)
    }

    private func assertRefused(_ run: TestSupport.Run, _ expected: String, in dir: URL,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, 2, run.stderr, file: file, line: line)
        XCTAssertTrue(run.stderr.hasPrefix("stipple: error: \(expected)"), "expected \(expected): \(run.stderr)",
                      file: file, line: line)
        XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, "one line: \(run.stderr)", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("o.y4m").path),
                       file: file, line: line)
    }

    /// A live sample far off the canvas is culled as a script's is: x = 1e7 costs its stamp
    /// places, not gigabytes; further out, the walk limit or the segment limit refuses it.
    func testFarLiveSamplesAreCulledAndBounded() throws {
        let dir = try folder()
        let start = "{\"t\":0,\"stroke\":1,\"x\":2,\"y\":2,\"brush\":\"s\"}\n"
        try write(start + "{\"t\":0.01,\"stroke\":1,\"x\":1e7,\"y\":10}\n", "far.jsonl", in: dir)
        let began = Date()
        let run = try bake(dir, events: "far.jsonl", output: "far.y4m")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(began), 20, "a culled excursion is cheap")
        for x in ["1e15", "9e7", "-9e7"] {
            try write(start + "{\"t\":0.01,\"stroke\":1,\"x\":\(x),\"y\":10}\n", "e.jsonl", in: dir)
            assertRefused(try bake(dir, events: "e.jsonl"), "e.jsonl:2:1: stroke 1 is too long for its radius and spacing",
                          in: dir)
        }
        try write(start + "{\"t\":1e9,\"stroke\":1,\"x\":3,\"y\":3}\n", "e.jsonl", in: dir)
        assertRefused(try bake(dir, events: "e.jsonl"), "e.jsonl:2:6: t = 1000000000.0 s is frame 30000000000 at 30 fps; touch times must fall within 16777216 frames of frame 0 (±559241 s at this fps)", in: dir)
        try write("{\"t\":-1e9,\"stroke\":1,\"x\":3,\"y\":3,\"brush\":\"s\"}\n", "e.jsonl", in: dir)
        assertRefused(try bake(dir, events: "e.jsonl"), "e.jsonl:1:6: t = -1000000000.0 s is frame -30000000000", in: dir)
    }

    /// Live strokes share the script's stamp budget: what the script used is not available
    /// to them (the decoder, with a script that has used all but one stamp).
    func testLiveStrokesShareTheScriptsStampBudget() throws {
        var script = Script(path: "s.json", directory: ".", canvas: CanvasSpec(width: 16, height: 16),
                            brushes: ["s": .builtin(.softRound, size: 64, location: .file)], brushOrder: ["s"])
        script.stampsUsed = Limits.maxStampsPerScript - 1
        var decoder = EventDecoder(file: "e.jsonl", script: script)
        XCTAssertNotNil(try decoder.decode(Array("{\"t\":0,\"stroke\":1,\"x\":2,\"y\":2,\"brush\":\"s\"}".utf8), line: 1))
        XCTAssertThrowsError(try decoder.decode(Array("{\"t\":0.1,\"stroke\":1,\"x\":14,\"y\":14}".utf8), line: 2)) {
            XCTAssertTrue("\($0)".hasPrefix("e.jsonl:2:1: stroke 1 makes more stamps that can touch the canvas than are left"),
                          "\($0)")
        }
    }

    /// At most 1024 strokes open at once, and 16 384 started in all.
    func testOpenAndTotalLiveStrokesAreBounded() throws {
        let dir = try folder()
        let open = (0...Limits.maxOpenLiveStrokes).map { "{\"t\":0,\"stroke\":\($0),\"x\":2,\"y\":2,\"brush\":\"s\"}\n" }
        try write(open.joined(), "e.jsonl", in: dir)
        assertRefused(try bake(dir, events: "e.jsonl"),
                      "e.jsonl:1025:17: stroke 1024 would be the 1025th stroke open at once; at most 1024", in: dir)
        let ended = (0...Limits.maxLiveStrokes).map {
            "{\"t\":0,\"stroke\":\($0),\"x\":2,\"y\":2,\"brush\":\"s\"}\n{\"t\":0,\"end\":\($0)}\n"
        }
        try write(ended.joined(), "e.jsonl", in: dir)
        assertRefused(try bake(dir, events: "e.jsonl"),
                      "e.jsonl:32769:17: stroke 16384 would be live stroke 16385; an events source may start at most 16384",
                      in: dir)
    }

    /// A frame's size is checked at the header, before a frame is allocated; a regular file
    /// must hold a whole frame. 8K UHD is within the limit.
    func testFrameSizeIsCheckedBeforeAllocating() throws {
        let dir = try folder()
        let tail = Array("FRAME\n".utf8) + [UInt8](repeating: 0, count: 100)
        try Data(Array("YUV4MPEG2 W16384 H16384 F30:1\n".utf8) + tail).write(to: dir.appendingPathComponent("big.y4m"))
        assertRefused(try bake(dir, video: "big.y4m"), "big.y4m:byte 0: the frame is 16384×16384 (268435456 pixels)", in: dir)
        try Data(Array("YUV4MPEG2 W16385 H16 F30:1\n".utf8) + tail).write(to: dir.appendingPathComponent("wide.y4m"))
        assertRefused(try bake(dir, video: "wide.y4m"), "wide.y4m:byte 0: the frame is 16385×16", in: dir)
        try Data(Array("YUV4MPEG2 W7680 H4320 F30:1\n".utf8) + tail).write(to: dir.appendingPathComponent("8k.y4m"))
        assertRefused(try bake(dir, video: "8k.y4m"), "8k.y4m:byte 134: frame 0 is truncated: the file holds 106 bytes "
                      + "after its header, and a FRAME line with the planes of one 7680×4320 frame takes 49766406", in: dir)
        // A header alone is still a video of no frames.
        try write(Self.header, "empty.y4m", in: dir)
        let run = try bake(dir, video: "empty.y4m", output: "none.y4m")
        XCTAssertEqual(run.status, 0, run.stderr)
    }

    /// A FIFO whose writer opens late is waited for: its events draw (the docs' own usage).
    func testAFIFOWhoseWriterOpensLateIsRead() throws {
        let dir = try folder(frames: 30)
        try write("""
            {"t":0,"stroke":1,"x":2,"y":14,"brush":"s"}
            {"t":0.02,"stroke":1,"x":14,"y":2}
            {"t":0.03,"end":1}

            """, "evf.jsonl", in: dir)
        let fifo = dir.appendingPathComponent("ev").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "sleep 0.3; cat '\(dir.appendingPathComponent("evf.jsonl").path)' > '\(fifo)'"]
        try writer.run()
        defer { writer.end() }
        var run = try bake(dir, events: "ev", output: "fifo.y4m")
        XCTAssertEqual(run.status, 0, run.stderr)
        run = try bake(dir, events: "evf.jsonl", output: "file.y4m")
        XCTAssertEqual(run.status, 0, run.stderr)
        run = try bake(dir, output: "none.y4m")
        XCTAssertEqual(run.status, 0, run.stderr)
        let fromFIFO = try VideoTestSupport.read(dir.appendingPathComponent("fifo.y4m").path).frames
        let fromFile = try VideoTestSupport.read(dir.appendingPathComponent("file.y4m").path).frames
        let none = try VideoTestSupport.read(dir.appendingPathComponent("none.y4m").path).frames
        XCTAssertEqual(fromFIFO.count, 30)
        // Live, the events may land a frame or two late; once all are in, the frames agree.
        XCTAssertEqual(fromFIFO.last, fromFile.last)
        XCTAssertNotEqual(fromFIFO.last, none.last, "the FIFO's events drew")
    }

    /// Anything but a regular file, a FIFO or "-" is refused, not read as no events.
    func testEventsThatAreNotAFileOrFIFOAreRefused() throws {
        let dir = try folder()
        assertRefused(try bake(dir, events: "."), ".: is a folder; --events reads a regular file, a FIFO (named pipe) or - (stdin)",
                      in: dir)
        assertRefused(try bake(dir, events: "/dev/null"), "/dev/null: is a character device; --events reads", in: dir)
        assertRefused(try bake(dir, events: "missing.jsonl"), "missing.jsonl: file not found", in: dir)
    }
}
