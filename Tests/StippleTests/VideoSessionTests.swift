import Foundation
import XCTest
@testable import Stipple

/// A script's undo entries act in a bake as in a render: from the undo's frame on, the
/// stroke is gone, and the frames come out exactly as the input video.
final class VideoSessionTests: XCTestCase {
    func testAnUndoneStrokeLeavesTheVideoAsItWas() throws {
        _ = try VideoTestSupport.requireFFmpeg()
        let dir = try TestSupport.temporaryDirectory(self, "bake-undo")
        let script = """
            {"brushes": {"dot": {"builtin": "hard-round"}},
             "draw": [{"brush": "dot", "color": "#ffffff", "radius": 4,
                       "points": [{"x": 5, "y": 5, "t": 0}, {"x": 40, "y": 30, "t": 0.05}]},
                      {"undo": 1, "t": 0.2}]}
            """
        try script.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        try VideoTestSupport.makeVideo(dir.appendingPathComponent("in.y4m").path, width: 48, height: 32, frames: 10)
        let run = try TestSupport.stipple(["bake", "s.json", "--video", "in.y4m", "-o", "out.y4m"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        let input = try VideoTestSupport.read(dir.appendingPathComponent("in.y4m").path)
        let output = try VideoTestSupport.read(dir.appendingPathComponent("out.y4m").path)
        XCTAssertEqual(output.frames.count, 10)
        XCTAssertNotEqual(output.frames[3], input.frames[3], "the stroke is shown before its undo")
        for n in 6..<10 {
            XCTAssertEqual(output.frames[n], input.frames[n], "frame \(n), after the undo at frame 6")
        }
    }
}
