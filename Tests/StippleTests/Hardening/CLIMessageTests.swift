import Foundation
import Stipple
import XCTest

/// What the command line says when a user slips: the unknown command named, a video
/// asked for without frames explained, a range past a video's end refused, and every count
/// with its noun in agreement.
final class CLIMessageTests: XCTestCase {
    private func folder(_ name: String) throws -> CLIFolder {
        let f = try CLIFolder(self, name)
        try f.write("one.json", #"{"canvas": {"width": 8, "height": 8}, "brushes": {"s": {"builtin": "hard-round"}}, "draw": [{"brush": "s", "stamps": [[4, 4, 2, 0, 0, 1, 0, 0, 1]]}]}"#)
        return f
    }

    func testAnUnknownCommandIsNamedWithTheNearestOne() throws {
        let f = try folder("unknown-command")
        try f.assertRefused(["rendr", "one.json", "-o", "x.png"], status: 64,
                            saysAll: ["Unknown command 'rendr'; did you mean 'render'?", "stipple --help"])
        try f.assertRefused(["comapre", "a.png", "b.png"], status: 64, saysAll: ["Unknown command 'comapre'; did you mean 'compare'?"])
        try f.assertRefused(["paint", "one.json"], status: 64, saysAll: ["Unknown command 'paint'", "render, stamps"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: f.path("x.png")))
    }

    func testAVideoWithoutFramesSaysVideoNeedsFrames() throws {
        let f = try folder("video-needs-frames")
        for output in ["x.mp4", "x.y4m", "x.webm", "-"] {
            try f.assertRefused(["render", "one.json", "-o", output], saysAll: ["a video is a range of frames: give --frames A...B"])
        }
    }

    func testBakeFramesPastTheVideosEndAreRefused() throws {
        let f = try folder("bake-past-end")
        try NumberInputTests.video(frames: 30, side: 8).write(to: URL(fileURLWithPath: f.path("in.y4m")))
        try f.assertRefused(["bake", "one.json", "--video", "in.y4m", "-o", "out.y4m", "--frames", "25...40"],
                            saysAll: ["in.y4m: has 30 frames (0...29), and --frames 25...40 goes past its last frame"])
        // A stream's length is known only when it ends: the error then, and no output left.
        let run = try TestSupport.run("/bin/sh", ["-c", #"exec "$0" "$@" < in.y4m"#, TestSupport.stippleBinary.path,
                                                  "bake", "one.json", "--video", "-", "-o", "piped.y4m", "--frames", "25...40"],
                                      in: f.dir)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("stdin: has 30 frames (0...29), and --frames 25...40 goes past its last frame"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: f.path("piped.y4m")))
        // Past the end altogether: the count is still the stream's own.
        let far = try TestSupport.run("/bin/sh", ["-c", #"exec "$0" "$@" < in.y4m"#, TestSupport.stippleBinary.path,
                                                  "bake", "one.json", "--video", "-", "-o", "far.y4m", "--frames", "40...45"],
                                      in: f.dir)
        XCTAssertTrue(far.stderr.contains("stdin: has 30 frames (0...29), and --frames 40...45 goes past"), far.stderr)
        try Data("YUV4MPEG2 W8 H8 F30:1 Ip A1:1 C420jpeg\n".utf8).write(to: URL(fileURLWithPath: f.path("empty.y4m")))
        try f.assertRefused(["bake", "one.json", "--video", "empty.y4m", "-o", "out.y4m", "--frames", "0...3"],
                            saysAll: ["empty.y4m: has no frames, and --frames 0...3 goes past its last frame"])
        let inside = try f.run(["bake", "one.json", "--video", "in.y4m", "-o", "ok.y4m", "--frames", "25...29"])
        XCTAssertEqual(inside.status, 0, inside.stderr)
    }

    func testCountsAgreeWithTheirNouns() throws {
        let f = try folder("plurals")
        let stamps = try f.run(["stamps", "one.json", "-o", "one.sketchpoints"])
        XCTAssertTrue(stamps.stderr.contains("1 stamp at frame 0 (36 bytes)"), stamps.stderr)
        let convert = try f.run(["convert", "one.sketchpoints", "-o", "one-again.json"])
        XCTAssertTrue(convert.stderr.contains(": 1 stamp from"), convert.stderr)
        let describe = try f.run(["describe", "one.json"])
        XCTAssertTrue(describe.stdout.contains("1 frame from 0"), describe.stdout + describe.stderr)
        try f.write("offset.json", #"{"canvas": {"width": 8, "height": 8}, "brushes": {"s": {"builtin": "hard-round"}}, "draw": [{"brush": "s", "stamps": [], "shadow": {"offset": [1]}}]}"#)
        try f.assertRefused(["render", "offset.json", "-o", "x.png"], saysAll: ["found 1 item"])
        try f.write("short.json", #"{"canvas": {"width": 8, "height": 8}, "brushes": {"s": {"builtin": "hard-round"}}, "draw": [{"brush": "s", "stamps": [[1]]}]}"#)
        try f.assertRefused(["render", "short.json", "-o", "x.png"], saysAll: ["stamp 1 has 1 number; expected 9"])
        let png = try f.run(["render", "one.json", "-o", "a.png"])
        XCTAssertEqual(png.status, 0, png.stderr)
        let compare = try f.run(["compare", "a.png", "a.png", "--max-pixels", "1"])
        XCTAssertTrue(compare.stdout.contains("allowed 1 pixel over"), compare.stdout)
        for text in [stamps.stderr, convert.stderr, describe.stdout, compare.stdout] {
            XCTAssertNil(text.range(of: #"\b1 (stamps|frames|items|numbers|pixels|bytes|cases)\b"#, options: .regularExpression), text)
        }
    }

    func testCompareClampsEachSideOfTheWindowToTheImage() throws {
        let f = try folder("window")
        let black = Image(width: 40, height: 10, pixels: [UInt8](repeating: 0, count: 40 * 10 * 4).enumerated().map { $0.offset % 4 == 3 ? 255 : 0 })
        let white = Image(width: 40, height: 10, pixels: [UInt8](repeating: 255, count: 40 * 10 * 4))
        try PNGFile.write(black, to: f.path("black.png"))
        try PNGFile.write(white, to: f.path("white.png"))
        let run = try f.run(["compare", "black.png", "white.png", "--window", "40", "--max-pixels", "100"])
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("at most 400 in any 40×40 window"), run.stdout)
        let narrow = try f.run(["compare", "black.png", "white.png", "--window", "5"])
        XCTAssertTrue(narrow.stdout.contains("at most 25 in any 5×5 window"), narrow.stdout)
    }
}
