import Foundation
@testable import Stipple
import XCTest

/// A bake's kept sketch lives in its renderer (actor-isolated state, not a shared object
/// promised safe): the handle only shows its figures, and the target is freed when the
/// bake ends, whether it finishes or fails.
final class KeptSketchOwnershipTests: XCTestCase {
    func testABakeFreesItsKeptSketchAndShowsItsFigures() async throws {
        let dir = try TestSupport.temporaryDirectory(self, "kept-owner")
        let video = dir.appendingPathComponent("in.y4m").path
        try NumberInputTests.video(frames: 4).write(to: URL(fileURLWithPath: video))
        let header = try Y4MReader(path: video).header
        let script = try Script.parse(bytes: Array(NumberInputTests.strokes.utf8), path: "s.json", directory: dir.path)
        let renderer = try Renderer()
        let bake = try VideoBake(scene: try Scene(script: script), header: header, renderer: renderer)
        let frames = try await bake.run(reader: try Y4MReader(path: video),
                                        writer: try Y4MWriter(path: dir.appendingPathComponent("out.y4m").path, header: header))
        XCTAssertEqual(frames, 4)
        let held = await renderer.keptSketchCount
        XCTAssertEqual(held, 0, "the kept target is freed after the last frame")
        let layersAfter = await renderer.layerCount
        XCTAssertEqual(layersAfter, 0, "the script's layers are freed after the last frame")
        let kept = try XCTUnwrap(bake.lastKept)
        XCTAssertEqual(kept.framesDrawn, 4)
        XCTAssertGreaterThan(kept.redrawnPixels, 0)

        // A bake that fails part-way (its input is cut inside frame 3) frees it too.
        let cut = dir.appendingPathComponent("cut.y4m").path
        try NumberInputTests.video(frames: 3).dropLast(100).write(to: URL(fileURLWithPath: cut))
        let failing = try VideoBake(scene: try Scene(script: script), header: header, renderer: renderer)
        do {
            _ = try await failing.run(reader: try Y4MReader(path: cut),
                                      writer: try Y4MWriter(path: dir.appendingPathComponent("cut-out.y4m").path, header: header))
            XCTFail("a cut video baked")
        } catch {
            XCTAssertTrue("\(error)".contains("truncated"), "\(error)")
        }
        XCTAssertEqual(try XCTUnwrap(failing.lastKept).framesDrawn, 3, "sketches drawn one ahead of the frames read")
        let after = await renderer.keptSketchCount
        XCTAssertEqual(after, 0, "a failed bake frees its kept target too")
        let layersAfterFailing = await renderer.layerCount
        XCTAssertEqual(layersAfterFailing, 0, "and its layers")
    }

    /// A video of a script (`render --frames all` to y4m) frees the layers it made on its
    /// renderer when it ends: one renderer may make many videos, and none leaves layers behind.
    func testAVideoOfAScriptFreesItsLayers() async throws {
        let dir = try TestSupport.temporaryDirectory(self, "video-layers")
        let script = try Script.parse(bytes: Array(NumberInputTests.strokes.utf8), path: "s.json", directory: dir.path)
        let renderer = try Renderer()
        let video = SceneVideo(scene: try Scene(script: script), settings: RenderSettings())
        for _ in 0..<2 {
            let writer = try Y4MWriter(path: dir.appendingPathComponent("out.y4m").path, header: video.header)
            try await video.run(frames: 0...3, renderer: renderer, writer: writer)
            try writer.finish()
            let held = await renderer.layerCount
            XCTAssertEqual(held, 0, "the scene's layers are freed after the last frame")
        }
    }
}
