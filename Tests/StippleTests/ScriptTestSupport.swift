import Foundation
import XCTest
@testable import Stipple

/// A temporary folder holding a script's neighbours: brush PNGs, a background,
/// `.sketchpoints` files. Only existence matters to the script layer, so the PNGs are dummies.
final class ScriptFixture {
    let folder: String
    let burst = [
        SketchPoint(x: 10, y: 20, radius: 4, age: 0, dissolveAngle: 1.57, red: 1, green: 0.2, blue: 0.1, alpha: 1),
        SketchPoint(x: 30, y: 40, radius: 2, age: -5, dissolveAngle: 0, red: 0, green: 0, blue: 1, alpha: 0.5),
    ]

    init() throws {
        folder = NSTemporaryDirectory() + "stipple-script-" + UUID().uuidString
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder + "/brushes", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        _ = fm.createFile(atPath: folder + "/brushes/soft.png", contents: Data([0x89, 0x50]))
        _ = fm.createFile(atPath: folder + "/bg.png", contents: Data([0x89, 0x50]))
        try SketchPointsFile.write(burst, to: folder + "/burst.sketchpoints")
        _ = fm.createFile(atPath: folder + "/bad.sketchpoints", contents: Data(repeating: 0, count: 40))
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    func write(_ text: String, to name: String) -> String {
        let path = folder + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    /// Parses `text` as the script "s.json" in the fixture's folder.
    func parse(_ text: String) throws(InputError) -> Script {
        try Script.parse(bytes: Array(text.utf8), path: "s.json", directory: folder)
    }

    /// Asserts that `text` is refused with `s.json:LINE:COLUMN: message`, where LINE:COLUMN is
    /// where `marker` (its `occurrence`-th appearance) starts in `text`.
    func assertError(_ text: String, at marker: String, occurrence: Int = 1, _ message: String,
                     file: StaticString = #filePath, line: UInt = #line) {
        guard let where_ = ScriptFixture.location(of: marker, in: text, occurrence: occurrence) else {
            return XCTFail("marker \(marker) not in the text", file: file, line: line)
        }
        do {
            _ = try parse(text)
            XCTFail("parsed, expected: \(message)", file: file, line: line)
        } catch {
            XCTAssertEqual(error.location, where_, file: file, line: line)
            XCTAssertEqual(error.description, "s.json:\(where_): \(message)", file: file, line: line)
        }
    }

    /// Line and column (from 1, counting Unicode scalars) of the n-th `marker` in `text`.
    static func location(of marker: String, in text: String, occurrence: Int = 1) -> InputLocation? {
        var searchStart = text.startIndex
        var found: Range<String.Index>? = nil
        for _ in 0..<occurrence {
            guard let r = text.range(of: marker, range: searchStart..<text.endIndex) else { return nil }
            found = r
            searchStart = r.upperBound
        }
        guard let hit = found else { return nil }
        let before = text[..<hit.lowerBound]
        let lines = before.split(separator: "\n", omittingEmptySubsequences: false)
        return .text(line: lines.count, column: lines.last!.unicodeScalars.count + 1)
    }
}
