import Foundation
import Stipple
import XCTest

/// SPEC §8 through the real command line: every bad input gives exit status 2 (64 for a
/// usage error), exactly one line on stderr naming the file, the place (line:column in a
/// script, the byte offset in a .sketchpoints file) and what was expected, and writes
/// nothing: no output, no temporary file, and an output path that already existed keeps
/// its bytes. Each case runs twice, once without the output and once over a sentinel.
final class BadInputTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try TestSupport.temporaryDirectory(self, "badinput")
    }

    // MARK: Malformed JSON

    func testMissingCommaBetweenMembers() throws {
        try write("bad.json", """
            {
              "canvas": { "width": 8, "height": 8 }
              "draw": []
            }
            """)
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: #"bad.json:3:3: expected ',' or '}' after an object member, found '"'"#)
    }

    func testMissingCommaInAStamp() throws {
        try write("bad.json", """
            {
              "canvas": { "width": 8, "height": 8 },
              "brushes": { "dot": { "builtin": "hard-round" } },
              "draw": [ { "brush": "dot", "stamps": [[4, 4, 2 0, 0, 1, 0, 0, 1]] } ]
            }
            """)
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: "bad.json:4:51: expected ',' or ']' after an array element, found '0'")
        try assertRefused(["stamps", "bad.json", "-o", "out.sketchpoints"], output: "out.sketchpoints",
                          says: "bad.json:4:51: expected ',' or ']' after an array element, found '0'")
    }

    func testUnterminatedStringAtTheEndOfALine() throws {
        try write("bad.json", """
            {
              "canvas": { "width": 8, "height": 8, "background": "#101014 }
            }
            """)
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: #"bad.json:2:54: unterminated string: no closing '"' before the end of the line (a line break inside a string is written \n)"#)
    }

    func testUnterminatedStringAtTheEndOfTheFile() throws {
        try write("bad.json", ##"{ "canvas": { "width": 8, "height": 8, "background": "#10"##)
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: #"bad.json:1:54: unterminated string: no closing '"' before the end of the file"#)
    }

    func testTrailingGarbage() throws {
        try write("bad.json", """
            { "canvas": { "width": 8, "height": 8 } }
            }
            """)
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: "bad.json:2:1: unexpected '}' after the JSON value; expected the end of the file")
    }

    func testEmptyFile() throws {
        try write("bad.json", "")
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: "bad.json:1:1: expected a JSON value, found the end of the file")
    }

    // MARK: Unknown keys

    func testUnknownKeyAtTheTop() throws {
        try write("bad.json", """
            {
              "canvas": { "width": 8, "height": 8 },
              "colour": "#ffffff"
            }
            """)
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: #"bad.json:3:3: unknown key "colour" in the script; expected one of: canvas, fps, maxAge, dissolveDistance, pointScale, seed, brushes, draw"#)
    }

    func testUnknownKeyInCanvas() throws {
        try write("bad.json", """
            {
              "canvas": { "width": 8, "height": 8, "depth": 1 }
            }
            """)
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: #"bad.json:2:40: unknown key "depth" in canvas; expected one of: width, height, background"#)
    }

    func testUnknownKeyInADrawEntry() throws {
        try write("bad.json", """
            {
              "canvas": { "width": 8, "height": 8 },
              "brushes": { "dot": { "builtin": "hard-round" } },
              "draw": [
                { "brush": "dot", "stamps": [[4, 4, 2, 0, 0, 1, 0, 0, 1]], "colour": "#ff0000" }
              ]
            }
            """)
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: #"bad.json:5:64: unknown key "colour" in draw entry 1; expected one of: brush, stamps"#)
        try assertRefused(["stamps", "bad.json", "-o", "out.sketchpoints"], output: "out.sketchpoints",
                          says: #"bad.json:5:64: unknown key "colour" in draw entry 1; expected one of: brush, stamps"#)
    }

    // MARK: Numbers

    func testNaN() throws {
        try write("bad.json", """
            {
              "canvas": { "width": 8, "height": 8 },
              "fps": NaN
            }
            """)
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: "bad.json:3:10: NaN is not a JSON number: numbers must be finite")
    }

    func testInfinity() throws {
        try write("bad.json", stampScript("[4, 4, 2, -Infinity, 0, 1, 0, 0, 1]"))
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: "bad.json:4:52: -Infinity is not a JSON number: numbers must be finite")
    }

    func testNumberOverflowingToInfinity() throws {
        try write("bad.json", """
            {
              "canvas": { "width": 8, "height": 8 },
              "dissolveDistance": 1e999
            }
            """)
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: "bad.json:3:23: number 1e999 is out of range; expected a finite number (this overflows a 64-bit float)")
    }

    // MARK: Stamps

    func testNegativeRadiusInline() throws {
        try write("bad.json", stampScript("[4, 4, -2, 0, 0, 1, 0, 0, 1]"))
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: "bad.json:4:49: negative radius -2 in stamp 1, expected 0 or more")
        try assertRefused(["stamps", "bad.json", "-o", "out.sketchpoints"], output: "out.sketchpoints",
                          says: "bad.json:4:49: negative radius -2 in stamp 1, expected 0 or more")
    }

    func testNegativeRadiusInASketchpointsFile() throws {
        try writeRecords("neg.sketchpoints", [1, 1, 1, 0, 0, 1, 1, 1, 1,
                                              4, 4, -2, 0, 0, 1, 0, 0, 1])
        try write("bad.json", stampScript(#""neg.sketchpoints""#, wrapped: false))
        // Record 2 starts at byte 36; its radius is the third float.
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: "neg.sketchpoints:byte 44: negative radius -2 in stamp 2, expected 0 or more")
        try assertRefused(["stamps", "bad.json", "-o", "out.sketchpoints"], output: "out.sketchpoints",
                          says: "neg.sketchpoints:byte 44: negative radius -2 in stamp 2, expected 0 or more")
    }

    func testSketchpointsFileSizeNotAMultipleOf36() throws {
        try writeRecords("odd.sketchpoints", [1, 1, 1, 0, 0, 1, 1, 1, 1, 4])
        try write("bad.json", stampScript(#""odd.sketchpoints""#, wrapped: false))
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: "odd.sketchpoints:byte 36: file size 40 is not a multiple of 36 bytes: 4 bytes left over at byte 36")
        try assertRefused(["stamps", "bad.json", "-o", "out.sketchpoints"], output: "out.sketchpoints",
                          says: "odd.sketchpoints:byte 36: file size 40 is not a multiple of 36 bytes: 4 bytes left over at byte 36")
    }

    // MARK: Colours

    func testStampColourOutOfRange() throws {
        try write("bad.json", stampScript("[4, 4, 2, 0, 0, 1.5, 0, 0, 1]"))
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: "bad.json:4:58: colour out of range: red 1.5 in stamp 1, expected 0...1")
    }

    func testBadBackgroundColour() throws {
        try write("bad.json", """
            {
              "canvas": { "width": 8, "height": 8, "background": "#12345g" }
            }
            """)
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: ##"bad.json:2:54: background must be a colour "#rrggbb" or "#rrggbbaa", or { "image": "file.png" }; found "#12345g""##)
    }

    // MARK: Canvas

    /// A side beyond anything Stipple takes (65536) is refused by the script layer.
    func testCanvasLargerThanTheLimit() throws {
        try write("bad.json", """
            {
              "canvas": { "width": 100000, "height": 8 }
            }
            """)
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: "bad.json:2:24: canvas width must be a whole number from 1 to 65536, found 100000")
    }

    /// A canvas the script layer takes but this driver cannot hold (llvmpipe: 16384): the
    /// message blames the canvas size in the script and names the driver's limit.
    func testCanvasLargerThanTheDriverAllows() throws {
        try write("bad.json", """
            {
              "canvas": { "width": 20000, "height": 8 }
            }
            """)
        let info = try TestSupport.stipple(["info", "--json"])
        let json = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
        let texture = try XCTUnwrap(json?["maxTextureSize"] as? Int)
        try XCTSkipIf(texture >= 20000, "this driver takes a 20000 px canvas")
        let renderer = try XCTUnwrap(json?["renderer"] as? String)
        let viewport = try XCTUnwrap(json?["maxViewport"] as? [Int])
        let w = min(texture, viewport[0]), h = min(texture, viewport[1])
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: "bad.json:2:24: a 20000×8 canvas is larger than this driver allows (\(w)×\(h) on \(renderer))")
    }

    // MARK: Brushes

    func testMissingBrushPNG() throws {
        try write("bad.json", brushScript())
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: #"bad.json:3:24: brush "soft": file not found: soft.png"#)
    }

    func testTruncatedBrushPNG() throws {
        let png = try PNGFile.encode(Image(width: 16, height: 16, fill: Color(red: 1, green: 1, blue: 1, alpha: 0.5)))
        let truncated = png.prefix(png.count - 20)
        try write("soft.png", Data(truncated))
        try write("bad.json", brushScript())
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: #"bad.json:3:24: brush "soft": soft.png:byte \#(truncated.count): not a readable PNG: the file ends early: truncated?"#)
    }

    func testBrushThatIsNotAPNG() throws {
        try write("soft.png", "GIF89a, not a PNG")
        try write("bad.json", brushScript())
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: #"bad.json:3:24: brush "soft": soft.png:byte 0: not a readable PNG: it does not start with the 8-byte PNG signature: is it a PNG at all?"#)
    }

    func testUnknownBrushName() throws {
        try write("bad.json", """
            {
              "canvas": { "width": 8, "height": 8 },
              "brushes": { "dot": { "builtin": "hard-round" } },
              "draw": [ { "brush": "sfot", "stamps": [] } ]
            }
            """)
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: #"bad.json:4:24: unknown brush "sfot"; defined: dot"#)
    }

    // MARK: Draw entries

    func testStampsAndPointsInOneEntry() throws {
        try write("bad.json", """
            {
              "canvas": { "width": 8, "height": 8 },
              "brushes": { "dot": { "builtin": "hard-round" } },
              "draw": [ { "brush": "dot", "stamps": [], "points": [] } ]
            }
            """)
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: #"bad.json:4:45: draw entry 1 has both "stamps" and "points"; expected exactly one of them"#)
    }

    func testStrokeWhoseTouchTimesGoBack() throws {
        try write("bad.json", """
            {
              "canvas": { "width": 8, "height": 8 },
              "brushes": { "dot": { "builtin": "hard-round" } },
              "draw": [ { "brush": "dot", "points": [ { "x": 1, "y": 2, "t": 0.5 }, { "x": 3, "y": 2, "t": 0.25 } ] } ]
            }
            """)
        try assertRefused(["render", "bad.json", "-o", "out.png"], output: "out.png",
                          says: "bad.json:4:96: touch sample 2 is at t = 0.25 s, before sample 1 at 0.5 s; touch times must not go back")
    }

    func testStrokePressureOutOfRange() throws {
        try write("bad.json", """
            {
              "canvas": { "width": 8, "height": 8 },
              "brushes": { "dot": { "builtin": "hard-round" } },
              "draw": [ { "brush": "dot", "points": [ { "x": 1, "y": 2, "t": 0, "pressure": 1.5 } ] } ]
            }
            """)
        try assertRefused(["stamps", "bad.json", "-o", "out.sketchpoints"], output: "out.sketchpoints",
                          says: "bad.json:4:81: pressure of touch sample 1 must be from 0 to 1, found 1.5")
    }

    // MARK: Files

    func testMissingScript() throws {
        try assertRefused(["render", "nope.json", "-o", "out.png"], output: "out.png",
                          says: "nope.json: file not found")
        try assertRefused(["stamps", "nope.json", "-o", "out.sketchpoints"], output: "out.sketchpoints",
                          says: "nope.json: file not found")
    }

    func testOutputThatIsTheScript() throws {
        try write("good.json", stampScript("[4, 4, 2, 0, 0, 1, 0, 0, 1]"))
        // The script is its own sentinel: the snapshot proves it is untouched.
        try assertRefused(["render", "good.json", "-o", "good.json"], output: nil,
                          says: "good.json: refusing to overwrite an input of this script; choose another output path")
        try assertRefused(["render", "good.json", "-o", "./good.json"], output: nil,
                          says: "./good.json: refusing to overwrite an input of this script; choose another output path")
        try assertRefused(["stamps", "good.json", "-o", "good.json"], output: nil,
                          says: "good.json: refusing to overwrite an input of this script; choose another output path")
    }

    func testOutputInAMissingFolder() throws {
        try write("good.json", stampScript("[4, 4, 2, 0, 0, 1, 0, 0, 1]"))
        try assertRefused(["render", "good.json", "-o", "missing/out.png"], output: "missing/out.png", sentinel: false,
                          says: "missing/out.png: cannot write: the folder missing does not exist")
        try assertRefused(["stamps", "good.json", "-o", "missing/out.sketchpoints"], output: "missing/out.sketchpoints",
                          sentinel: false, says: "missing/out.sketchpoints: cannot write: the folder missing does not exist")
    }

    // MARK: EGL

    func testNoEGLVendorSaysHowToInstallMesa() throws {
        try write("good.json", stampScript("[4, 4, 2, 0, 0, 1, 0, 0, 1]"))
        try assertRefused(["render", "good.json", "-o", "out.png"], output: "out.png",
                          saysAll: ["no usable EGL", "install Mesa's EGL", "apt-get install", "libegl-mesa0"],
                          environment: ["__EGL_VENDOR_LIBRARY_FILENAMES": "/nonexistent.json"])
    }

    func testGBMWithoutARenderNode() throws {
        let hasRenderNode = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri"))?
            .contains { $0.hasPrefix("renderD") } ?? false
        try XCTSkipIf(hasRenderNode, "this machine has a render node: GBM works here")
        try write("good.json", stampScript("[4, 4, 2, 0, 0, 1, 0, 0, 1]"))
        try assertRefused(["render", "good.json", "-o", "out.png"], output: "out.png",
                          saysAll: ["no usable EGL", "render node (/dev/dri/renderD*)", "STIPPLE_EGL_PLATFORM=surfaceless"],
                          environment: ["STIPPLE_EGL_PLATFORM": "gbm"])
    }

    // MARK: Command line

    func testNegativeFrame() throws {
        try write("good.json", stampScript("[4, 4, 2, 0, 0, 1, 0, 0, 1]"))
        try assertRefused(["render", "good.json", "-o", "out.png", "--frame", "-1"], output: "out.png", status: 64,
                          says: "Please give a frame from 0 to 16777215 (got -1). (see 'stipple render --help')")
        try assertRefused(["stamps", "good.json", "--frame", "-1", "-o", "out.sketchpoints"], output: "out.sketchpoints",
                          status: 64, says: "Please give a frame of 0 or more (got -1). (see 'stipple stamps --help')")
    }

    func testFrameAndFramesTogether() throws {
        try write("good.json", stampScript("[4, 4, 2, 0, 0, 1, 0, 0, 1]"))
        try assertRefused(["render", "good.json", "-o", "out.png", "--frame", "1", "--frames", "0...3"],
                          output: "out.png", status: 64,
                          says: "Please give --frame or --frames, not both. (see 'stipple render --help')")
    }

    func testFramesIntoAFile() throws {
        try write("good.json", stampScript("[4, 4, 2, 0, 0, 1, 0, 0, 1]"))
        try assertRefused(["render", "good.json", "-o", "good.json/frames", "--frames", "0...1"], output: nil,
                          says: "good.json/frames: cannot make the folder for --frames: not a directory")
    }

    func testUnknownCommand() throws {
        try assertRefused(["paint"], output: nil, status: 64, says: "Unexpected argument 'paint' (see 'stipple --help')")
    }

    // MARK: compare

    func testCompareWithAMissingFile() throws {
        try writePNG("a.png", width: 8, height: 8)
        try assertRefused(["compare", "a.png", "nope.png", "--diff", "diff.png"], output: "diff.png",
                          says: "nope.png: no such file (a PNG was expected here)")
        try assertRefused(["compare", "nope.png", "a.png"], output: nil,
                          says: "nope.png: no such file (a PNG was expected here)")
    }

    func testCompareWithACorruptPNG() throws {
        let png = try writePNG("a.png", width: 8, height: 8)
        try write("t.png", Data(png.prefix(50)))
        try assertRefused(["compare", "a.png", "t.png", "--diff", "diff.png"], output: "diff.png",
                          says: "t.png:byte 50: not a readable PNG: the file ends early: truncated?")
    }

    func testCompareRefusesToWriteTheDiffOverAnInput() throws {
        try writePNG("a.png", width: 8, height: 8)
        try writePNG("b.png", width: 8, height: 8)
        try assertRefused(["compare", "a.png", "b.png", "--diff", "b.png"], output: nil,
                          says: "b.png: refusing to overwrite an image being compared; choose another output path")
    }

    func testCompareImagesOfDifferentSizes() throws {
        try writePNG("a.png", width: 8, height: 8)
        try writePNG("b.png", width: 9, height: 8)
        let run = try TestSupport.stipple(["compare", "a.png", "b.png"], in: dir)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(run.stdout, "DIFFERENT: sizes differ: expected 8×8, actual 9×8; allowed 0 pixels over 0\n")
        // Even with a generous tolerance: images of different sizes are never the same.
        let lenient = try TestSupport.stipple(["compare", "a.png", "b.png", "--max-channel-diff", "255",
                                               "--max-pixels", "100%"], in: dir)
        XCTAssertEqual(lenient.status, 1, lenient.stderr)
        XCTAssertTrue(lenient.stdout.hasPrefix("DIFFERENT: sizes differ: expected 8×8, actual 9×8"), lenient.stdout)
    }

    // MARK: Helpers

    /// A script with one builtin brush and one draw entry whose `stamps` is `stamps`
    /// (one inline stamp, wrapped in the list, unless `wrapped` is false). The stamp's
    /// first number is on line 4, column 43.
    private func stampScript(_ stamps: String, wrapped: Bool = true) -> String {
        """
        {
          "canvas": { "width": 8, "height": 8 },
          "brushes": { "dot": { "builtin": "hard-round" } },
          "draw": [ { "brush": "dot", "stamps": \(wrapped ? "[\(stamps)]" : stamps) } ]
        }
        """
    }

    /// A script with a brush "soft" from soft.png (its path is on line 3, column 24).
    private func brushScript() -> String {
        """
        {
          "canvas": { "width": 8, "height": 8 },
          "brushes": { "soft": "soft.png" },
          "draw": [ { "brush": "soft", "stamps": [[4, 4, 2, 0, 0, 1, 0, 0, 1]] } ]
        }
        """
    }

    private func write(_ name: String, _ text: String) throws {
        try write(name, Data(text.utf8))
    }

    private func write(_ name: String, _ data: Data) throws {
        try data.write(to: dir.appendingPathComponent(name))
    }

    private func writeRecords(_ name: String, _ floats: [Float]) throws {
        try write(name, floats.withUnsafeBytes { Data($0) })  // little-endian on every platform we run on
    }

    @discardableResult
    private func writePNG(_ name: String, width: Int, height: Int) throws -> [UInt8] {
        let png = try PNGFile.encode(Image(width: width, height: height, fill: Color(red: 1, green: 0, blue: 0, alpha: 1)))
        try write(name, Data(png))
        return png
    }

    /// Every file under the test folder (hidden ones too, so a stray temporary shows) and its bytes.
    private func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let base = dir.standardizedFileURL.resolvingSymlinksInPath().path
        let walker = FileManager.default.enumerator(atPath: base)
        while let relative = walker?.nextObject() as? String {
            let path = base + "/" + relative
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue {
                files[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return files
    }

    /// Runs `stipple arguments` in the test folder and asserts SPEC §8: the exit `status`,
    /// one line on stderr that is exactly `stipple: error: <says>` (or contains each of
    /// `saysAll`), nothing on stdout, and no file written, changed or left behind. When
    /// `output` is given, runs once with it absent and, if `sentinel`, once over a sentinel.
    private func assertRefused(_ arguments: [String], output: String?, sentinel: Bool = true, status: Int32 = 2,
                               says expected: String? = nil, saysAll parts: [String] = [],
                               environment: [String: String] = [:],
                               file: StaticString = #filePath, line: UInt = #line) throws {
        var setups: [(String, () throws -> Void)] = []
        if let output {
            let url = dir.appendingPathComponent(output)
            setups.append(("without \(output)", { try? FileManager.default.removeItem(at: url) }))
            if sentinel {
                setups.append(("over a sentinel \(output)", {
                    try Data("sentinel: must survive \(arguments)".utf8).write(to: url)
                }))
            }
        } else {
            setups.append(("", {}))
        }
        for (label, setUp) in setups {
            try setUp()
            let before = try snapshot()
            let run = try TestSupport.stipple(arguments, environment: environment, in: dir)
            let context = "stipple \(arguments.joined(separator: " ")) \(label)\nstderr: \(run.stderr)"
            XCTAssertEqual(run.status, status, context, file: file, line: line)
            XCTAssertEqual(run.stdout, "", context, file: file, line: line)
            XCTAssertTrue(run.stderr.hasSuffix("\n") && run.stderr.filter { $0 == "\n" }.count == 1,
                          "stderr must be exactly one line: \(context)", file: file, line: line)
            XCTAssertTrue(run.stderr.hasPrefix("stipple: error: "), context, file: file, line: line)
            if let expected {
                XCTAssertEqual(run.stderr, "stipple: error: \(expected)\n", label, file: file, line: line)
            }
            for part in parts {
                XCTAssertTrue(run.stderr.contains(part), "expected \"\(part)\" in: \(context)", file: file, line: line)
            }
            let after = try snapshot()
            XCTAssertEqual(Set(after.keys), Set(before.keys), "files written or removed: \(context)", file: file, line: line)
            for (name, bytes) in before where after[name] != bytes {
                XCTFail("\(name) changed: \(context)", file: file, line: line)
            }
        }
    }
}
