import Foundation
import XCTest
@testable import Stipple

final class ScriptDecoderTests: XCTestCase {
    private var fx: ScriptFixture!

    override func setUpWithError() throws { fx = try ScriptFixture() }
    override func tearDown() { fx = nil }

    // MARK: Valid scripts

    func testDefaults() throws {
        let text = #"{ "canvas": { "width": 320, "height": 568 } }"#
        let s = try fx.parse(text)
        XCTAssertEqual(s.path, "s.json")
        XCTAssertEqual(s.directory, fx.folder)
        XCTAssertEqual(s.canvas.width, 320)
        XCTAssertEqual(s.canvas.height, 568)
        XCTAssertEqual(s.canvas.background, .color(.transparent))
        XCTAssertEqual(s.canvas.sizeLocation, ScriptFixture.location(of: "320", in: text))
        XCTAssertEqual(s.fps, 30)
        XCTAssertEqual(s.maxAge, 0)
        XCTAssertEqual(s.dissolveDistance, 6)
        XCTAssertEqual(s.pointScale, 1)
        XCTAssertEqual(s.seed, 0)
        XCTAssertTrue(s.brushes.isEmpty)
        XCTAssertEqual(s.brushOrder, [])
        XCTAssertTrue(s.draw.isEmpty)
    }

    func testSpecExample() throws {
        let text = """
        {
          "canvas":  { "width": 320, "height": 568, "background": "#101014" },
          "fps": 24, "maxAge": 110, "dissolveDistance": -6.5, "pointScale": 1.5, "seed": 7,
          "brushes": { "soft": "brushes/soft.png", "dot": { "builtin": "hard-round" },
                       "big": { "builtin": "soft-round", "size": 512 } },
          "draw": [
            { "brush": "soft", "stamps": "burst.sketchpoints" },
            { "stamps": [[10, 20, 4, 0, 1.57, 1, 0.2, 0.1, 1], [0, 0, 0, -3.5, -9, 0, 0, 0, 0]], "brush": "dot" },
            { "brush": "big", "stamps": [] }
          ]
        }
        """
        let s = try fx.parse(text)
        XCTAssertEqual(s.canvas.background, .color(Color(hex: "#101014")!))
        XCTAssertEqual(s.fps, 24)
        XCTAssertEqual(s.maxAge, 110)
        XCTAssertEqual(s.dissolveDistance, -6.5)
        XCTAssertEqual(s.pointScale, 1.5)
        XCTAssertEqual(s.seed, 7)
        XCTAssertEqual(s.brushOrder, ["soft", "dot", "big"])
        XCTAssertEqual(s.brushes["soft"], .file(path: fx.folder + "/brushes/soft.png",
                                                location: ScriptFixture.location(of: "\"brushes/soft.png\"", in: text)!))
        XCTAssertEqual(s.brushes["dot"], .builtin(.hardRound, size: Brush.defaultBuiltinSize,
                                                  location: ScriptFixture.location(of: "{ \"builtin\": \"hard", in: text)!))
        XCTAssertEqual(s.brushes["big"], .builtin(.softRound, size: 512,
                                                  location: ScriptFixture.location(of: "{ \"builtin\": \"soft", in: text)!))
        XCTAssertEqual(s.draw.map(\.brush), ["soft", "dot", "big"])
        XCTAssertEqual(s.draw[0].stamps, fx.burst)
        XCTAssertEqual(s.draw[0].source, fx.folder + "/burst.sketchpoints")
        XCTAssertEqual(s.draw[0].location, ScriptFixture.location(of: "{ \"brush\": \"soft\"", in: text))
        XCTAssertEqual(s.draw[1].stamps, [
            SketchPoint(x: 10, y: 20, radius: 4, age: 0, dissolveAngle: 1.57, red: 1, green: 0.2, blue: 0.1, alpha: 1),
            SketchPoint(x: 0, y: 0, radius: 0, age: -3.5, dissolveAngle: -9, red: 0, green: 0, blue: 0, alpha: 0),
        ])
        XCTAssertNil(s.draw[1].source)
        XCTAssertEqual(s.draw[2].stamps, [])
    }

