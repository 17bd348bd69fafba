import Foundation
import XCTest
@testable import Stipple

/// Brush modes through scripts: the edge reference is taken at the stroke's birth frame and
/// kept; the command line renders, describes and lists stamps of scripts with the keys.
final class ModeScriptTests: XCTestCase {
    private var fx: ScriptFixture!

    override func setUpWithError() throws { fx = try ScriptFixture() }
    override func tearDown() { fx = nil }

    /// A blue stroke born at frame 5 over the point where a red "detect edges" stroke,
    /// drawn after it and born at frame 0, starts.
    private let text = """
        { "canvas": { "width": 40, "height": 20, "background": "#ffffff" }, "fps": 30,
          "brushes": { "dot": { "builtin": "hard-round" } },
          "draw": [
            { "brush": "dot", "color": "#0000ff", "radius": 4, "points": [{ "x": 4, "y": 10, "t": 0.2 }, { "x": 12, "y": 10, "t": 0.2 }] },
            { "brush": "dot", "color": "#ff0000", "radius": 3, "edges": { "tolerance": 8 },
              "points": [{ "x": 6, "y": 10, "t": 0 }, { "x": 34, "y": 10, "t": 0 }] }
          ] }
        """

    func testEdgeReferenceIsTakenAtTheBirthFrame() async throws {
        let scene = try Scene(script: try fx.parse(text))
        let renderer = try Renderer()
        let late = try await renderer.render(scene, frame: 10)
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { let i = (y * 40 + x) * 4; return Array(late.pixels[i..<i + 4]) }
        // Born on white: it paints white pixels red and leaves the blue stroke (drawn later in time) alone.
        XCTAssertEqual(pixel(8, 10), [0, 0, 255, 255])
        XCTAssertEqual(pixel(25, 10), [255, 0, 0, 255])
        let early = try await renderer.render(scene, frame: 0)
        XCTAssertEqual(Array(early.pixels[(10 * 40 + 8) * 4..<(10 * 40 + 8) * 4 + 4]), [255, 0, 0, 255])
    }

    func testCommandLineTakesTheKeys() throws {
        let script = fx.write(text, to: "modes.json")
        let png = fx.folder + "/out.png"
        let render = try TestSupport.stipple(["render", script, "-o", png, "--frame", "10"])
        XCTAssertEqual(render.status, 0, render.stderr)
        let frames = try TestSupport.stipple(["render", script, "-o", fx.folder + "/frames", "--frames", "9...10"])
        XCTAssertEqual(frames.status, 0, frames.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: png)),
                       try Data(contentsOf: URL(fileURLWithPath: fx.folder + "/frames/frame-0010.png")))
        let describe = try TestSupport.stipple(["describe", script])
        XCTAssertTrue(describe.stdout.contains("stroke layer  draw entry 2: blend over, edges tolerance 8"), describe.stdout)
        let stamps = try TestSupport.stipple(["stamps", script, "--frame", "10", "-o", fx.folder + "/s.sketchpoints"])
        XCTAssertEqual(stamps.status, 0, stamps.stderr)
    }
}

extension ModeScriptTests {
    /// Resident layers made from a scene (what video output and sequences draw from) carry the
    /// modes: frames drawn from them equal frames drawn from the scene.
    func testLayersFromASceneDrawTheirModes() async throws {
        let scene = try Scene(script: try fx.parse(text))
        let renderer = try Renderer()
        let layers = try await scene.makeLayers(on: renderer)
        for n in 0...10 {
            let fromLayers = try await renderer.renderLayers(layers, canvas: scene.canvas, frame: n,
                                                             settings: RenderSettings(effects: scene.effects))
            let fromScene = try await renderer.render(scene, frame: n)
            XCTAssertEqual(fromLayers, fromScene, "frame \(n)")
        }
    }
}
