import Foundation
import XCTest
@testable import Stipple

/// `stipple bake --events`: touch events as JSON lines, applied at their frames.
final class VideoEventTests: XCTestCase {
    static let brushes = "\"brushes\": {\"soft\": {\"builtin\": \"soft-round\", \"size\": 32}}"
    static let firstStroke = """
        {"brush": "soft", "color": "#ff3b30", "radius": 5, "points": [{"x": 4, "y": 4, "t": 0}, {"x": 40, "y": 20, "t": 0.1}]}
        """

    private func folder() throws -> URL {
        _ = try VideoTestSupport.requireFFmpeg()
        let dir = try TestSupport.temporaryDirectory(self, "events")
        try VideoTestSupport.makeVideo(dir.appendingPathComponent("in.y4m").path, width: 64, height: 48, frames: 12)
        try write("{\"maxAge\": 30, \(Self.brushes), \"draw\": [\(Self.firstStroke)]}", "s.json", in: dir)
        return dir
    }

    private func write(_ text: String, _ name: String, in dir: URL) throws {
        try Data(text.utf8).write(to: dir.appendingPathComponent(name))
    }

    /// A stroke sent as events draws exactly what the same stroke does as a `points` entry
    /// after the script's own, once its last event has arrived. Before that, live drawing lags:
    /// the stamps between two samples are born at their own frames, but cannot be drawn before
    /// the later sample arrives (docs/video.md). Before the first event nothing changes.
    func testEventsDrawWhatTheSameStrokeDrawsInAScript() throws {
        let dir = try folder()
        try write("""
            {"t": 0.0667, "stroke": 7, "x": 60, "y": 5, "pressure": 0.3, "brush": "soft", "color": "#30a0ff", "radius": 6}
            {"t": 0.1, "stroke": 7, "x": 50, "y": 20, "pressure": 0.5}
            {"t": 0.1333, "stroke": 7, "x": 30, "y": 40, "pressure": 0.9}

            {"t": 0.1667, "stroke": 7, "x": 12, "y": 38}
            {"t": 0.2, "stroke": 7, "x": 5, "y": 30}
            {"t": 0.2, "end": 7}
            """, "ev.jsonl", in: dir)
        let second = """
            {"brush": "soft", "color": "#30a0ff", "radius": 6, "points": [{"x": 60, "y": 5, "t": 0.0667, "pressure": 0.3},
             {"x": 50, "y": 20, "t": 0.1, "pressure": 0.5}, {"x": 30, "y": 40, "t": 0.1333, "pressure": 0.9},
             {"x": 12, "y": 38, "t": 0.1667}, {"x": 5, "y": 30, "t": 0.2}]}
            """
        try write("{\"maxAge\": 30, \(Self.brushes), \"draw\": [\(Self.firstStroke), \(second)]}", "both.json", in: dir)
        var run = try TestSupport.stipple(["bake", "s.json", "--video", "in.y4m", "-o", "live.y4m", "--events", "ev.jsonl"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        run = try TestSupport.stipple(["bake", "both.json", "--video", "in.y4m", "-o", "script.y4m"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        run = try TestSupport.stipple(["bake", "s.json", "--video", "in.y4m", "-o", "none.y4m"], in: dir)
        let live = try VideoTestSupport.read(dir.appendingPathComponent("live.y4m").path).frames
        let script = try VideoTestSupport.read(dir.appendingPathComponent("script.y4m").path).frames
        let none = try VideoTestSupport.read(dir.appendingPathComponent("none.y4m").path).frames
        XCTAssertEqual(live.count, 12)
        XCTAssertEqual(live[0..<2], none[0..<2], "frames before the first event (frame 2)")
        XCTAssertEqual(live[6...], script[6...], "from the last event's frame (0.2 s: frame 6) on")
        XCTAssertNotEqual(live[6], none[6], "the events drew")
    }

    /// A FIFO that nobody writes to must not hold the video back.
    func testASilentFIFODoesNotStallTheVideo() throws {
        let dir = try folder()
        let fifo = dir.appendingPathComponent("events").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // A writer that opens the FIFO and says nothing for 20 s.
        let silent = Process()
        silent.executableURL = URL(fileURLWithPath: "/bin/sh")
        silent.arguments = ["-c", "exec sleep 20 > '\(fifo)'"]
        try silent.run()
        defer { silent.end() }
        let start = Date()
        let run = try TestSupport.stipple(["bake", "s.json", "--video", "in.y4m", "-o", "fifo.y4m", "--events", fifo], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(start), 10, "the bake did not wait for events")
        XCTAssertEqual(try VideoTestSupport.read(dir.appendingPathComponent("fifo.y4m").path).frames.count, 12)
    }

    func testBadEventsNameFileAndLine() throws {
        let dir = try folder()
        let cases: [(String, String)] = [
            ("{\"t\": 0.5, \"stroke\": 1, \"x\": 1, \"y\": 1, \"brush\": \"soft\"}\n{\"t\": 0.2, \"stroke\": 1, \"x\": 2, \"y\": 2}",
             "e.jsonl:2:7: events out of order: t = 0.2 s comes after an event at t = 0.5 s"),
            ("{\"t\": 0, \"stroke\": 1, \"x\": 1 \"y\": 1}", "e.jsonl:1:30: expected ',' or '}'"),
            ("{\"t\": 0, \"stroke\": 1, \"x\": 1, \"y\": 1}", "e.jsonl:1:1: stroke 1's first event must name its \"brush\""),
            ("{\"t\": 0, \"stroke\": 1, \"x\": 1, \"y\": 1, \"brush\": \"pen\"}", "e.jsonl:1:48: unknown brush \"pen\""),
            ("{\"t\": 0, \"stroke\": 1, \"x\": 1, \"y\": 1, \"brush\": \"soft\"}\n{\"t\": 0, \"stroke\": 1, \"x\": 1, \"y\": 1, \"radius\": 3}",
             "e.jsonl:2:39: \"radius\" belongs on stroke 1's first event"),
            ("\n\n{\"t\": 0, \"end\": 4}", "e.jsonl:3:17: stroke 4 is not open"),
            ("{\"t\": 0, \"stroke\": 1, \"x\": 1, \"y\": 1, \"brush\": \"soft\", \"colour\": \"#fff\"}",
             "e.jsonl:1:56: unknown key \"colour\" in a touch event"),
        ]
        for (text, expected) in cases {
            try write(text, "e.jsonl", in: dir)
            let run = try TestSupport.stipple(
                ["bake", "s.json", "--video", "in.y4m", "-o", "o.y4m", "--events", "e.jsonl"], in: dir)
            XCTAssertEqual(run.status, 2, run.stderr)
            XCTAssertTrue(run.stderr.hasPrefix("stipple: error: \(expected)"), "expected \(expected): \(run.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("o.y4m").path))
        }
    }
}
