import Foundation
import XCTest
@testable import Stipple

final class QuickDrawReaderTests: XCTestCase {
    func testRawDrawingKeepsTimeInSeconds() throws {
        let d = try InkImport.drawing(path: InkFiles.fixture("raw.ndjson"))
        XCTAssertEqual(d.name, "1000000000000001")
        XCTAssertEqual(d.strokes.count, 2)
        XCTAssertEqual(d.strokes[0].points.map(\.x), [10, 40, 80, 120])
        XCTAssertEqual(d.strokes[1].points.map { $0.t! }, [0.9, 1.3])
        XCTAssertNil(d.frame)  // raw drawings are in screen pixels, no 256 box
    }

    func testLinesAndSelection() throws {
        let path = InkFiles.fixture("mixed.ndjson")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let lines = QuickDrawReader.lines(bytes)
        // The blank third line is not a drawing, but lines keep their numbers.
        XCTAssertEqual(lines.map(\.number), [1, 2, 4, 5, 6, 7])
        XCTAssertEqual(try InkImport.drawing(path: path, selection: .init(index: 5)).name, "6")
        XCTAssertEqual(try InkImport.drawing(path: path, selection: .init(key: "2")).strokes.count, 2)
        XCTAssertTrue(InkFiles.error { _ = try InkImport.drawing(path: path) }.contains("holds 6 drawings; pick one with --index N"))
        XCTAssertTrue(InkFiles.error { _ = try InkImport.drawing(path: path, selection: .init(index: 6)) }.contains("--index 6 is past the file's 6 drawings"))
        XCTAssertTrue(InkFiles.error { _ = try InkImport.drawing(path: path, selection: .init(key: "99")) }.contains("no drawing has key_id 99"))
        XCTAssertTrue(InkFiles.error { _ = try InkImport.drawing(path: InkFiles.fixture("ugly.inkml"), selection: .init(index: 0)) }
            .contains("an InkML file is one drawing"))
    }

    func testBadLinesAreErrorsAtTheirLineAndColumn() throws {
        let path = InkFiles.fixture("mixed.ndjson")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let lines = QuickDrawReader.lines(bytes)
        let message = { (i: Int) in InkFiles.error { _ = try QuickDrawReader.drawing(bytes, line: lines[i], file: "mixed.ndjson") } }
        XCTAssertEqual(message(2), "mixed.ndjson:4:33: stroke 1 has 2 x values but 1 y values")
        XCTAssertTrue(message(3).hasPrefix("mixed.ndjson:5:15: "), message(3))
        // An empty drawing is not an error: a blank picture.
        XCTAssertEqual(try QuickDrawReader.drawing(bytes, line: lines[4], file: "m").strokes.count, 0)
    }

    func testRealSimplifiedDrawingsReadWhole() throws {
        let path = try InkFiles.real("quickdraw/monkey_simplified_1000.ndjson")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let lines = QuickDrawReader.lines(bytes)
        XCTAssertEqual(lines.count, 1000)
        var degenerate = 0, keys = Set<String>()
        for line in lines {
            let d = try QuickDrawReader.drawing(bytes, line: line, file: path)
            keys.insert(d.name!)
            XCTAssertTrue(d.strokes.allSatisfy { $0.points.allSatisfy { (0...255).contains($0.x) && (0...255).contains($0.y) && $0.t == nil } })
            degenerate += d.strokes.filter { s in s.points.allSatisfy { $0 == s.points[0] } }.count
        }
        XCTAssertEqual(keys.count, 1000)
        XCTAssertEqual(degenerate, 465)
    }

    /// An independent reading of the same lines with Foundation's JSON parser.
    func testRealDrawingsMatchFoundationsReading() throws {
        for name in ["simplified_cat.ndjson", "simplified_The_Mona_Lisa.ndjson", "simplified_snowflake.ndjson"] {
            let path = try InkFiles.real("quickdraw/" + name)
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            for line in QuickDrawReader.lines(bytes) {
                let json = try JSONSerialization.jsonObject(with: Data(bytes[line.range])) as! [String: Any]
                let strokes = json["drawing"] as! [[[Double]]]
                let d = try QuickDrawReader.drawing(bytes, line: line, file: path)
                XCTAssertEqual(d.name, json["key_id"] as? String)
                XCTAssertEqual(d.strokes.map { $0.points.map(\.x) }, strokes.map { $0[0] })
                XCTAssertEqual(d.strokes.map { $0.points.map(\.y) }, strokes.map { $0[1] })
            }
        }
    }
}
