import Foundation
import XCTest
@testable import Stipple

final class SketchPointsFileTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "stipple-sp-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private let points = [
        SketchPoint(x: 1, y: -2.5, radius: 4, age: -3, dissolveAngle: 1.57, red: 1, green: 0.2, blue: 0.1, alpha: 1),
        SketchPoint(x: 320, y: 568, radius: 0, age: 110, dissolveAngle: -7, red: 0, green: 0, blue: 0, alpha: 0),
        SketchPoint(x: 1e6, y: 0.125, radius: 300, age: 0, dissolveAngle: 0, red: 0.5, green: 1, blue: 0.75, alpha: 0.5),
    ]

    /// The record of `fields` as little-endian Float32s, built independently of the encoder.
    private func record(_ fields: [Float]) -> [UInt8] {
        fields.flatMap { f -> [UInt8] in
            let b = f.bitPattern
            return [UInt8(b & 0xFF), UInt8(b >> 8 & 0xFF), UInt8(b >> 16 & 0xFF), UInt8(b >> 24)]
        }
    }

    private func assertError(_ bytes: [UInt8], _ expected: InputError, file: StaticString = #filePath, line: UInt = #line) {
        do {
            _ = try SketchPointsFile.decode(bytes, path: "p.sketchpoints")
            XCTFail("decoded, expected \(expected)", file: file, line: line)
        } catch {
            XCTAssertEqual(error, expected, file: file, line: line)
        }
    }

    func testEncodingIsLittleEndianFloat32InSpecOrder() {
        let bytes = SketchPointsFile.encode(points)
        XCTAssertEqual(bytes.count, 3 * 36)
        XCTAssertEqual(bytes, points.flatMap { record($0.fields) })
        XCTAssertEqual(Array(bytes[0..<4]), [0x00, 0x00, 0x80, 0x3F])  // x = 1.0
    }

    func testRoundTrip() throws {
        let bytes = SketchPointsFile.encode(points)
        XCTAssertEqual(try SketchPointsFile.decode(bytes, path: "p.sketchpoints"), points)
        XCTAssertEqual(try SketchPointsFile.decode([], path: "p.sketchpoints"), [])
    }

    func testWriteThenReadBack() throws {
        let path = folder + "/out.sketchpoints"
        try SketchPointsFile.write(points, to: path)
        XCTAssertEqual(try SketchPointsFile.read(path: path), points)
        // Replacing an existing file.
        try SketchPointsFile.write([points[0]], to: path)
        XCTAssertEqual(try SketchPointsFile.read(path: path), [points[0]])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["out.sketchpoints"])
    }

    func testSizeNotAMultipleOf36() {
        assertError([UInt8](repeating: 0, count: 100), InputError(
            file: "p.sketchpoints", location: .byte(72),
            "file size 100 is not a multiple of 36 bytes: 28 bytes left over at byte 72"))
        assertError([UInt8](repeating: 0, count: 5), InputError(
            file: "p.sketchpoints", location: .byte(0),
            "file size 5 is not a multiple of 36 bytes: 5 bytes left over at byte 0"))
        let e = InputError(file: "p.sketchpoints", location: .byte(72), "x")
        XCTAssertEqual(e.description, "p.sketchpoints:byte 72: x")
    }

    func testNonFiniteFieldIsAnErrorAtItsByte() {
        var fields = points[1].fields
        fields[1] = .nan
        assertError(record(points[0].fields) + record(fields), InputError(
            file: "p.sketchpoints", location: .byte(36 + 4),
            "non-finite y nan in stamp 2: every field must be a finite number"))
        fields = points[0].fields
        fields[3] = -.infinity
        assertError(record(fields), InputError(
            file: "p.sketchpoints", location: .byte(12),
            "non-finite age -inf in stamp 1: every field must be a finite number"))
    }

    func testNegativeRadius() {
        var fields = points[2].fields
        fields[2] = -2
        assertError(record(points[0].fields) + record(points[1].fields) + record(fields), InputError(
            file: "p.sketchpoints", location: .byte(72 + 8), "negative radius -2 in stamp 3, expected 0 or more"))
    }

    func testColourOutOfRange() {
        var fields = points[0].fields
        fields[5] = 1.5
        assertError(record(fields), InputError(
            file: "p.sketchpoints", location: .byte(20), "colour out of range: red 1.5 in stamp 1, expected 0...1"))
        fields = points[0].fields
        fields[8] = -0.25
        assertError(record(points[1].fields) + record(fields), InputError(
            file: "p.sketchpoints", location: .byte(36 + 32), "colour out of range: alpha -0.25 in stamp 2, expected 0...1"))
    }

    func testMissingFile() {
        let path = folder + "/none.sketchpoints"
        XCTAssertThrowsError(try SketchPointsFile.read(path: path)) { error in
            XCTAssertEqual(error as? InputError, InputError(file: path, "file not found"))
        }
        XCTAssertThrowsError(try SketchPointsFile.read(path: folder)) { error in
            XCTAssertEqual(error as? InputError, InputError(file: folder, "is a folder, not a file"))
        }
    }

    func testFailedWriteLeavesNothingBehindAndKeepsTheOldFile() throws {
        // A missing folder: nothing is created.
        let missing = folder + "/no/such/out.sketchpoints"
        XCTAssertThrowsError(try SketchPointsFile.write(points, to: missing)) { error in
            XCTAssertEqual(error as? InputError,
                           InputError(file: missing, "cannot write: the folder \(folder)/no/such does not exist"))
        }
        // A target that cannot be replaced (a non-empty folder): it survives, no temp file is left.
        let target = folder + "/keep"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: target + "/inside"))
        XCTAssertThrowsError(try SketchPointsFile.write(points, to: target))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["keep"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: target), ["inside"])
    }
}
