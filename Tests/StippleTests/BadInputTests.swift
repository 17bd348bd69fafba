import Foundation
import Stipple
import XCTest

/// Bad scripts: malformed JSON, unknown keys, numbers, stamps, colours, canvases, brushes,
/// draw entries (see BadInputTestCase for what every case checks).
final class BadInputTests: BadInputTestCase {
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
                          says: #"bad.json:3:3: unknown key "colour" in the script; expected one of: canvas, fps, maxAge, dissolveDistance, pointScale, seed, brushes, draw, startFrame"#)
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
                          says: #"bad.json:5:64: unknown key "colour" in draw entry 1; expected one of: brush, stamps, blend, strokeOpacity, effect, edges, shadow"#)
        try assertRefused(["stamps", "bad.json", "-o", "out.sketchpoints"], output: "out.sketchpoints",
                          says: #"bad.json:5:64: unknown key "colour" in draw entry 1; expected one of: brush, stamps, blend, strokeOpacity, effect, edges, shadow"#)
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

    /// A canvas the script layer takes but this driver cannot hold (llvmpipe: 16384) in one
    /// pass, asked for as a video (stills and PNG frames are drawn in tiles): the message
    /// blames the canvas size in the script and names the driver's limit.
    func testVideoOfACanvasLargerThanTheDriverAllows() throws {
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
        try assertRefused(["render", "bad.json", "--frames", "0...1", "-o", "out.y4m"], output: "out.y4m",
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
}
