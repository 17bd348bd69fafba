import Foundation
import Stipple
import XCTest

/// docs/reference.md §8 through the real command line: every bad input gives exit status 2 (64 for a
/// usage error), exactly one line on stderr naming the file, the place (line:column in a
/// script, the byte offset in a .sketchpoints file) and what was expected, and writes
/// nothing: no output, no temporary file, and an output path that already existed keeps
/// its bytes. Each case runs twice, once without the output and once over a sentinel.
///
/// The shared machinery: BadInputTests and BadCommandLineTests derive from it.
class BadInputTestCase: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = try TestSupport.temporaryDirectory(self, "badinput")
    }


    // MARK: Helpers

    /// A script with one builtin brush and one draw entry whose `stamps` is `stamps`
    /// (one inline stamp, wrapped in the list, unless `wrapped` is false). The stamp's
    /// first number is on line 4, column 43.
    func stampScript(_ stamps: String, wrapped: Bool = true) -> String {
        """
        {
          "canvas": { "width": 8, "height": 8 },
          "brushes": { "dot": { "builtin": "hard-round" } },
          "draw": [ { "brush": "dot", "stamps": \(wrapped ? "[\(stamps)]" : stamps) } ]
        }
        """
    }

    /// A script with a brush "soft" from soft.png (its path is on line 3, column 24).
    func brushScript() -> String {
        """
        {
          "canvas": { "width": 8, "height": 8 },
          "brushes": { "soft": "soft.png" },
          "draw": [ { "brush": "soft", "stamps": [[4, 4, 2, 0, 0, 1, 0, 0, 1]] } ]
        }
        """
    }

    func write(_ name: String, _ text: String) throws {
        try write(name, Data(text.utf8))
    }

    func write(_ name: String, _ data: Data) throws {
        try data.write(to: dir.appendingPathComponent(name))
    }

    func writeRecords(_ name: String, _ floats: [Float]) throws {
        try write(name, floats.withUnsafeBytes { Data($0) })  // little-endian on every platform we run on
    }

    @discardableResult
    func writePNG(_ name: String, width: Int, height: Int) throws -> [UInt8] {
        let png = try PNGFile.encode(Image(width: width, height: height, fill: Color(red: 1, green: 0, blue: 0, alpha: 1)))
        try write(name, Data(png))
        return png
    }

    /// Every file under the test folder (hidden ones too, so a stray temporary shows) and its bytes.
    func snapshot() throws -> [String: Data] {
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

    /// Runs `stipple arguments` in the test folder and asserts docs/reference.md §8: the exit `status`,
    /// one line on stderr that is exactly `stipple: error: <says>` (or contains each of
    /// `saysAll`), nothing on stdout, and no file written, changed or left behind. When
    /// `output` is given, runs once with it absent and, if `sentinel`, once over a sentinel.
    func assertRefused(_ arguments: [String], output: String?, sentinel: Bool = true, status: Int32 = 2,
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
