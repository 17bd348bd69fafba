import Foundation
import XCTest
@testable import Stipple

/// A pyramid written in parts and joined is the one-run pyramid, file for file and byte for
/// byte: any number of parts (more than rows of tiles too), both layouts, odd sizes; a join
/// with a part missing writes nothing.
final class PyramidPartsTests: XCTestCase {
    /// Every file under `root` with its bytes.
    private func files(_ root: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: root) {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isFolder)
            if !isFolder.boolValue { out[name] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + name)) }
        }
        return out
    }

    func testPartsJoinedAreTheWholeRun() async throws {
        let r = try Renderer()
        try TileTestSupport.requireTranslationInvariantDriver(r)
        let dir = try TestSupport.temporaryDirectory(self, "pyramid-parts")
        var scene = try Scene(script: Script.load(path: TestSupport.fixtures.appendingPathComponent("scripts/demo.json").path))
        for (width, height) in [(640, 360), (301, 199)] {
            scene.canvas.width = width; scene.canvas.height = height
            for (layout, tileSize) in [(PyramidOptions.Layout.deepZoom, 254), (.deepZoom, 38), (.xyz, 64)] {
                let options = PyramidOptions(layout: layout, tileSize: tileSize)
                let whole = dir.appendingPathComponent("whole-\(width)-\(layout.rawValue)-\(tileSize)").path
                let one = try await r.writePyramid(scene, frame: 30, to: whole, options: options)
                let expected = try files(one.tiles)
                for n in [1, 2, 3, 7] {
                    let path = dir.appendingPathComponent("parts-\(width)-\(layout.rawValue)-\(tileSize)-\(n)").path
                    // Parts in any order.
                    for k in (1...n).reversed() {
                        _ = try await r.writePyramidPart(scene, frame: 30, to: path, part: k, of: n, options: options)
                    }
                    let joined = try Pyramid.join(path, layout: layout)
                    XCTAssertEqual(joined.tileCount, one.tileCount, "\(width)×\(height) \(layout) \(tileSize) in \(n)")
                    let got = try files(joined.tiles)
                    XCTAssertEqual(Set(got.keys), Set(expected.keys), "\(width)×\(height) \(layout) \(tileSize) in \(n): the same files")
                    let differing = got.keys.filter { got[$0] != expected[$0] }.sorted()
                    XCTAssertEqual(differing, [], "\(width)×\(height) \(layout) \(tileSize) in \(n): the same bytes")
                    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: joined.descriptor)),
                                   try Data(contentsOf: URL(fileURLWithPath: one.descriptor)))
                }
            }
        }
    }

    func testAJoinWithAPartMissingWritesNothing() async throws {
        let r = try Renderer()
        let dir = try TestSupport.temporaryDirectory(self, "pyramid-missing")
        let scene = try Scene(script: Script.load(path: TestSupport.fixtures.appendingPathComponent("scripts/demo.json").path))
        let path = dir.appendingPathComponent("p").path
        let options = PyramidOptions(tileSize: 64)
        _ = try await r.writePyramidPart(scene, frame: 0, to: path, part: 1, of: 3, options: options)
        _ = try await r.writePyramidPart(scene, frame: 0, to: path, part: 3, of: 3, options: options)
        XCTAssertThrowsError(try Pyramid.join(path)) { error in
            XCTAssertTrue("\(error)".contains("missing 2"), "\(error)")
        }
        XCTAssertEqual(FileSystem.entry(at: path + ".dzi"), .missing)
        // An odd tile side cannot be split into parts whose rows pair up.
        do {
            _ = try await r.writePyramidPart(scene, frame: 0, to: path, part: 2, of: 3, options: PyramidOptions(tileSize: 63))
            XCTFail("an odd tile side in parts is refused")
        } catch {
            XCTAssertTrue("\(error)".contains("even side"), "\(error)")
        }
    }
}
