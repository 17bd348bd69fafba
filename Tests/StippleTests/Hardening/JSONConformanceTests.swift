import Foundation
import XCTest
@testable import Stipple

/// A seed corpus in the style of JSONTestSuite (written here, not downloaded): y_ documents
/// must parse, n_ documents must be refused with an InputError at a line and column, i_
/// documents may go either way; none may crash or hang. Also the seeds a fuzzer for the
/// script decoder, `.sketchpoints` and the PNG reader would start from: none may crash.
final class JSONConformanceTests: XCTestCase {
    static let accepted: [(String, String)] = [
        ("y_array_empty", "[]"), ("y_object_empty", "{}"), ("y_number_0", "[0]"),
        ("y_number_negative_zero", "[-0]"), ("y_number_real_exponent", "[1.5e+10]"),
        ("y_number_capital_E", "[1E22]"), ("y_string_unicode_escape", #"["\u00e9"]"#),
        ("y_string_surrogate_pair", #"["\ud83d\ude00"]"#), ("y_string_escapes", #"["\"\\\/\b\f\n\r\t"]"#),
        ("y_structure_nested", #"{"a":[{"b":[1,2,{"c":null}]}]}"#), ("y_literals", "[true,false,null]"),
        ("y_whitespace", " \t\r\n[ 1 , 2 ]\n"), ("y_string_utf8", "[\"日本\"]"),
        ("y_object_duplicate_keys_different", #"{"a":1,"b":2}"#),
    ]
    static let refused: [(String, String)] = [
        ("n_empty", ""), ("n_trailing_comma_array", "[1,]"), ("n_trailing_comma_object", #"{"a":1,}"#),
        ("n_single_quote", "['a']"), ("n_unquoted_key", "{a:1}"), ("n_number_leading_zero", "[012]"),
        ("n_number_plus", "[+1]"), ("n_number_dot_end", "[1.]"), ("n_number_NaN", "[NaN]"),
        ("n_number_infinity", "[Infinity]"), ("n_number_hex", "[0x1]"), ("n_string_control_char", "[\"a\u{01}\"]"),
        ("n_string_bad_escape", #"["\x"]"#), ("n_string_lone_escape_end", #"["\"#), ("n_unclosed_array", "[1"),
        ("n_unclosed_object", #"{"a":1"#), ("n_two_documents", "[] []"), ("n_comment", "[1] // c"),
        ("n_true_capital", "[True]"), ("n_colon_instead_of_comma", "[1:2]"), ("n_lone_surrogate_half", #"["\ud800"]"#),
        ("n_nul_byte", "[\u{0}]"), ("n_deep_nesting", String(repeating: "[", count: 100_000)),
        ("n_number_huge_exponent", "[1e999999]"),
    ]
    static let either: [(String, String)] = [
        ("i_number_tiny", "[1e-999]"), ("i_number_long", "[" + String(repeating: "9", count: 400) + "]"),
        ("i_object_duplicate_key", #"{"a":1,"a":2}"#), ("i_string_noncharacter", #"["\uffff"]"#),
        ("i_bom", "\u{FEFF}[]"),
    ]

    func testAcceptedDocumentsParse() {
        for (name, text) in Self.accepted {
            XCTAssertNoThrow(try JSONParser.parse(Array(text.utf8), file: name), name)
        }
    }

    func testRefusedDocumentsAreInputErrorsAtALineAndColumn() {
        for (name, text) in Self.refused {
            do {
                _ = try JSONParser.parse(Array(text.utf8), file: name)
                XCTFail("\(name) was accepted")
            } catch {
                XCTAssertEqual(error.file, name)
                XCTAssertFalse(error.description.contains("\n"), "one line: \(name)")
            }
        }
    }

    func testImplementationDefinedDocumentsDoNotCrash() {
        for (name, text) in Self.either { _ = try? JSONParser.parse(Array(text.utf8), file: name) }
    }

    func testInvalidUTF8IsRefused() {
        for bytes: [UInt8] in [[0x5B, 0x22, 0xFF, 0x22, 0x5D], [0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D], [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D]] {
            XCTAssertThrowsError(try JSONParser.parse(bytes, file: "utf8"))
        }
    }

    /// Seeds for the script decoder: every mutation of a fixture here is refused or decoded, never a crash.
    func testScriptDecoderSurvivesMutatedFixtures() throws {
        let fixture = try [UInt8](Data(contentsOf: TestSupport.fixtures.appendingPathComponent("scripts/stroke-dot.json")))
        var random = SplitMix64(seed: 13)
        for _ in 0..<300 {
            var bytes = fixture
            for _ in 0..<Int(random.next() % 4 + 1) {
                let i = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[i] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes.remove(at: i)
                default: bytes.insert(Array("9e30-,[]{}\"".utf8)[Int(random.next() % 11)], at: i)
                }
            }
            _ = try? Script.parse(bytes: bytes, path: "m.json", directory: TestSupport.fixtures.appendingPathComponent("scripts").path)
        }
    }

    /// Seeds for `.sketchpoints`: any size and any bytes are refused at a byte or decoded.
    func testSketchPointsSurviveAnyBytes() {
        var random = SplitMix64(seed: 36)
        for n in [0, 1, 35, 36, 37, 72, 360] {
            let bytes = (0..<n).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            _ = try? SketchPointsFile.decode(bytes, path: "s.sketchpoints")
        }
    }
}
