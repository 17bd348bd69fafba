import Foundation
import XCTest

/// Runs the real `stipple` in a fresh folder for the hardening tests: every bad
/// input is one line on stderr, a non-zero exit, and no file written or changed.
struct CLIFolder {
    let dir: URL

    init(_ test: XCTestCase, _ name: String) throws {
        dir = try TestSupport.temporaryDirectory(test, name)
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }

    func fifo(_ name: String) -> String {
        let p = path(name)
        mkfifo(p, 0o644)
        return p
    }

    func run(_ arguments: [String], timeout: TimeInterval = 60) throws -> TestSupport.Run {
        try TestSupport.stipple(arguments, in: dir)
    }

    /// Every file under the folder and its bytes (hidden ones too); FIFOs are listed, not read.
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let base = dir.standardizedFileURL.resolvingSymlinksInPath().path
        let walker = FileManager.default.enumerator(atPath: base)
        while let relative = walker?.nextObject() as? String {
            let p = base + "/" + relative
            var info = stat()
            guard lstat(p, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFREG: files[relative] = try Data(contentsOf: URL(fileURLWithPath: p))
            case S_IFDIR: files[relative + "/"] = Data()
            default: files[relative + "|special"] = Data()
            }
        }
        return files
    }

    /// Refused: `status`, nothing on stdout, one line on stderr holding every part, nothing changed.
    func assertRefused(_ arguments: [String], status: Int32 = 2, saysAll parts: [String],
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try snapshot()
        let run = try self.run(arguments)
        let context = "stipple \(arguments.joined(separator: " "))\nstderr: \(run.stderr)"
        XCTAssertEqual(run.status, status, context, file: file, line: line)
        XCTAssertEqual(run.stdout, "", context, file: file, line: line)
        XCTAssertTrue(run.stderr.hasPrefix("stipple: error: ") && run.stderr.filter { $0 == "\n" }.count == 1
                      && run.stderr.hasSuffix("\n"), "one line: \(context)", file: file, line: line)
        for part in parts {
            XCTAssertTrue(run.stderr.contains(part), "expected \"\(part)\" in: \(context)", file: file, line: line)
        }
        XCTAssertEqual(try snapshot(), before, "files changed: \(context)", file: file, line: line)
    }
}
