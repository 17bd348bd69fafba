import XCTest
@testable import Stipple

/// `render --frames` in tiles writes the same files, byte for byte, as the one-pass run:
/// ages, undo and clear entries, and a sliver of a tile at the edge included. A failed
/// tiled run leaves no file.
final class TiledFramesTests: XCTestCase {
    private func stroke(_ x: Int, _ colour: String, t: Double) -> String {
        #"{ "brush": "soft", "color": "\#(colour)", "radius": 7, "points": [ { "x": \#(x), "y": 8, "t": \#(t) }, { "x": \#(x + 30), "y": 52, "t": \#(t + 0.2) } ] }"#
    }

    func testTiledFramesAreTheOnePassFiles() throws {
        let dir = try TestSupport.temporaryDirectory(self, "tiled-frames")
        let script = dir.appendingPathComponent("s.json").path
        try """
            { "canvas": { "width": 91, "height": 61, "background": "#101014" }, "fps": 10, "maxAge": 30,
              "brushes": { "soft": { "builtin": "soft-round", "size": 16 } },
              "draw": [\(stroke(5, "#ff0000", t: 0)), { "undo": 1, "t": 0.6 }, \(stroke(40, "#00ff00", t: 0.3)),
                       { "clear": true, "t": 1.5 }, \(stroke(60, "#0000ff", t: 1.6))] }
            """.write(toFile: script, atomically: true, encoding: .utf8)
        let whole = dir.appendingPathComponent("whole").path, tiled = dir.appendingPathComponent("tiled").path
        var run = try TestSupport.stipple(["render", script, "--frames", "0...20", "-o", whole])
        XCTAssertEqual(run.status, 0, run.stderr)
        run = try TestSupport.stipple(["render", script, "--frames", "0...20", "-o", tiled, "--tile", "30"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("21 frames"), run.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: whole).sorted()
        XCTAssertEqual(names.count, 21)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tiled).sorted(), names)
        for name in names {
            let a = try Data(contentsOf: URL(fileURLWithPath: whole).appendingPathComponent(name))
            let b = try Data(contentsOf: URL(fileURLWithPath: tiled).appendingPathComponent(name))
            XCTAssertEqual(a, b, name)
        }
        // Existing frames are refused without --overwrite, and nothing of this run is left.
        run = try TestSupport.stipple(["render", script, "--frames", "0...20", "-o", tiled, "--tile", "30"])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tiled).sorted(), names)
    }

    func testTooManyTilesAreRefusedAndNothingIsWritten() throws {
        let dir = try TestSupport.temporaryDirectory(self, "tiles-too-many")
        let script = dir.appendingPathComponent("s.json").path
        try #"{ "canvas": { "width": 65536, "height": 65536 } }"#.write(toFile: script, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out.png").path
        let run = try TestSupport.stipple(["render", script, "-o", out, "--tile", "16"])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("16777216 tiles; at most 1048576 are drawn: give a larger --tile"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testTileSideBelowOneIsRefused() throws {
        let run = try TestSupport.stipple(["render", "x.json", "-o", "x.png", "--tile", "0"])
        XCTAssertEqual(run.status, 64, run.stderr)
        XCTAssertTrue(run.stderr.contains("tile side of at least 1 pixel"), run.stderr)
        let video = try TestSupport.stipple(["render", "x.json", "-o", "x.y4m", "--frames", "0...1", "--tile", "64"])
        XCTAssertEqual(video.status, 64, video.stderr)
        XCTAssertTrue(video.stderr.contains("a video's frames are drawn whole"), video.stderr)
    }
}
