import Foundation
import Stipple
import XCTest

/// The small commands a first hour needs: `describe` (how long a script runs), `convert`
/// (JSON stamps ⇄ .sketchpoints), `brush` (a built-in brush as a PNG), and `info`'s version.
final class CLIToolsTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try TestSupport.temporaryDirectory(self, "cli-tools")
    }

    private func write(_ name: String, _ text: String) throws {
        try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    func testDescribeGivesTheFirstAndLastFrames() throws {
        // Born at 2 and at 7 (age −6.5 → first frame with age ≥ 0 is 7); maxAge 10: the second
        // dies at frame 17 (age 10.5 ≥ 10 from frame 17: 16 + (−6.5) = 9.5 is still live).
        try write("s.json", """
            { "canvas": { "width": 32, "height": 24 }, "fps": 10, "maxAge": 10,
              "brushes": { "dot": { "builtin": "hard-round" } },
              "draw": [ { "brush": "dot", "stamps": [[8, 8, 4, -2, 0, 1, 0, 0, 1], [20, 12, 5, -6.5, 0, 0, 1, 0, 1]] } ] }
            """)
        let run = try TestSupport.stipple(["describe", "s.json"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("first frame  2 "), run.stdout)
        XCTAssertTrue(run.stdout.contains("last frame   16 "), run.stdout)
        XCTAssertTrue(run.stdout.contains("stipple render s.json -o frames/ --frames 0...16"), run.stdout)
        let json = try TestSupport.stipple(["describe", "s.json", "--json"], in: dir)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["firstFrame"] as? Int, 2)
        XCTAssertEqual(object["lastFrame"] as? Int, 16)
        XCTAssertEqual(object["stamps"] as? Int, 2)
        XCTAssertEqual(object["seconds"] as? Double, 1.7)
        // Frame 16 shows a stamp and frame 17 none: describe's frames are the ones that matter.
        let live16 = try TestSupport.stipple(["stamps", "s.json", "--frame", "16", "-o", "a.json"], in: dir)
        XCTAssertTrue(live16.stderr.contains(": 1 stamp at frame 16"), live16.stderr)
        let live17 = try TestSupport.stipple(["stamps", "s.json", "--frame", "17", "-o", "b.json"], in: dir)
        XCTAssertTrue(live17.stderr.contains(": 0 stamps at frame 17"), live17.stderr)
    }

    /// A script without a canvas is baked over a video: `describe --video` reads the video's
    /// header for its size and fps, as the bake does, and names the bake that draws it; it
    /// counts a y4m file's frames from its size and says when the script outlasts them.
    func testDescribeTakesABakedScriptsCanvasFromTheVideo() throws {
        try write("sketch.json", """
            { "maxAge": 0, "brushes": { "dot": { "builtin": "hard-round" } },
              "draw": [ { "brush": "dot", "stamps": [[8, 8, 4, -3, 0, 1, 0, 0, 1]] } ] }
            """)
        func video(_ name: String, frames: Int) throws {
            var video = Data("YUV4MPEG2 W48 H32 F25:1 Ip C420jpeg\n".utf8)
            for _ in 0..<frames {
                video.append(Data("FRAME\n".utf8))
                video.append(Data(repeating: 128, count: 48 * 32 * 3 / 2))
            }
            try video.write(to: dir.appendingPathComponent(name))
        }
        try video("in.y4m", frames: 5)
        let run = try TestSupport.stipple(["describe", "sketch.json", "--video", "in.y4m"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("video        in.y4m: 48×32 4:2:0, F25:1, 5 frames (0.20 s)"), run.stdout)
        XCTAssertFalse(run.stdout.contains("past the video"), run.stdout)
        XCTAssertTrue(run.stdout.contains("canvas       48×32, the video's"), run.stdout)
        XCTAssertTrue(run.stdout.contains("fps          25"), run.stdout)
        XCTAssertTrue(run.stdout.contains("first frame  3 "), run.stdout)
        XCTAssertTrue(run.stdout.contains("stipple bake sketch.json --video in.y4m -o out.y4m"), run.stdout)
        let json = try TestSupport.stipple(["describe", "sketch.json", "--video", "in.y4m", "--json"], in: dir)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["width"] as? Int, 48)
        XCTAssertEqual(object["fps"] as? Double, 25)
        XCTAssertEqual(object["video"] as? String, "in.y4m")
        XCTAssertEqual(object["videoFrames"] as? Int, 5)
        // A video shorter than the script: the bake stops with it, and describe says so. The
        // stamp is born at frame 3: a video of 2 frames shows none of it, one of 4 its birth.
        try video("short.y4m", frames: 2)
        let short = try TestSupport.stipple(["describe", "sketch.json", "--video", "short.y4m"], in: dir)
        XCTAssertEqual(short.status, 0, short.stderr)
        XCTAssertTrue(short.stdout.contains("2 frames (0.08 s)"), short.stdout)
        XCTAssertTrue(short.stdout.contains("past the video  the video ends at frame 1, before the first stamp is born: "
                                            + "a bake draws none of the script"), short.stdout)
        try video("four.y4m", frames: 4)
        let four = try TestSupport.stipple(["describe", "sketch.json", "--video", "four.y4m"], in: dir)
        XCTAssertFalse(four.stdout.contains("past the video"), four.stdout)
        // A second stamp born at frame 6, after the 5-frame video's last.
        try write("two.json", """
            { "maxAge": 0, "brushes": { "dot": { "builtin": "hard-round" } },
              "draw": [ { "brush": "dot", "stamps": [[8, 8, 4, -3, 0, 1, 0, 0, 1], [20, 8, 4, -6, 0, 1, 0, 0, 1]] } ] }
            """)
        let two = try TestSupport.stipple(["describe", "two.json", "--video", "in.y4m"], in: dir)
        XCTAssertTrue(two.stdout.contains("past the video  the video ends at frame 4: a bake draws no frame after it"),
                      two.stdout)

        // Without the video the script has no size, and the error says where it comes from.
        let alone = try TestSupport.stipple(["describe", "sketch.json"], in: dir)
        XCTAssertEqual(alone.status, 2)
        XCTAssertTrue(alone.stderr.contains("a script baked over a video may leave it out: stipple bake, or describe --video"),
                      alone.stderr)
        // The bake's own checks hold: a canvas of another size is refused.
        try write("sized.json", #"{ "canvas": { "width": 64, "height": 32 }, "draw": [] }"#)
        let sized = try TestSupport.stipple(["describe", "sized.json", "--video", "in.y4m"], in: dir)
        XCTAssertEqual(sized.status, 2)
        XCTAssertTrue(sized.stderr.contains("the canvas is 64×32 but the video in.y4m is 48×32"), sized.stderr)
    }

    /// Render frame n is clock frame n + startFrame: describe, `--frames all` and `stamps`
    /// agree on which render frames show the stamp.
    func testDescribeAndFramesAllCountFromTheStartFrame() throws {
        // A tap at t = 0.5 s (clock frame 15 at 30 fps), alive 20 frames: clock 15...34.
        func script(_ start: Int) -> String {
            #"{"canvas":{"width":16,"height":16},"startFrame":\#(start),"maxAge":20,"brushes":{"s":{"builtin":"soft-round"}},"draw":[{"brush":"s","points":[{"x":8,"y":8,"t":0.5}]}]}"#
        }
        try write("s10.json", script(10))
        let run = try TestSupport.stipple(["describe", "s10.json", "--json"], in: dir)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stderr)
        XCTAssertEqual(object["firstFrame"] as? Int, 5)
        XCTAssertEqual(object["lastFrame"] as? Int, 24)
        for (frame, live) in [(4, 0), (5, 1), (24, 1), (25, 0)] {
            let stamps = try TestSupport.stipple(["stamps", "s10.json", "--frame", "\(frame)", "-o", "f\(frame).json"], in: dir)
            XCTAssertTrue(stamps.stderr.contains(": \(live) stamp\(live == 1 ? "" : "s") at frame \(frame)"), stamps.stderr)
        }
        let all = try TestSupport.stipple(["render", "s10.json", "--frames", "all", "-o", "frames"], in: dir)
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("frames").path)
                        .filter { $0.hasSuffix(".png") }.count, 25, "frames 0...24")
        // From clock frame 100 the stamp is long dead: nothing shows.
        try write("s100.json", script(100))
        let dead = try TestSupport.stipple(["describe", "s100.json", "--json"], in: dir)
        let deadObject = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(dead.stdout.utf8)) as? [String: Any], dead.stderr)
        XCTAssertNil(deadObject["firstFrame"], dead.stdout)
    }

    func testDescribeOfStampsThatNeverDie() throws {
        try write("s.json", """
            { "canvas": { "width": 8, "height": 8 }, "brushes": { "dot": { "builtin": "hard-round" } },
              "draw": [ { "brush": "dot", "stamps": [[4, 4, 2, -3, 0, 1, 0, 0, 1]] } ] }
            """)
        let run = try TestSupport.stipple(["describe", "s.json"], in: dir)
        XCTAssertTrue(run.stdout.contains("last frame   3 (nothing changes after it)"), run.stdout)
    }

    func testConvertChecksJSONStampsWhereTheyAreWrong() throws {
        try write("bad.json", "[\n  [1, 2, 3, 0, 0, 1, 1, 1, 1],\n  [1, 2, -3, 0, 0, 1, 1, 1, 1]\n]\n")
        let run = try TestSupport.stipple(["convert", "bad.json", "-o", "out.sketchpoints"], in: dir)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr, "stipple: error: bad.json:3:10: negative radius -3 in stamp 2, expected 0 or more\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.sketchpoints").path))
        let same = try TestSupport.stipple(["convert", "bad.json", "-o", "bad.json"], in: dir)
        XCTAssertEqual(same.status, 2)
        XCTAssertTrue(same.stderr.contains("refusing to overwrite the file being converted"), same.stderr)
    }

    /// An exported brush draws exactly as the built-in one: the PNG's alpha is its coverage.
    func testAnExportedBrushDrawsLikeTheBuiltIn() throws {
        let export = try TestSupport.stipple(["brush", "soft-round", "--size", "32", "-o", "soft.png"], in: dir)
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertEqual(export.stderr, "soft.png: soft-round brush, 32×32\n")
        for (name, brush) in [("file", "\"soft.png\""), ("builtin", #"{ "builtin": "soft-round", "size": 32 }"#)] {
            try write("\(name).json", """
                { "canvas": { "width": 48, "height": 32, "background": "#202020" },
                  "brushes": { "b": \(brush) },
                  "draw": [ { "brush": "b", "stamps": [[16, 16, 12, 0, 0, 1, 0.5, 0, 0.8], [30, 14, 9, 0, 0, 0, 0.5, 1, 1]] } ] }
                """)
            XCTAssertEqual(try TestSupport.stipple(["render", "\(name).json", "-o", "\(name).png"], in: dir).status, 0)
        }
        let a = try PNGFile.read(path: dir.appendingPathComponent("file.png").path).image
        let b = try PNGFile.read(path: dir.appendingPathComponent("builtin.png").path).image
        XCTAssertEqual(a, b)
        let bad = try TestSupport.stipple(["brush", "fuzzy", "-o", "x.png"], in: dir)
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("fuzzy"), bad.stderr)
    }

    func testInfoHasAVersionAndJSONKeepsSlashes() throws {
        let text = try TestSupport.stipple(["info"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.hasPrefix("stipple           \(StippleVersion.string)\n"), text.stdout)
        XCTAssertTrue(text.stdout.range(of: #"llvmpipe threads  \d+ "#, options: .regularExpression) != nil, text.stdout)
        let json = try TestSupport.stipple(["info", "--json"])
        XCTAssertFalse(json.stdout.contains("\\/"), json.stdout)
        XCTAssertTrue(json.stdout.contains("Mesa/X.org") || !json.stdout.contains("Mesa"), json.stdout)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["version"] as? String, StippleVersion.string)
        XCTAssertNotNil(object["llvmpipeThreads"] as? Int)
    }

    /// LP_NUM_THREADS is llvmpipe's alone: on another driver (softpipe here, a GPU's elsewhere)
    /// `info` and the bench's header do not claim llvmpipe threads.
    func testLlvmpipeThreadsOnlyWhereLlvmpipeRenders() throws {
        let softpipe = ["GALLIUM_DRIVER": "softpipe"]
        let text = try TestSupport.stipple(["info"], environment: softpipe)
        XCTAssertEqual(text.status, 0, text.stderr)
        try XCTSkipUnless(text.stdout.contains("renderer          softpipe"), "softpipe is not installed: \(text.stdout)")
        XCTAssertTrue(text.stdout.contains("llvmpipe threads  none (the renderer is not llvmpipe)\n"), text.stdout)
        let json = try TestSupport.stipple(["info", "--json"], environment: softpipe)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertTrue(object["llvmpipeThreads"] is NSNull, json.stdout)
        let bench = try TestSupport.stipple(["bench", "--quick", "--scenario", "upload"], environment: softpipe)
        XCTAssertEqual(bench.status, 0, bench.stderr)
        let header = String(bench.stdout.split(separator: "\n").first ?? "")
        XCTAssertTrue(header.hasPrefix("stipple bench: softpipe"), header)
        XCTAssertFalse(header.contains("llvmpipe threads"), header)
    }
}
