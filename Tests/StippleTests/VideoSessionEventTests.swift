import Foundation
import XCTest
@testable import Stipple

/// Undo, redo and clear events in a bake act as the same entries in the script: a bake with
/// live strokes and session events equals, frame for frame, the script that has them all.
final class VideoSessionEventTests: XCTestCase {
    static let base = """
        {"brush": "dot", "color": "#ffffff", "radius": 4,
         "points": [{"x": 5, "y": 5, "t": 0}, {"x": 40, "y": 30, "t": 0.2}]}
        """
    static let events = """
        {"t": 0.3, "stroke": 7, "x": 10, "y": 25, "brush": "dot", "color": "#ff3b30", "radius": 3}
        {"t": 0.4, "stroke": 7, "x": 42, "y": 6}
        {"t": 0.5, "end": 7}
        {"t": 0.6, "undo": 2}
        {"t": 0.8, "redo": 1}
        {"t": 1.0, "clear": true}
        {"t": 1.2, "undo": 1}

        """
    /// The same strokes and entries, written in the script.
    static let scripted = """
        {"brush": "dot", "color": "#ff3b30", "radius": 3,
         "points": [{"x": 10, "y": 25, "t": 0.3}, {"x": 42, "y": 6, "t": 0.4}]},
        {"undo": 2, "t": 0.6}, {"redo": 1, "t": 0.8}, {"clear": true, "t": 1.0}, {"undo": 1, "t": 1.2}
        """

    func script(_ draw: String) -> String {
        "{\"brushes\": {\"dot\": {\"builtin\": \"hard-round\"}}, \"draw\": [\(draw)]}"
    }

    func testSessionEventsEqualTheScriptedEntries() throws {
        _ = try VideoTestSupport.requireFFmpeg()
        let dir = try TestSupport.temporaryDirectory(self, "bake-session-events")
        try script(Self.base).write(to: dir.appendingPathComponent("live.json"), atomically: true, encoding: .utf8)
        try script(Self.base + "," + Self.scripted).write(to: dir.appendingPathComponent("all.json"),
                                                           atomically: true, encoding: .utf8)
        try Self.events.write(to: dir.appendingPathComponent("e.jsonl"), atomically: true, encoding: .utf8)
        try VideoTestSupport.makeVideo(dir.appendingPathComponent("in.y4m").path, width: 48, height: 32, frames: 15, rate: 10)
        var run = try TestSupport.stipple(["bake", "live.json", "--video", "in.y4m", "--events", "e.jsonl", "-o", "a.y4m"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        run = try TestSupport.stipple(["bake", "all.json", "--video", "in.y4m", "-o", "b.y4m"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        let live = try VideoTestSupport.read(dir.appendingPathComponent("a.y4m").path).frames
        let scripted = try VideoTestSupport.read(dir.appendingPathComponent("b.y4m").path).frames
        let input = try VideoTestSupport.read(dir.appendingPathComponent("in.y4m").path).frames
        XCTAssertEqual(live.count, 15)
        // While the live stroke is drawn (frames 3 and 4) its newest stamps wait for the next
        // sample; from its end event's frame on it is the scripted stroke.
        for n in Array(0..<3) + Array(5..<15) { XCTAssertTrue(live[n] == scripted[n], "frame \(n)") }
        XCTAssertTrue(live[6] == input[6], "both strokes undone at frame 6")
        XCTAssertTrue(live[8] != input[8], "one redone at frame 8")
        XCTAssertTrue(live[10] == input[10], "cleared at frame 10")
        XCTAssertTrue(live[12] != input[12], "the clear undone at frame 12")
    }

    func testBadSessionEventsNameTheirLineAndColumn() throws {
        let dir = try TestSupport.temporaryDirectory(self, "bake-session-events-bad")
        try script(Self.base).write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        try VideoTestSupport.makeVideo(dir.appendingPathComponent("in.y4m").path, width: 48, height: 32, frames: 3, rate: 10)
        let cases: [(String, String)] = [
            ("{\"t\": 0.1, \"undo\": 1}\n{\"t\": 0.2, \"undo\": 0}\n", "e.jsonl:2:20:"),
            ("{\"t\": 0.1, \"undo\": 1}\n{\"t\": 0.2, \"undo\": 1}\n", "e.jsonl:2:20: undo 1 at t = 0.2 s (frame 2) has nothing to undo"),
            ("{\"t\": 0.1, \"redo\": 1}\n", "e.jsonl:1:20: redo 1"),
            ("{\"t\": 0.1, \"clear\": 1}\n", "e.jsonl:1:21:"),
            ("{\"t\": 0.1, \"undo\": 1, \"clear\": true}\n", "e.jsonl:1:23:"),
        ]
        for (events, expected) in cases {
            try events.write(to: dir.appendingPathComponent("e.jsonl"), atomically: true, encoding: .utf8)
            let run = try TestSupport.stipple(["bake", "s.json", "--video", "in.y4m", "--events", "e.jsonl", "-o", "o.y4m"], in: dir)
            XCTAssertNotEqual(run.status, 0, events)
            XCTAssertTrue(run.stderr.contains(expected), "\(events): \(run.stderr)")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        }
    }
}
