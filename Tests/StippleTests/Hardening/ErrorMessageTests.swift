import Foundation
import Stipple
import XCTest

/// Unreadable errors: every error is one readable line, whatever the input echoes
/// into it (a megabyte value, invisible bidirectional overrides), and a negative number given
/// to an option is answered about its range, not as a missing value.
final class ErrorMessageTests: XCTestCase {
    func testAMegabyteValueIsCutInTheMiddle() throws {
        let f = try CLIFolder(self, "long-value")
        let value = String(repeating: "x", count: 1_000_000)
        try f.write("b.json", #"{"canvas":{"width":8,"height":8,"background":"\#(value)"},"brushes":{},"draw":[]}"#)
        try f.assertRefused(["render", "b.json", "-o", "out.png"],
                            saysAll: ["b.json:1:", "background must be", "characters left out]"])
        let run = try f.run(["render", "b.json", "-o", "out.png"])
        XCTAssertLessThan(run.stderr.utf8.count, 2_000, "one readable line")
    }

    func testInvisibleFormatCharactersAreEscaped() throws {
        let f = try CLIFolder(self, "bidi")
        // U+202E (right-to-left override) and U+200B (zero-width space) in an unknown key.
        try f.write("k.json", "{\"canvas\":{\"width\":8,\"height\":8},\"brushes\":{},\"draw\":[],\"ab\u{202E}cd\u{200B}\":1}")
        try f.assertRefused(["render", "k.json", "-o", "out.png"], saysAll: [#""ab\u202ecd\u200b""#])
    }

    func testShortenedKeepsShortTextAndCutsLongWords() {
        XCTAssertEqual(InputError.shortened("a short message"), "a short message")
        let word = String(repeating: "a", count: 200) + String(repeating: "b", count: 500) + String(repeating: "c", count: 60)
        XCTAssertEqual(InputError.shortened("see \(word) here"),
                       "see \(String(repeating: "a", count: 200))…[500 characters left out]…\(String(repeating: "c", count: 60)) here")
        let many = Array(repeating: "word", count: 1000).joined(separator: " ")
        XCTAssertTrue(InputError.shortened(many).hasSuffix("… [2999 more characters]"), InputError.shortened(many).suffix(40).description)
    }

    func testASocketIsNamedAsASocket() throws {
        let f = try CLIFolder(self, "socket")
        let path = f.path("s.json")
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try XCTSkipUnless(bound == 0 && path.utf8.count < 100, "cannot bind a socket at \(path)")
        try f.assertRefused(["render", "s.json", "-o", "out.png"], saysAll: ["s.json: is a socket, not a regular file"])
    }

    func testSummaryLinesEscapeTheOutputPath() throws {
        let f = try CLIFolder(self, "summary-escape")
        try f.write("s.json", OutputSafetyMoreTests.script)
        let run = try f.run(["render", "s.json", "-o", "a\nb\u{1B}[31m\u{202E}.png"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix(#"a\nb\u001b[31m\u202e.png: frame 0 of s.json"#), run.stderr)
    }

    func testAnUnknownRecordModeIsNamed() throws {
        let f = try CLIFolder(self, "record-mode")
        try FileManager.default.createDirectory(at: f.dir.appendingPathComponent("T"), withIntermediateDirectories: true)
        try f.assertRefused(["test", "T", "--record", "sometimes"], status: 64,
                            saysAll: [#"got 2: "T", "sometimes""#, "--record's modes are missing, failed, all and never"])
    }

    func testNegativeOptionValuesAreAnsweredAboutTheirRange() throws {
        let f = try CLIFolder(self, "negative-options")
        try f.assertRefused(["compare", "a.png", "b.png", "--max-channel-diff", "-1"], status: 64,
                            saysAll: ["--max-channel-diff from 0 to 255"])
        try f.assertRefused(["compare", "a.png", "b.png", "--max-pixels", "-1"], status: 64, saysAll: ["'-1' is invalid for '--max-pixels"])
        try f.assertRefused(["compare", "a.png", "b.png", "--perceptual", "-0.1"], status: 64, saysAll: ["--perceptual from 0 to 1"])
        try f.assertRefused(["brush", "soft-round", "--size", "-4", "-o", "b.png"], status: 64, saysAll: ["--size from 1 to 4096 (got -4)"])
        try f.assertRefused(["test", f.dir.path, "--shard", "-1/2"], status: 64, saysAll: ["got -1/2"])
    }
}
