import Foundation
import Stipple
import XCTest

/// What `render` and `stamps` write, and what they refuse: the output's kind comes from its
/// extension (nothing is written in a format other than the one the name says), --frames
/// says which form it wants, a folder of older frames is refused unless --clean, and a
/// command that wrote a file says so in one line on stderr, leaving stdout empty.
final class CLIOutputTests: XCTestCase {
    private var dir: URL!

    /// Two stamps, the second born at frame 4; maxAge 10: frames 0...13 show a stamp.
    let script = """
        { "canvas": { "width": 32, "height": 24, "background": "#101014" }, "maxAge": 10,
          "brushes": { "dot": { "builtin": "hard-round", "size": 16 } },
          "draw": [ { "brush": "dot", "stamps": [[8, 8, 4, 0, 0, 1, 0, 0, 1], [20, 12, 5, -4, 0, 0, 1, 0, 1]] } ] }
        """

    override func setUpWithError() throws {
        dir = try TestSupport.temporaryDirectory(self, "cli-output")
        try script.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
    }

    private func stipple(_ args: [String]) throws -> TestSupport.Run {
        try TestSupport.stipple(args, in: dir)
    }

    private func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path)
    }

    func testRenderRefusesAnOutputThatIsNotPNG() throws {
        for name in ["x.jpg", "x.webp", "x"] {
            let run = try stipple(["render", "s.json", "-o", name])
            XCTAssertEqual(run.status, 2, run.stderr)
            XCTAssertTrue(run.stderr.contains("render writes .png images"), run.stderr)
            XCTAssertFalse(exists(name), "\(name) must not be written")
        }
    }

    func testFramesIntoAPNGNameIsRefusedNotAFolderNamedPNG() throws {
        let run = try stipple(["render", "s.json", "-o", "r6.png", "--frames", "0...2"])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("give a folder (e.g. -o r6/)"), run.stderr)
        XCTAssertFalse(exists("r6.png"))
    }

    func testFramesSaysWhichFormItWants() throws {
        let cases = ["3": "for frame 3 alone: --frames 3...3, or --frame 3", "0..3": #"".." is not "...""#,
                     "5...2": "5 is after 2: did you mean 2...5?", "-1...2": "frames start at 0"]
        for (value, why) in cases {
            let run = try stipple(["render", "s.json", "-o", "f", "--frames", value])
            XCTAssertEqual(run.status, 64, run.stderr)
            XCTAssertTrue(run.stderr.contains("A...B with three dots and A ≤ B"), run.stderr)
            XCTAssertTrue(run.stderr.contains(why), "\(value): \(run.stderr)")
            XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1)
        }
    }

    func testOlderFramesAreRefusedUnlessClean() throws {
        XCTAssertEqual(try stipple(["render", "s.json", "-o", "f", "--frames", "0...5"]).status, 0)
        let refused = try stipple(["render", "s.json", "-o", "f", "--frames", "0...2"])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("holds 3 frames outside 0...2 from an earlier render "
                                              + "(frame-0003.png … frame-0005.png); add --clean"), refused.stderr)
        // Frames 0...2 exist: replacing them takes --overwrite (a render never replaces a file
        // it did not write in this run), and the older ones outside take --clean.
        let kept = try stipple(["render", "s.json", "-o", "f", "--frames", "0...2", "--clean"])
        XCTAssertEqual(kept.status, 2)
        XCTAssertTrue(kept.stderr.contains("f/frame-0000.png: exists"), kept.stderr)
        let clean = try stipple(["render", "s.json", "-o", "f", "--frames", "0...2", "--clean", "--overwrite"])
        XCTAssertEqual(clean.status, 0, clean.stderr)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("f").path).sorted()
        XCTAssertEqual(left, ["frame-0000.png", "frame-0001.png", "frame-0002.png"])
        XCTAssertTrue(clean.stderr.contains("removed 3 older frames"), clean.stderr)
        // A range inside what is there: older frames outside it are refused; frames in it need --overwrite.
        XCTAssertEqual(try stipple(["render", "s.json", "-o", "f", "--frames", "1...2"]).status, 2)
        XCTAssertEqual(try stipple(["render", "s.json", "-o", "f", "--frames", "0...2"]).status, 2)
        XCTAssertEqual(try stipple(["render", "s.json", "-o", "f", "--frames", "0...2", "--overwrite"]).status, 0)
    }

    func testRenderSaysWhatItWroteOnStderr() throws {
        let one = try stipple(["render", "s.json", "-o", "one.png", "--frame", "5"])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertEqual(one.stdout, "")
        XCTAssertEqual(one.stderr, "one.png: frame 5 of s.json, 32×24, 2 stamps, points\n")
        let many = try stipple(["render", "s.json", "-o", "fr", "--frames", "0...13"])
        XCTAssertEqual(many.stdout, "")
        XCTAssertEqual(many.stderr, "fr: 14 frames (frame-0000.png … frame-0013.png) of s.json, 32×24, points\n")
    }

    func testStampsWritesJSONForJSONAndRefusesOtherNames() throws {
        let json = try stipple(["stamps", "s.json", "--frame", "5", "-o", "live.json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertEqual(json.stdout, "")
        XCTAssertTrue(json.stderr.hasPrefix("live.json: 2 stamps at frame 5"), json.stderr)
        let text = try String(contentsOf: dir.appendingPathComponent("live.json"), encoding: .utf8)
        XCTAssertEqual(text, "[\n  [8, 8, 4, 5, 0, 1, 0, 0, 1],\n  [20, 12, 5, 1, 0, 0, 1, 0, 1]\n]\n")
        XCTAssertEqual(try stipple(["stamps", "s.json", "--frame", "5", "-o", "live.sketchpoints"]).status, 0)
        // The JSON converts to the same bytes as the binary the command writes.
        XCTAssertEqual(try stipple(["convert", "live.json", "-o", "back.sketchpoints"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("back.sketchpoints")),
                       try Data(contentsOf: dir.appendingPathComponent("live.sketchpoints")))
        let txt = try stipple(["stamps", "s.json", "-o", "s.txt"])
        XCTAssertEqual(txt.status, 2)
        XCTAssertTrue(txt.stderr.contains("stamps files end in .json or .sketchpoints"), txt.stderr)
        XCTAssertFalse(exists("s.txt"))
    }
}
