import Foundation
@testable import Stipple
import XCTest

/// The values docs/script-format.md settles, read as it says: ranges checked on the number
/// as read (an IEEE double) before it becomes a 32-bit float.
final class SettledValueTests: XCTestCase {
    private func parse(_ entryKeys: String) throws -> Script {
        let text = #"{"canvas": {"width": 8, "height": 8}, "brushes": {"s": {"builtin": "soft-round"}}, "draw": [{"brush": "s", "stamps": [[4, 4, 2, 0, 0, 1, 0, 0, 1]], "#
            + entryKeys + "}]}"
        return try Script.parse(bytes: Array(text.utf8), path: "v.json", directory: FileManager.default.temporaryDirectory.path)
    }

    private func assertRefused(_ keys: String, says: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try parse(keys), keys, file: file, line: line) { error in
            XCTAssertTrue("\(error)".contains(says), "\(keys): \(error)", file: file, line: line)
        }
    }

    func testANegativeBlurIsRefusedHoweverSmall() {
        assertRefused(#""shadow": {"blur": -1e-300}"#, says: "shadow blur (σ in pixels) must be from 0 to 64, found -1e-300")
        assertRefused(#""shadow": {"blur": -0.0000001}"#, says: "must be from 0 to 64")
        assertRefused(#""shadow": {"blur": 64.000001}"#, says: "must be from 0 to 64")
        XCTAssertEqual(try parse(#""shadow": {"blur": 0}"#).draw[0].mode?.shadow?.blur, 0)
        XCTAssertEqual(try parse(#""shadow": {"blur": -0}"#).draw[0].mode?.shadow?.blur, 0)
    }

    func testOpacityIsReadAsADouble() throws {
        XCTAssertEqual(try parse(#""strokeOpacity": 1.00000000000000001"#).draw[0].mode?.strokeOpacity, 1)
        assertRefused(#""strokeOpacity": 1.00000001"#, says: "strokeOpacity must be from 0 to 1, found 1.00000001")
        assertRefused(#""strokeOpacity": -1e-300"#, says: "strokeOpacity must be from 0 to 1")
    }

    func testEmptyEdgesTakeTheDefaultTolerance() throws {
        XCTAssertEqual(try parse(#""edges": {}"#).draw[0].mode?.edgeTolerance, StrokeMode.defaultEdgeTolerance)
        XCTAssertEqual(StrokeMode.defaultEdgeTolerance, 32, "docs/script-format.md says 32")
        assertRefused(#""edges": {"tolerance": 256}"#, says: "0 to 255")
    }

    func testAShadowColourArrayIsFourNumbersFromZeroToOne() throws {
        let c = try XCTUnwrap(try parse(#""shadow": {"color": [0, 0, 1, 0.5]}"#).draw[0].mode?.shadow?.color)
        XCTAssertEqual([c.red, c.green, c.blue, c.alpha], [0, 0, 1, 0.5])
        assertRefused(#""shadow": {"color": [0, 0, 1]}"#, says: "[red, green, blue, alpha], 4 numbers from 0 to 1; found 3")
        assertRefused(#""shadow": {"color": [0, 0, 1, -1e-300]}"#, says: "color alpha must be from 0 to 1")
    }

    func testTouchPressureIsCheckedAsRead() {
        let text = #"{"canvas": {"width": 8, "height": 8}, "brushes": {"s": {"builtin": "soft-round"}}, "draw": [{"brush": "s", "points": [{"x": 1, "y": 1, "t": 0, "pressure": 1.00000001}]}]}"#
        XCTAssertThrowsError(try Script.parse(bytes: Array(text.utf8), path: "p.json", directory: "/tmp")) { error in
            XCTAssertTrue("\(error)".contains("pressure of touch sample 1 must be from 0 to 1"), "\(error)")
        }
    }
}