    func testWholeNumbersMayBeWrittenWithFractionOrExponent() throws {
        let s = try fx.parse(#"{ "canvas": { "width": 1.0, "height": 1e3 }, "seed": 9007199254740992 }"#)
        XCTAssertEqual(s.canvas.width, 1)
        XCTAssertEqual(s.canvas.height, 1000)
        XCTAssertEqual(s.seed, 1 << 53)
        XCTAssertEqual(try fx.parse(#"{ "canvas": { "width": 65536, "height": 1 } }"#).canvas.width, 65536)
    }

    func testBackgroundWithAlphaAndImage() throws {
        let s = try fx.parse(##"{ "canvas": { "width": 1, "height": 1, "background": "#FF000080" } }"##)
        XCTAssertEqual(s.canvas.background, .color(Color(red: 1, green: 0, blue: 0, alpha: 128.0 / 255)))
        let text = #"{ "canvas": { "width": 1, "height": 1, "background": { "image": "bg.png" } } }"#
        XCTAssertEqual(try fx.parse(text).canvas.background,
                       .image(path: fx.folder + "/bg.png", location: ScriptFixture.location(of: "\"bg.png\"", in: text)!))
    }

    // MARK: Structure and types

    func testTopLevelMustBeAnObjectWithACanvas() {
        fx.assertError("[1]", at: "[", "expected an object for the top of the script, found an array")
        fx.assertError(#"{ "fps": 30 }"#, at: "{",
                       #"missing key "canvas" in the script; expected { "canvas": { "width": W, "height": H }, ... } "#
                       + "(a script baked over a video may leave it out: stipple bake, or describe --video)")
    }

    func testUnknownKeysAtEveryLevel() {
        let canvas = #""canvas": { "width": 2, "height": 2 }"#
        fx.assertError("{ \(canvas), \"Draw\": [] }", at: "\"Draw\"",
                       #"unknown key "Draw" in the script; expected one of: canvas, fps, maxAge, dissolveDistance, pointScale, seed, brushes, draw, startFrame"#)
        fx.assertError("{\n  \"canvas\": { \"width\": 2,\n    \"height\": 2, \"colour\": \"#000000\" } }", at: "\"colour\"",
                       #"unknown key "colour" in canvas; expected one of: width, height, background"#)
        fx.assertError(#"{ "canvas": { "width": 2, "height": 2, "background": { "image": "bg.png", "fit": 1 } } }"#, at: "\"fit\"",
                       #"unknown key "fit" in background; expected one of: image"#)
        fx.assertError("{ \(canvas), \"brushes\": { \"dot\": { \"builtin\": \"hard-round\", \"sise\": 3 } } }", at: "\"sise\"",
                       #"unknown key "sise" in brush "dot"; expected one of: builtin, size"#)
        fx.assertError("{ \(canvas), \"brushes\": { \"b\": { \"builtin\": \"hard-round\" } }, \"draw\": [ { \"brush\": \"b\", \"stamps\": [], \"color\": \"#fff\" } ] }",
                       at: "\"color\"", #"unknown key "color" in draw entry 1; expected one of: brush, stamps, blend, strokeOpacity, effect, edges, shadow"#)
    }

    func testWrongTypes() {
        let canvas = #""canvas": { "width": 2, "height": 2 }"#
        fx.assertError("{ \(canvas), \"fps\": \"30\" }", at: "\"30\"", "expected a number for fps, found a string")
        fx.assertError("{ \(canvas), \"maxAge\": true }", at: "true", "expected a number for maxAge, found a boolean")
        fx.assertError("{ \(canvas), \"seed\": null }", at: "null", "expected a number for seed, found null")
        fx.assertError(#"{ "canvas": [320, 568] }"#, at: "[", "expected an object for canvas, found an array")
        fx.assertError(#"{ "canvas": { "width": "320", "height": 2 } }"#, at: "\"320\"", "expected a number for canvas width, found a string")
        fx.assertError(#"{ "canvas": { "width": 2, "height": 2, "background": 0 } }"#, at: "0 }",
                       #"expected a colour string or { "image": "file.png" } for background, found a number"#)
        fx.assertError(#"{ "canvas": { "width": 2, "height": 2, "background": { "image": 5 } } }"#, at: "5",
                       "expected a string for background image, found a number")
        fx.assertError("{ \(canvas), \"brushes\": [\"a.png\"] }", at: "[", "expected an object for brushes, found an array")
        fx.assertError("{ \(canvas), \"brushes\": { \"a\": 1 } }", at: "1 }",
                       #"expected a file path or { "builtin": "hard-round" } for brush "a", found a number"#)
        fx.assertError("{ \(canvas), \"brushes\": { \"a\": { \"builtin\": 1 } } }", at: "1 }",
                       #"expected a string for builtin in brush "a", found a number"#)
        fx.assertError("{ \(canvas), \"draw\": {} }", at: "{}", "expected an array for draw, found an object")
        fx.assertError("{ \(canvas), \"draw\": [ [] ] }", at: "[]", "expected an object for draw entry 1, found an array")
    }

    // MARK: Canvas

    func testCanvasSize() {
        fx.assertError(#"{ "canvas": { "height": 2 } }"#, at: "{ \"height\"", #"missing key "width" in canvas"#)
        fx.assertError(#"{ "canvas": { "width": 2 } }"#, at: "{ \"width\"", #"missing key "height" in canvas"#)
        fx.assertError(#"{ "canvas": { "width": 0, "height": 2 } }"#, at: "0,",
                       "canvas width must be a whole number from 1 to 65536, found 0")
        fx.assertError(#"{ "canvas": { "width": 65537, "height": 2 } }"#, at: "65537",
                       "canvas width must be a whole number from 1 to 65536, found 65537")
        fx.assertError(#"{ "canvas": { "width": 2, "height": 3.5 } }"#, at: "3.5",
                       "canvas height must be a whole number from 1 to 65536, found 3.5")
        fx.assertError(#"{ "canvas": { "width": 2, "height": -4 } }"#, at: "-4",
                       "canvas height must be a whole number from 1 to 65536, found -4")
        fx.assertError(#"{ "canvas": { "width": 1e9, "height": 2 } }"#, at: "1e9",
                       "canvas width must be a whole number from 1 to 65536, found 1e9")
    }

    func testBackground() {
        fx.assertError(#"{ "canvas": { "width": 2, "height": 2, "background": "red" } }"#, at: "\"red\"",
                       ##"background must be a colour "#rrggbb" or "#rrggbbaa", or { "image": "file.png" }; found "red""##)
        fx.assertError(##"{ "canvas": { "width": 2, "height": 2, "background": "#12345" } }"##, at: "\"#12345\"",
                       ##"background must be a colour "#rrggbb" or "#rrggbbaa", or { "image": "file.png" }; found "#12345""##)
        fx.assertError(#"{ "canvas": { "width": 2, "height": 2, "background": {} } }"#, at: "{} ",
                       #"missing key "image" in background"#)
        fx.assertError(#"{ "canvas": { "width": 2, "height": 2, "background": { "image": "nope.png" } } }"#, at: "\"nope.png\"",
                       "background image not found: \(fx.folder)/nope.png")
        fx.assertError(#"{ "canvas": { "width": 2, "height": 2, "background": { "image": "sub" } } }"#, at: "\"sub\"",
                       "background image \(fx.folder)/sub is a folder, not a file")
        fx.assertError(#"{ "canvas": { "width": 2, "height": 2, "background": { "image": "" } } }"#, at: "\"\"",
                       "expected a file path for background image, found an empty string")
    }

    // MARK: Scalars

    func testScalarRanges() {
        let canvas = #""canvas": { "width": 2, "height": 2 }"#
        fx.assertError("{ \(canvas), \"fps\": 0 }", at: "0 }", "fps must be greater than 0, found 0")
        fx.assertError("{ \(canvas), \"fps\": -30 }", at: "-30", "fps must be greater than 0, found -30")
        fx.assertError("{ \(canvas), \"maxAge\": -1 }", at: "-1", "maxAge must be 0 or more (0: stamps never age), found -1")
        fx.assertError("{ \(canvas), \"maxAge\": 1e39 }", at: "1e39", "maxAge 1e39 is out of range for a 32-bit float")
        fx.assertError("{ \(canvas), \"dissolveDistance\": -1e40 }", at: "-1e40",
                       "dissolveDistance -1e40 is out of range for a 32-bit float")
        fx.assertError("{ \(canvas), \"pointScale\": 0 }", at: "0 }", "pointScale must be greater than 0, found 0")
        // Positive as a Double but 0 as a 32-bit float: still refused.
        fx.assertError("{ \(canvas), \"pointScale\": 1e-50 }", at: "1e-50", "pointScale must be greater than 0, found 1e-50")
        fx.assertError("{ \(canvas), \"seed\": 1.5 }", at: "1.5", "seed must be a whole number from 0 to 9007199254740992, found 1.5")
        fx.assertError("{ \(canvas), \"seed\": -1 }", at: "-1", "seed must be a whole number from 0 to 9007199254740992, found -1")
        // Rounds to 2^53 as a Double; the literal is checked exactly.
        fx.assertError("{ \(canvas), \"seed\": 9007199254740993 }", at: "9007",
                       "seed must be a whole number from 0 to 9007199254740992, found 9007199254740993")
        fx.assertError("{ \(canvas), \"seed\": 123456789012345678901234567890 }", at: "1234",
                       "seed must be a whole number from 0 to 9007199254740992, found 123456789012345678901234567890")
    }

    func testNaNAndDuplicateKeysComeFromTheParser() {
        fx.assertError(#"{ "canvas": { "width": 2, "height": 2 }, "maxAge": NaN }"#, at: "NaN",
                       "NaN is not a JSON number: numbers must be finite")
        fx.assertError(#"{ "canvas": { "width": 2, "height": 2, "width": 3 } }"#, at: "\"width\"", occurrence: 2,
                       #"duplicate key "width" in this object (first at 1:15)"#)
    }

    // MARK: Brushes

    func testBrushes() {
        let canvas = #""canvas": { "width": 2, "height": 2 }"#
        fx.assertError("{ \(canvas), \"brushes\": { \"soft\": \"brushes/hard.png\" } }", at: "\"brushes/hard.png\"",
                       "brush \"soft\": file not found: \(fx.folder)/brushes/hard.png")
        fx.assertError("{ \(canvas), \"brushes\": { \"soft\": \"brushes\" } }", at: "\"brushes\" }",
                       "brush \"soft\": file \(fx.folder)/brushes is a folder, not a file")
        fx.assertError("{ \(canvas), \"brushes\": { \"\": \"brushes/soft.png\" } }", at: "\"\"", "a brush name must not be empty")
        fx.assertError("{ \(canvas), \"brushes\": { \"d\": { \"size\": 3 } } }", at: "{ \"size\"",
                       #"missing key "builtin" in brush "d""#)
        fx.assertError("{ \(canvas), \"brushes\": { \"d\": { \"builtin\": \"square\" } } }", at: "\"square\"",
                       #"unknown built-in brush "square"; expected one of: hard-round, soft-round"#)
        fx.assertError("{ \(canvas), \"brushes\": { \"d\": { \"builtin\": \"hard-round\", \"size\": 0 } } }", at: "0 }",
                       "brush size must be a whole number from 1 to 4096, found 0")
        fx.assertError("{ \(canvas), \"brushes\": { \"d\": { \"builtin\": \"hard-round\", \"size\": 4097 } } }", at: "4097",
                       "brush size must be a whole number from 1 to 4096, found 4097")
    }

    // MARK: Draw entries

    func testDrawEntryBrush() {
        let head = #"{ "canvas": { "width": 2, "height": 2 }, "brushes": { "soft": "brushes/soft.png", "dot": { "builtin": "hard-round" } }, "draw": ["#
        fx.assertError(head + #"{ "brush": "x", "stamps": [] }] }"#, at: "\"x\"", #"unknown brush "x"; defined: soft, dot"#)
        fx.assertError(head + #"{ "stamps": [] }] }"#, at: "{ \"stamps\"", #"missing key "brush" in draw entry 1"#)
        fx.assertError(head + #"{ "brush": "dot", "stamps": [] }, { "brush": 3, "stamps": [] }] }"#, at: "3,",
                       "expected a string for the brush of draw entry 2, found a number")
        fx.assertError(#"{ "canvas": { "width": 2, "height": 2 }, "draw": [{ "brush": "x", "stamps": [] }] }"#, at: "\"x\"",
                       #"unknown brush "x"; no brushes are defined"#)
    }

    func testDrawEntryKind() {
        let head = #"{ "canvas": { "width": 2, "height": 2 }, "brushes": { "soft": "brushes/soft.png" }, "draw": ["#
        fx.assertError(head + #"{ "brush": "soft" }] }"#, at: "{ \"brush\"", #"draw entry 1 needs "stamps" or "points""#)
        fx.assertError(head + #"{ "brush": "soft", "points": [], "stamps": [] }] }"#, at: "\"stamps\"",
                       #"draw entry 1 has both "stamps" and "points"; expected exactly one of them"#)
        fx.assertError(head + #"{ "brush": "soft", "stamps": [], "points": [] }] }"#, at: "\"points\"",
                       #"draw entry 1 has both "stamps" and "points"; expected exactly one of them"#)
        // A stroke entry takes only stroke keys.
        fx.assertError(head + """
            { "brush": "soft", "colour": "#ff3b30", "points": [ { "x": 10, "y": 20, "t": 0.00, "pressure": 0.4 } ] }] }
            """, at: "\"colour\"",
            "unknown key \"colour\" in draw entry 1; expected one of: brush, points, color, radius, spacing, smoothing, opacity, pressure, speed, rotation, seedIndex, blend, strokeOpacity, effect, edges, shadow")
        fx.assertError(head + #"{ "brush": "soft", "points": [] }] }"#, at: "[] }] }",
                       "a stroke needs at least one touch sample in points; found none")
        fx.assertError(head + #"{ "brush": "soft", "stamps": 5 }] }"#, at: "5 }",
                       "expected an array of stamps or the path of a .sketchpoints file for stamps in draw entry 1, found a number")
    }

    func testInlineStamps() {
        let head = #"{ "canvas": { "width": 2, "height": 2 }, "brushes": { "b": "brushes/soft.png" }, "draw": [{ "brush": "b", "stamps": "#
        let ok = "[1, 2, 3, 0, 0, 1, 1, 1, 1]"
        fx.assertError(head + "[\(ok), 7] }] }", at: "7]", "expected an array of 9 numbers for stamp 2, found a number")
        fx.assertError(head + "[[1, 2, 3, 0, 0, 1, 1, 1]] }] }", at: "[1, 2",
                       "stamp 1 has 8 numbers; expected 9: x, y, radius, age, dissolveAngle, red, green, blue, alpha")
        fx.assertError(head + "[[1, 2, 3, 0, 0, 1, 1, 1, 1, 1]] }] }", at: "[1, 2",
                       "stamp 1 has 10 numbers; expected 9: x, y, radius, age, dissolveAngle, red, green, blue, alpha")
        fx.assertError(head + "[\(ok), [1, 2, 3, 0, 0, 1, 1, 1, \"1\"]] }] }", at: "\"1\"",
                       "expected a number for alpha in stamp 2, found a string")
        fx.assertError(head + "[\(ok), \(ok), [1, 2, -2, 0, 0, 1, 1, 1, 1]] }] }", at: "-2",
                       "negative radius -2 in stamp 3, expected 0 or more")
        fx.assertError(head + "[\(ok), \(ok), [1, 2, 3, 0, 0, 1, 1.5, 1, 1]] }] }", at: "1.5",
                       "colour out of range: green 1.5 in stamp 3, expected 0...1")
        fx.assertError(head + "[[1, 2, 3, 0, 0, 1, 1, -0.5, 1]] }] }", at: "-0.5",
                       "colour out of range: blue -0.5 in stamp 1, expected 0...1")
        fx.assertError(head + "[[1e39, 2, 3, 0, 0, 1, 1, 1, 1]] }] }", at: "1e39",
                       "x 1e39 in stamp 1 is out of range for a 32-bit float")
        fx.assertError(head + "[[1, 2, 3, -Infinity, 0, 1, 1, 1, 1]] }] }", at: "-Inf",
                       "-Infinity is not a JSON number: numbers must be finite")
    }

    func testStampsFile() {
        let head = #"{ "canvas": { "width": 2, "height": 2 }, "brushes": { "b": "brushes/soft.png" }, "draw": [{ "brush": "b", "stamps": "#
        fx.assertError(head + #""none.sketchpoints" }] }"#, at: "\"none",
                       "stamps file not found: \(fx.folder)/none.sketchpoints")
        // Bad content is an error in the .sketchpoints file, at its byte offset.
        XCTAssertThrowsError(try fx.parse(head + #""bad.sketchpoints" }] }"#)) { error in
            XCTAssertEqual(error as? InputError, InputError(
                file: fx.folder + "/bad.sketchpoints", location: .byte(36),
                "file size 40 is not a multiple of 36 bytes: 4 bytes left over at byte 36"))
        }
    }
}
