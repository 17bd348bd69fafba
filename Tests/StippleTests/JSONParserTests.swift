import Foundation
import XCTest
@testable import Stipple

final class JSONParserTests: XCTestCase {
    private func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8), file: "t.json")
    }

    /// Asserts that `bytes` fail to parse with exactly `line:column: message`.
    private func assertError(_ bytes: [UInt8], _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            _ = try JSONParser.parse(bytes, file: "t.json")
            XCTFail("parsed, expected error \(expected)", file: file, line: line)
        } catch {
            XCTAssertEqual(error.description, "t.json:" + expected, file: file, line: line)
        }
    }

    private func assertError(_ text: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        assertError(Array(text.utf8), expected, file: file, line: line)
    }

    // MARK: Valid documents

    func testScalars() throws {
        guard case .null = try parse("null").kind else { return XCTFail() }
        guard case .bool(true) = try parse(" true ").kind else { return XCTFail() }
        guard case .bool(false) = try parse("false").kind else { return XCTFail() }
        guard case let .string(s) = try parse(#""héllo""#).kind else { return XCTFail() }
        XCTAssertEqual(s, "héllo")
    }

    func testNumbers() throws {
        let cases: [(String, Double)] = [
            ("0", 0), ("-0", -0.0), ("7", 7), ("-12", -12), ("1.5", 1.5), ("0.1", 0.1), ("1e3", 1000),
            ("1E+2", 100), ("2.5e-3", 0.0025), ("123456789012345678", 1.2345678901234568e17),
            ("9007199254740993", 9007199254740992), ("1e-999", 0),
        ]
        for (text, expected) in cases {
            guard case let .number(v, literal) = try parse(text).kind else { XCTFail(text); continue }
            XCTAssertEqual(v, expected, text)
            XCTAssertEqual(literal, text)
        }
        guard case let .number(negZero, _) = try parse("-0").kind else { return XCTFail() }
        XCTAssertEqual(negZero.sign, .minus)
    }

    func testObjectsKeepKeyOrderAndLocations() throws {
        let text = """
        {
          "b": 1,
            "a": [true, {"x": null}],
        "c": "s"
        }
        """
        let root = try parse(text)
        XCTAssertEqual(root.location, .text(line: 1, column: 1))
        guard case let .object(members) = root.kind else { return XCTFail() }
        XCTAssertEqual(members.map(\.key), ["b", "a", "c"])
        XCTAssertEqual(members.map(\.keyLocation), [.text(line: 2, column: 3), .text(line: 3, column: 5), .text(line: 4, column: 1)])
        XCTAssertEqual(members.map(\.value.location), [.text(line: 2, column: 8), .text(line: 3, column: 10), .text(line: 4, column: 6)])
        guard case let .array(items) = members[1].value.kind else { return XCTFail() }
        XCTAssertEqual(items.map(\.location), [.text(line: 3, column: 11), .text(line: 3, column: 17)])
        XCTAssertEqual(items[1]["x"]?.keyLocation, .text(line: 3, column: 18))
        XCTAssertEqual(items[1]["x"]?.value.location, .text(line: 3, column: 23))
    }

    func testColumnsCountUnicodeScalarsNotBytes() throws {
        // "é" is 2 bytes and "😀" 4, but each is one column.
        guard case let .array(items) = try parse("[\"é😀\", 2]").kind else { return XCTFail() }
        XCTAssertEqual(items[1].location, .text(line: 1, column: 8))
    }

    func testCRLFAndLoneCRAreLineBreaks() throws {
        guard case let .array(items) = try parse("[1,\r\n 2,\r  3]").kind else { return XCTFail() }
        XCTAssertEqual(items.map(\.location), [.text(line: 1, column: 2), .text(line: 2, column: 2), .text(line: 3, column: 3)])
    }

    func testByteOrderMarkIsSkipped() throws {
        let root = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8), file: "t.json")
        XCTAssertEqual(root.location, .text(line: 1, column: 1))
    }

    func testEscapesAndSurrogatePairs() throws {
        guard case let .string(s) = try parse(#""a\"\\\/\b\f\n\r\t\u00e9\uD83D\uDE00z""#).kind else { return XCTFail() }
        XCTAssertEqual(s, "a\"\\/\u{08}\u{0C}\n\r\té😀z")
    }

    func testEmptyContainers() throws {
        guard case let .array(items) = try parse("[ [ ] , { } ]").kind else { return XCTFail() }
        guard case .array(let a) = items[0].kind, a.isEmpty, case .object(let o) = items[1].kind, o.isEmpty else {
            return XCTFail()
        }
    }

    func testNesting512IsAllowed() throws {
        _ = try parse(String(repeating: "[", count: 512) + String(repeating: "]", count: 512))
    }

    // MARK: Errors

    func testStructureErrors() {
        assertError("", "1:1: expected a JSON value, found the end of the file")
        assertError("  \n  ", "2:3: expected a JSON value, found the end of the file")
        assertError(#"{"a": 1 "b": 2}"#, #"1:9: expected ',' or '}' after an object member, found '"'"#)
        assertError("[1 2]", "1:4: expected ',' or ']' after an array element, found '2'")
        assertError("[1", "1:3: expected ',' or ']' after an array element, found the end of the file")
        assertError(#"{"a" 1}"#, #"1:6: expected ':' after the object key "a", found '1'"#)
        assertError("{1: 2}", "1:2: expected a string key or '}', found '1'")
        assertError(#"{"a": 1, 2}"#, "1:10: expected a string key after ',', found '2'")
        assertError("{'a': 1}", "1:2: expected a string key or '}'; JSON strings use double quotes")
        assertError("[1,]", "1:4: trailing comma: expected another array element after ','")
        assertError("{\"a\":1,\n }", "2:2: trailing comma: expected another object member after ','")
        assertError("[1] x", "1:5: unexpected 'x' after the JSON value; expected the end of the file")
        assertError("{} {}", "1:4: unexpected '{' after the JSON value; expected the end of the file")
        assertError("[+1]", "1:2: unexpected '+'; expected a value (object, array, string, number, true, false or null)")
        assertError("[True]", "1:2: unexpected 'True'; JSON literals are lower case: true")
        assertError("[nul]", "1:2: unexpected 'nul'; expected a value (object, array, string, number, true, false or null)")
        assertError("// note\n{}", "1:1: comments are not allowed in JSON")
        assertError("['a']", "1:2: JSON strings use double quotes, not '")
    }

    func testDuplicateKeysAreErrorsAtTheSecondKey() {
        assertError("{\"a\": 1,\n  \"a\": 2}", #"2:3: duplicate key "a" in this object (first at 1:2)"#)
        // Past the size where the parser switches to a set of keys.
        let many = (0..<20).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        assertError("{\(many),\"k3\":0}", #"1:\#(many.count + 3): duplicate key "k3" in this object (first at 1:26)"#)
    }

    func testNonFiniteNumbers() {
        assertError("[NaN]", "1:2: NaN is not a JSON number: numbers must be finite")
        assertError("[1, Infinity]", "1:5: Infinity is not a JSON number: numbers must be finite")
        assertError("[1, -Infinity]", "1:5: -Infinity is not a JSON number: numbers must be finite")
        assertError("[inf]", "1:2: inf is not a JSON number: numbers must be finite")
        assertError("{\"x\": 1e999}", "1:7: number 1e999 is out of range; expected a finite number (this overflows a 64-bit float)")
        assertError("[-2.5E400]", "1:2: number -2.5E400 is out of range; expected a finite number (this overflows a 64-bit float)")
    }

    func testMalformedNumbers() {
        assertError("[01]", "1:2: numbers may not have leading zeros")
        assertError("[-01]", "1:3: numbers may not have leading zeros")
        assertError("-", "1:2: expected a digit after '-', found the end of the file")
        assertError("[-a]", "1:3: expected a digit after '-'")
        assertError("[1.]", "1:4: expected a digit after the decimal point, found ']'")
        assertError("[1e]", "1:4: expected a digit in the exponent, found ']'")
        assertError("[1e+]", "1:5: expected a digit in the exponent, found ']'")
        assertError("[.5]", "1:2: unexpected '.'; expected a value (object, array, string, number, true, false or null)")
    }

    func testStringErrors() {
        assertError(#"["abc"#, "1:2: unterminated string: no closing '\"' before the end of the file")
        assertError(#"["abc\"#, "1:6: unterminated string: no closing '\"' before the end of the file")
        assertError(#"["a\qb"]"#, #"1:4: invalid escape \q; expected one of \" \\ \/ \b \f \n \r \t \uXXXX"#)
        assertError(#"["\u12G4"]"#, #"1:3: invalid escape: \u needs 4 hex digits"#)
        assertError(#"["\u12"]"#, #"1:3: invalid escape: \u needs 4 hex digits"#)
        assertError(#"["x\uD800"]"#, #"1:4: unpaired surrogate \uD800: expected a low surrogate \uDC00...\uDFFF after it"#)
        assertError(#"["\uD800\u0041"]"#, #"1:3: unpaired surrogate \uD800: expected a low surrogate \uDC00...\uDFFF after it"#)
        assertError(#"["\uDC00"]"#, #"1:3: unpaired surrogate \uDC00: a low surrogate needs a high surrogate before it"#)
        assertError("[\"a\tb\"]", #"1:4: control character U+0009 in a string; write it as \t"#)
        assertError("[\"ab\ncd\"]", #"1:2: unterminated string: no closing '"' before the end of the line (a line break inside a string is written \n)"#)
        assertError("[\"a\u{01}\"]", #"1:4: control character U+0001 in a string; write it as \u0001"#)
    }

    func testInvalidUTF8NamesTheLineAndColumn() {
        let prefix = Array("{\"k\":\n \"é".utf8)
        assertError(prefix + [0xFF, 0x22, 0x7D], "2:4: invalid UTF-8: byte 0xFF does not start a valid sequence")
        // Truncated sequence, overlong form, encoded surrogate, beyond U+10FFFF.
        assertError(Array("[\"".utf8) + [0xC3, 0x22, 0x5D], "1:3: invalid UTF-8: byte 0xC3 does not start a valid sequence")
        assertError(Array("[\"".utf8) + [0xC0, 0xAF, 0x22, 0x5D], "1:3: invalid UTF-8: byte 0xC0 does not start a valid sequence")
        assertError(Array("[\"".utf8) + [0xED, 0xA0, 0x80, 0x22, 0x5D], "1:3: invalid UTF-8: byte 0xED does not start a valid sequence")
        assertError(Array("[\"".utf8) + [0xF4, 0x90, 0x80, 0x80, 0x22, 0x5D], "1:3: invalid UTF-8: byte 0xF4 does not start a valid sequence")
        // Outside a string.
        assertError(Array("[1, ".utf8) + [0xFE, 0x5D], "1:5: unexpected byte 0xFE, which is not valid UTF-8; expected a value (object, array, string, number, true, false or null)")
    }

    func testNestingDeeperThan512IsRefused() {
        let text = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        assertError(text, "1:513: nesting deeper than 512 levels")
        let objects = String(repeating: "{\"a\":", count: 513) + "1" + String(repeating: "}", count: 513)
        assertError(objects, "1:\(512 * 5 + 1): nesting deeper than 512 levels")
    }

    func testLargeFlatArrayParsesQuickly() throws {
        // A long single line: column tracking must stay linear.
        let stamp = "[10.5, 20, 4, 0, 1.57, 1, 0.2, 0.1, 1]"
        let text = "[" + Array(repeating: stamp, count: 20_000).joined(separator: ",") + "]"
        let start = Date()
        guard case let .array(items) = try parse(text).kind else { return XCTFail() }
        XCTAssertEqual(items.count, 20_000)
        XCTAssertEqual(items.last?.location, .text(line: 1, column: 2 + 19_999 * (stamp.count + 1)))
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
    }
}
