import CStipple
import Foundation
@testable import Stipple
import XCTest

/// Output that a size cannot blow up: one image in memory has a budget and the error names
/// the streaming call; the streamed PNG equals the image and frees its tile target; a band
/// writer (Swift and C) refuses a stream that is closed instead of reading through it.
final class StreamingOutputTests: XCTestCase {
    func testAWriterRefusesRowsOnceAbandonedOrFinished() throws {
        let dir = try TestSupport.temporaryDirectory(self, "band-writer")
        let abandoned = try PNGBandWriter(path: dir.appendingPathComponent("a.png").path, width: 2, height: 1)
        abandoned.abandon()
        var rows = [UInt8](repeating: 255, count: 8)
        XCTAssertThrowsError(try abandoned.write(premultiplied: &rows)) { XCTAssertTrue("\($0)".contains("already finished or abandoned"), "\($0)") }
        XCTAssertThrowsError(try abandoned.finish()) { XCTAssertTrue("\($0)".contains("already finished or abandoned"), "\($0)") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("a.png").path))

        let finished = try PNGBandWriter(path: dir.appendingPathComponent("b.png").path, width: 2, height: 1)
        try finished.write(premultiplied: &rows)
        try finished.finish()
        XCTAssertThrowsError(try finished.write(premultiplied: &rows))
        XCTAssertThrowsError(try finished.finish())
        XCTAssertEqual(try PNGFile.read(path: dir.appendingPathComponent("b.png").path).image.width, 2)
    }

    func testTheCStreamRefusesANullStream() {
        var err = [CChar](repeating: 0, count: 256)
        let rows = [UInt8](repeating: 0, count: 16)
        XCTAssertEqual(stp_png_stream_write_rows(nil, rows, 1, &err, err.count), -1)
        XCTAssertEqual(String(cBuffer: err), "the PNG stream is closed")
        err = [CChar](repeating: 0, count: 256)
        XCTAssertEqual(stp_png_stream_close(nil, 1, &err, err.count), -1, "no PNG to finish")
        XCTAssertEqual(String(cBuffer: err), "the PNG stream is closed")
        XCTAssertEqual(stp_png_stream_close(nil, 0, nil, 0), 0, "nothing to free")
    }

    func testOneImageInMemoryHasABudgetThatNamesTheStreamingCall() async throws {
        let renderer = try Renderer()
        for (w, h) in [(65536, 65536), (16385, 16384), (65536, 4097)] {
            let script = Script(path: "huge.json", directory: "/", canvas: CanvasSpec(width: w, height: h))
            let scene = try Scene(script: script)
            do {
                _ = try await renderer.render(scene, frame: 0)
                XCTFail("\(w)×\(h) rendered into memory")
            } catch {
                XCTAssertTrue("\(error)".contains("Renderer.writePNG(_:frame:to:)"), "\(error)")
                XCTAssertTrue("\(error)".contains("\(w)×\(h) canvas"), "\(error)")
            }
        }
        XCTAssertEqual(Renderer.maxImagePixels, 16384 * 16384)
    }

    func testAStreamedPNGIsTheImageAndFreesItsTileTarget() async throws {
        let renderer = try Renderer()
        try TileTestSupport.requireTranslationInvariantDriver(renderer)
        let dir = try TestSupport.temporaryDirectory(self, "write-png")
        let path = dir.appendingPathComponent("s.json").path
        try Data(NumberInputTests.strokes.replacingOccurrences(of: "\"width\": 32, \"height\": 32", with: "\"width\": 100, \"height\": 70").utf8)
            .write(to: URL(fileURLWithPath: path))
        let scene = try Scene.load(path: path)
        let whole = try await renderer.render(scene, frame: 40)
        for tile in [16, 33, nil] {
            let out = dir.appendingPathComponent("out-\(tile ?? 0).png").path
            try await renderer.writePNG(scene, frame: 40, to: out, tile: tile)
            let holds = await renderer.holdsTileTarget
            XCTAssertFalse(holds, "the tile target is freed once the PNG is written")
            XCTAssertEqual(try PNGFile.read(path: out).image.pixels, whole.pixels, "tile \(tile ?? 0)")
        }
        // A failure frees it too: the PNG's folder is missing.
        do {
            try await renderer.writePNG(scene, frame: 40, to: dir.appendingPathComponent("no/such.png").path, tile: 16)
            XCTFail("wrote into a missing folder")
        } catch {}
        let holds = await renderer.holdsTileTarget
        XCTAssertFalse(holds)
    }

    func testATileLargerThanTheDriverHoldsIsRefused() throws {
        let f = try CLIFolder(self, "tile-limit")
        try f.write("s.json", NumberInputTests.strokes)
        let renderer = try Renderer()
        let side = renderer.info.maxCanvasSide, most = min(side.width, side.height)
        try f.assertRefused(["render", "s.json", "-o", "x.png", "--tile", "\(most + 1)"], status: 64,
                            saysAll: ["--tile \(most + 1) is larger than this driver holds", "at most \(most) pixels a side"])
        let ok = try f.run(["render", "s.json", "-o", "x.png", "--tile", "\(most)"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
    }
}
