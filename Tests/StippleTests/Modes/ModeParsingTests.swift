import Foundation
import XCTest
@testable import Stipple

/// The brush-mode keys of draw entries: what they parse to, and every bad input's message.
final class ModeParsingTests: XCTestCase {
    private var fx: ScriptFixture!

    override func setUpWithError() throws { fx = try ScriptFixture() }
    override func tearDown() { fx = nil }

    private func script(_ entry: String) -> String {
        """
        { "canvas": { "width": 64, "height": 64 }, "brushes": { "dot": { "builtin": "hard-round" } },
          "draw": [ \(entry) ] }
        """
    }

    func testEntryWithoutKeysHasNoMode() throws {
        let s = try fx.parse(script(#"{ "brush": "dot", "stamps": [[10, 20, 4, 0, 0, 1, 0, 0, 1]] }"#))
        XCTAssertNil(s.draw[0].mode)
        XCTAssertEqual(s.draw[0].mode.reach, 0)
    }

    func testEveryKeyOnStamps() throws {
        let s = try fx.parse(script("""
            { "brush": "dot", "stamps": [[10, 20, 4, 0, 0, 1, 0, 0, 1]], "blend": "multiply", "strokeOpacity": 0.5,
              "edges": { "tolerance": 7 }, "shadow": { "offset": [-3, 9], "blur": 2.5, "color": "#ff000040" } }
            """))
        let m = try XCTUnwrap(s.draw[0].mode)
        XCTAssertEqual(m.blend, .multiply)
        XCTAssertEqual(m.strokeOpacity, 0.5)
        XCTAssertNil(m.effect)
        XCTAssertEqual(m.edgeTolerance, 7)
        let sh = try XCTUnwrap(m.shadow)
        XCTAssertEqual([sh.dx, sh.dy], [-3, 9])
        XCTAssertEqual(sh.blur, 2.5)
        XCTAssertEqual(sh.color, Color(hex: "#ff000040"))
        XCTAssertEqual(m.reach, 9 + 8)  // |offset| + ⌈3σ⌉
    }

    func testDefaultsOnPoints() throws {
        let s = try fx.parse(script("""
            { "brush": "dot", "points": [{ "x": 1, "y": 2, "t": 0 }], "effect": "soften", "edges": {} }
            """))
        let m = try XCTUnwrap(s.draw[0].mode)
        XCTAssertEqual(m.blend, .over)
        XCTAssertEqual(m.strokeOpacity, 1)
        XCTAssertEqual(m.effect, .soften)
        XCTAssertEqual(m.edgeTolerance, 32)
        XCTAssertEqual(m.reach, 6)
        let t = try fx.parse(script(#"{ "brush": "dot", "points": [{ "x": 1, "y": 2, "t": 0 }], "shadow": {} }"#))
        let sh = try XCTUnwrap(t.draw[0].mode?.shadow)
        XCTAssertEqual([sh.dx, sh.dy], [4, 4])
        XCTAssertEqual(sh.blur, 3)
        XCTAssertEqual(sh.color, Color(hex: "#00000080"))
    }

    func testBadInputs() {
        let stamps = #"{ "brush": "dot", "stamps": [], "#
        fx.assertError(script(stamps + #""blend": "overlay" }"#), at: "\"overlay\"",
                       "unknown blend \"overlay\"; expected one of: over, erase, multiply, screen")
        fx.assertError(script(stamps + #""effect": "blur" }"#), at: "\"blur\"",
                       "unknown effect \"blur\"; expected one of: lighten, darken, saturate, desaturate, soften, sharpen")
        fx.assertError(script(stamps + #""blend": "screen", "effect": "darken" }"#), at: "\"blend\"",
                       "draw entry 1 has both \"blend\" and \"effect\"; an effect adjusts the canvas instead of laying paint, so give one or the other")
        fx.assertError(script(stamps + #""blend": "erase", "shadow": {} }"#), at: "\"shadow\"",
                       "an erase stroke cannot cast a shadow; a shadow goes with blend over, multiply or screen")
        fx.assertError(script(stamps + #""effect": "lighten", "shadow": {} }"#), at: "\"shadow\"",
                       "the lighten effect cannot cast a shadow; a shadow goes with blend over, multiply or screen")
        fx.assertError(script(stamps + #""edges": { "tolerance": 256 } }"#), at: "256",
                       "edges tolerance (per 8-bit channel) must be a whole number from 0 to 255, found 256")
        fx.assertError(script(stamps + #""edges": { "tolerance": -1 } }"#), at: "-1",
                       "edges tolerance (per 8-bit channel) must be a whole number from 0 to 255, found -1")
        fx.assertError(script(stamps + #""shadow": { "offset": [2.5, 1] } }"#), at: "2.5",
                       "shadow offset dx (whole pixels) must be a whole number from -4096 to 4096, found 2.5")
        fx.assertError(script(stamps + #""shadow": { "offset": [0, 5000] } }"#), at: "5000",
                       "shadow offset dy (whole pixels) must be a whole number from -4096 to 4096, found 5000")
        fx.assertError(script(stamps + #""shadow": { "offset": [1] } }"#), at: "[1]",
                       "shadow offset must be [dx, dy], two whole numbers of pixels; found 1 item")
        fx.assertError(script(stamps + #""shadow": { "blur": 65 } }"#), at: "65",
                       "shadow blur (σ in pixels) must be from 0 to 64, found 65")
        fx.assertError(script(stamps + #""shadow": { "blur": -0.5 } }"#), at: "-0.5",
                       "shadow blur (σ in pixels) must be from 0 to 64, found -0.5")
        fx.assertError(script(stamps + #""shadow": { "color": "black" } }"#), at: "\"black\"",
                       "shadow color must be \"#rrggbb\" or \"#rrggbbaa\"; found \"black\"")
        fx.assertError(script(stamps + #""strokeOpacity": 1.5 }"#), at: "1.5",
                       "strokeOpacity must be from 0 to 1, found 1.5")
    }

    func testUnknownKeysInsideModeObjects() throws {
        let stamps = #"{ "brush": "dot", "stamps": [], "#
        XCTAssertThrowsError(try fx.parse(script(stamps + #""edges": { "tol": 3 } }"#))) { error in
            XCTAssertTrue("\(error)".contains("tolerance"), "\(error)")
        }
        XCTAssertThrowsError(try fx.parse(script(stamps + #""shadow": { "spread": 3 } }"#))) { error in
            XCTAssertTrue("\(error)".contains("offset, blur, color"), "\(error)")
        }
    }
}
