import Foundation
import XCTest

/// Every `--help` fits an 80-column terminal, and no example command in it is broken: an
/// example too long for the width continues on the next line after a shell ` \`, so the
/// lines joined back give the command as written.
final class HelpTextTests: XCTestCase {
    static let commands = ["", "render", "bake", "stamps", "describe", "convert", "brush", "compare", "info", "bench", "test", "pyramid-join"]

    func help(_ command: String, columns: Int) throws -> String {
        let run = try TestSupport.stipple((command.isEmpty ? [] : [command]) + ["--help"],
                                          environment: ["COLUMNS": "\(columns)"])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout
    }

    func testEveryHelpFitsEightyColumnsWithExamplesWhole() throws {
        for command in Self.commands {
            let narrow = try help(command, columns: 80)
            let wide = try help(command, columns: 1000)
            for line in narrow.split(separator: "\n") where line.count > 80 {
                XCTFail("stipple \(command) --help: \(line.count) columns: \(line)")
            }
            // Examples, as the wide help shows them, one a line.
            let examples = wide.split(separator: "\n").map(String.init)
                .filter { $0.hasPrefix("  stipple ") }
            if !["", "info", "compare"].contains(command) {
                XCTAssertFalse(examples.isEmpty, "stipple \(command) --help has no example")
            }
            let joined = narrow.replacingOccurrences(of: #" \\\n +"#, with: " ", options: .regularExpression)
            for example in examples {
                XCTAssertTrue(joined.contains(example + "\n"), "stipple \(command) --help breaks: \(example)\n\(narrow)")
            }
        }
    }

    func testTheDefaultIsSaidOnce() throws {
        let text = try help("test", columns: 80)
        XCTAssertEqual(text.components(separatedBy: "(default: .stipple-test)").count - 1, 1, text)
    }

    func testUsageWrapsBetweenOptions() throws {
        for command in ["render", "bake", "compare"] {
            let text = try help(command, columns: 80)
            let usage = text.components(separatedBy: "\n\n").first { $0.hasPrefix("USAGE:") } ?? ""
            XCTAssertGreaterThan(usage.split(separator: "\n").count, 1, "stipple \(command)'s usage fits one line?")
            for line in usage.split(separator: "\n").dropFirst() {
                XCTAssertTrue(line.trimmingCharacters(in: .whitespaces).hasPrefix("["), String(line))
            }
        }
    }
}
