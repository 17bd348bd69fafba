import Foundation
@testable import Stipple
import StippleGolden
import XCTest

/// The fuzz targets' seed corpus (`Fuzz/corpus/<target>/`, with every input a fuzz run found
/// worth keeping, such as the y4m header whose pixel count overflowed) replayed through the
/// same readers in `make test`: each input is read or refused with one escaped line, never a
/// crash. `make fuzz` mutates from the same files.
final class FuzzCorpusTests: XCTestCase {
    private static let corpus = TestSupport.packageRoot.appendingPathComponent("Fuzz/corpus")

    private func inputs(_ target: String) throws -> [URL] {
        let dir = Self.corpus.appendingPathComponent(target)
        let files = try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        XCTAssertFalse(files.isEmpty, "no seeds in \(dir.path)")
        return files
    }

    /// A refusal is a correct answer when it is one line with no raw control character.
    private func assertAnswer(_ error: any Error, _ input: URL, file: StaticString = #filePath, line: UInt = #line) {
        let text = "\(error)"
        XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                       "\(input.lastPathComponent): \(text.debugDescription)", file: file, line: line)
    }

    func testScriptSeeds() throws {
        let fixtures = TestSupport.fixtures.appendingPathComponent("scripts").path
        for input in try inputs("FuzzScript") {
            let bytes = [UInt8](try Data(contentsOf: input))
            do {
                // As the fuzz target: a script that reads is also played at every speed it may pick.
                let script = try Script.parse(bytes: bytes, path: "fuzz.json", directory: fixtures)
                for speed in [Double.leastNonzeroMagnitude, 1e-300, 1e-6, 2e-6, 0.5, 1, 20, 1e300, Double.greatestFiniteMagnitude] {
                    var played = script
                    do { try played.play(atSpeed: speed) } catch { assertAnswer(error, input) }
                }
            } catch {
                assertAnswer(error, input)
            }
        }
    }

    func testSketchPointsSeeds() throws {
        for input in try inputs("FuzzSketchpoints") {
            let bytes = [UInt8](try Data(contentsOf: input))
            do {
                let points = try SketchPointsFile.decode(bytes, path: "fuzz.sketchpoints")
                XCTAssertEqual(SketchPointsFile.encode(points), bytes, input.lastPathComponent)
            } catch { assertAnswer(error, input) }
        }
    }

    func testPNGSeeds() throws {
        for input in try inputs("FuzzPNG") {
            do {
                let image = try PNGFile.read(path: input.path).image
                XCTAssertEqual(image.pixels.count, image.width * image.height * 4, input.lastPathComponent)
            } catch { assertAnswer(error, input) }
        }
    }

    func testTestConfigSeeds() throws {
        for input in try inputs("FuzzTestConfig") {
            do { _ = try GoldenConfig.load(path: input.path, scriptNames: ["a", "b", "demo", "periscope"]) } catch { assertAnswer(error, input) }
        }
    }

    func testY4MSeeds() throws {
        for input in try inputs("FuzzY4M") {
            let bytes = [UInt8](try Data(contentsOf: input))
            let line = bytes.prefix(while: { $0 != 0x0A }).prefix(Y4MHeader.maxLength + 1)
            do { _ = try Y4MHeader.parse(String(decoding: line, as: UTF8.self), file: "fuzz.y4m") } catch { assertAnswer(error, input) }
            let fd = open(input.path, O_RDONLY)
            XCTAssertGreaterThanOrEqual(fd, 0)
            do {
                let reader = try Y4MReader(descriptor: fd, name: "fuzz.y4m", owns: true)
                guard reader.header.frameSize <= 1 << 22 else { continue }
                var frame = Y4MFrame(header: reader.header)
                while try reader.read(into: &frame) {
                    XCTAssertLessThanOrEqual(reader.offset, bytes.count, input.lastPathComponent)
                }
            } catch { assertAnswer(error, input) }
        }
    }

    /// Ink that reads becomes a script that reads (what FuzzInkML and FuzzQuickDraw check).
    private func assertScriptReads(_ drawing: InkDrawing, size: (Int, Int), _ input: URL) {
        var options = InkOptions()
        options.size = size
        let text = InkScriptWriter.json(InkPlan.layout(drawing, options))
        XCTAssertNoThrow(try Script.parse(bytes: Array(text.utf8), path: "fuzz.json", directory: "/"), input.lastPathComponent)
    }

    func testInkMLSeeds() throws {
        for input in try inputs("FuzzInkML") {
            let bytes = [UInt8](try Data(contentsOf: input))
            do {
                let drawing = try InkMLReader.parse(bytes, file: "fuzz.inkml")
                try drawing.check(file: "fuzz.inkml")
                assertScriptReads(drawing, size: (64, 48), input)
            } catch { assertAnswer(error, input) }
        }
    }

    func testQuickDrawSeeds() throws {
        for input in try inputs("FuzzQuickDraw") {
            let bytes = [UInt8](try Data(contentsOf: input))
            for line in QuickDrawReader.lines(bytes) {
                do {
                    let drawing = try QuickDrawReader.drawing(bytes, line: line, file: "fuzz.ndjson")
                    try drawing.check(file: "fuzz.ndjson")
                    assertScriptReads(drawing, size: (28, 28), input)
                } catch { assertAnswer(error, input) }
            }
        }
    }
}
