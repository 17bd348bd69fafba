import Foundation
import XCTest
@testable import Stipple

/// `--speed F`: touch times and session entries play F times faster; a render at speed 4 is
/// the render of the same script with every time divided by 4.
final class TimelapseTests: XCTestCase {
    static func script(scale: Double, startFrame: Int? = nil) -> String {
        func t(_ v: Double) -> String { String(v / scale) }
        return """
            {"canvas": {"width": 40, "height": 30}, "fps": 10, "maxAge": 30,
             \(startFrame.map { "\"startFrame\": \($0)," } ?? "")
             "brushes": {"dot": {"builtin": "hard-round"}},
             "draw": [{"brush": "dot", "color": "#ffffff", "radius": 3,
                       "points": [{"x": 4, "y": 4, "t": \(t(0))}, {"x": 36, "y": 8, "t": \(t(2))}, {"x": 20, "y": 26, "t": \(t(4))}]},
                      {"brush": "dot", "color": "#ff3b30", "radius": 2,
                       "points": [{"x": 4, "y": 26, "t": \(t(4.4))}, {"x": 36, "y": 20, "t": \(t(6))}]},
                      {"undo": 1, "t": \(t(6.8))}, {"redo": 1, "t": \(t(7.6))}, {"clear": true, "t": \(t(8.8))}]}
            """
    }

    func testSpeedPlaysTimesFasterAndAgesCountOutputFrames() throws {
        let dir = try TestSupport.temporaryDirectory(self, "timelapse")
        try Self.script(scale: 1).write(to: dir.appendingPathComponent("slow.json"), atomically: true, encoding: .utf8)
        try Self.script(scale: 4).write(to: dir.appendingPathComponent("fast.json"), atomically: true, encoding: .utf8)
        var run = try TestSupport.stipple(["render", "slow.json", "--frames", "0...24", "--speed", "4", "-o", "a.y4m"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        run = try TestSupport.stipple(["render", "fast.json", "--frames", "0...24", "-o", "b.y4m"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        run = try TestSupport.stipple(["render", "slow.json", "--frames", "0...24", "-o", "c.y4m"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        let a = try VideoTestSupport.read(dir.appendingPathComponent("a.y4m").path).frames
        let b = try VideoTestSupport.read(dir.appendingPathComponent("b.y4m").path).frames
        let c = try VideoTestSupport.read(dir.appendingPathComponent("c.y4m").path).frames
        XCTAssertTrue(a == b, "speed 4 draws what the script with times divided by 4 draws")
        XCTAssertTrue(a != c, "and not what the script at its own pace draws")
        XCTAssertTrue(a[22] == a[24] && a[22] != a[21], "cleared at 8.8 s / 4 = frame 22")
    }

    func testASavedDrawingsTimelapseStartsAtItsFirstTouch() throws {
        let dir = try TestSupport.temporaryDirectory(self, "timelapse-saved")
        try Self.script(scale: 1, startFrame: 60).write(to: dir.appendingPathComponent("saved.json"), atomically: true, encoding: .utf8)
        try Self.script(scale: 1).write(to: dir.appendingPathComponent("plain.json"), atomically: true, encoding: .utf8)
        var run = try TestSupport.stipple(["render", "saved.json", "--frames", "0...9", "--speed", "1", "-o", "a.y4m"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        run = try TestSupport.stipple(["render", "plain.json", "--frames", "0...9", "-o", "b.y4m"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(try VideoTestSupport.read(dir.appendingPathComponent("a.y4m").path).frames
                      == VideoTestSupport.read(dir.appendingPathComponent("b.y4m").path).frames)
    }

    func testBakeSpeedMatchesTheFasterScript() throws {
        _ = try VideoTestSupport.requireFFmpeg()
        let dir = try TestSupport.temporaryDirectory(self, "timelapse-bake")
        func bakeScript(_ scale: Double) -> String {
            Self.script(scale: scale).replacingOccurrences(of: "\"canvas\": {\"width\": 40, \"height\": 30}, \"fps\": 10, ", with: "")
        }
        try bakeScript(1).write(to: dir.appendingPathComponent("slow.json"), atomically: true, encoding: .utf8)
        try bakeScript(2).write(to: dir.appendingPathComponent("fast.json"), atomically: true, encoding: .utf8)
        try VideoTestSupport.makeVideo(dir.appendingPathComponent("in.y4m").path, width: 40, height: 30, frames: 20, rate: 10)
        var run = try TestSupport.stipple(["bake", "slow.json", "--video", "in.y4m", "--speed", "2", "-o", "a.y4m"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        run = try TestSupport.stipple(["bake", "fast.json", "--video", "in.y4m", "-o", "b.y4m"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(try Data(contentsOf: dir.appendingPathComponent("a.y4m")) == Data(contentsOf: dir.appendingPathComponent("b.y4m")))
    }
}
