import CStipple
import XCTest
@testable import Stipple

final class RendererTests: XCTestCase {
    /// A context current on its own render thread, for tests of the GL layer's parts.
    private func withGL<T>(_ body: @escaping (GL) throws -> T) throws -> T {
        let context = try GLContext(platform: .automatic)
        let thread = try RenderThread(name: "renderer-tests", setUp: { try context.makeCurrent() },
                                      tearDown: { context.close() })
        defer { thread.stop() }
        let gl = GL(context: context)
        return try thread.sync { try body(gl) }
    }

    func testBrokenShaderErrorNamesTheFileAndCarriesTheDriverLog() throws {
        let sources = ["broken.vert": "#version 100\nattribute vec2 aPosition;\nvoid main() {\n  gl_Position = vec4(aPosition, 0.0) + ;\n}\n"]
        let error = try withGL { gl -> Error? in
            do {
                _ = try ShaderProgram.compile(gl: gl, file: "broken.vert", type: GLenum(GL_VERTEX_SHADER),
                                              defines: [], sources: sources)
                return nil
            } catch { return error }
        }
        let message = "\(error.map { "\($0)" } ?? "no error")"
        XCTAssertTrue(message.hasPrefix("GLSL/broken.vert: compile failed:"), message)
        XCTAssertTrue(message.contains("0:4(") && message.contains("syntax error"), "the driver log, naming line 4: \(message)")
    }

    func testShippedShadersCompileInBothVariants() throws {
        try withGL { gl in
            for defines in [[], ["STIPPLE_QUADS"]] {
                let p = try ShaderProgram(gl: gl, vertex: "sketch.vert", fragment: "sketch.frag", defines: defines)
                XCTAssertNotEqual(p.id, 0)
            }
        }
    }

    func testDefinesGoAfterVersionAndKeepLineNumbers() throws {
        let text = try ShaderProgram.source(file: "a.vert", defines: ["X"], sources: ["a.vert": "#version 100\nvoid main() {}"])
        XCTAssertEqual(text, "#version 100\n#define X 1\n#line 2\nvoid main() {}")
    }

    func testSameBrushIsUploadedOnce() async throws {
        let renderer = try Renderer()
        let brush = Brush.builtin(.softRound, size: 16)
        let batches = [StampBatch(brushKey: "soft", brush: brush, stamps: [SketchPoint(x: 5, y: 5, radius: 3)]),
                       StampBatch(brushKey: "soft", brush: brush, stamps: [SketchPoint(x: 9, y: 9, radius: 3)])]
        let canvas = Canvas(width: 16, height: 16)
        _ = try await renderer.render(canvas: canvas, batches: batches)
        let first = await renderer.statistics()
        _ = try await renderer.render(canvas: canvas, batches: batches)
        let second = await renderer.statistics()
        // One brush texture plus the framebuffer's texture, once; nothing more on the second frame.
        XCTAssertEqual(first.textureUploads, 2)
        XCTAssertEqual(second.textureUploads, 2)
        XCTAssertEqual(second.drawCalls - first.drawCalls, 2, "one draw per batch")
    }

    func testCommonCaseIsOneDrawCall() async throws {
        let renderer = try Renderer()
        let stamps = (0..<500).map { (i: Int) -> SketchPoint in
            let x = Float(10 + i % 40), y = Float(10 + i / 40)
            return SketchPoint(x: x, y: y, radius: 3)
        }
        _ = try await renderer.render(canvas: Canvas(width: 64, height: 64),
                                      batches: [StampBatch(brushKey: "b", brush: .builtin(.hardRound, size: 8), stamps: stamps)])
        let drawCalls = await renderer.statistics().drawCalls
        XCTAssertEqual(drawCalls, 1)
    }

    func testPlannerSendsWideAndOffCanvasStampsToQuadsInOrder() {
        let planner = FramePlanner(effects: AgeEffects(), primitive: .points, maxPointSize: 255,
                                  canvasWidth: 100, canvasHeight: 100, ageOffset: 0)
        let stamps = [SketchPoint(x: 50, y: 50, radius: 4),     // points
                      SketchPoint(x: 50, y: 50, radius: 200),   // wider than 255: quads
                      SketchPoint(x: 51, y: 50, radius: 4),     // points again
                      SketchPoint(x: -5, y: 50, radius: 10),    // centre off the canvas: quads
                      SketchPoint(x: 50, y: 50, radius: 4, age: -1)]  // not born: left out
        var quads: [stp_quad_vertex] = [], runs: [DrawRun] = []
        stamps.withUnsafeBufferPointer { all in
            planner.plan(batch: 0, source: 0, stamps: all, rotations: nil, bufferBase: 0, keepCulledInRuns: false,
                         quads: &quads, runs: &runs)
        }
        XCTAssertEqual(runs, [DrawRun(primitive: .points, batch: 0, source: 0, first: 0, count: 1),
                              DrawRun(primitive: .quads, batch: 0, source: 0, first: 0, count: 1),
                              DrawRun(primitive: .points, batch: 0, source: 0, first: 2, count: 1),
                              DrawRun(primitive: .quads, batch: 0, source: 0, first: 1, count: 1)])
        XCTAssertEqual(quads.count, 12)
    }

    func testCanvasLargerThanTheDriverIsRefused() async throws {
        let renderer = try Renderer()
        let limit = renderer.info.maxCanvasSide
        do {
            _ = try await renderer.render(canvas: Canvas(width: limit.width + 1, height: 4), batches: [])
            XCTFail("expected a RenderError")
        } catch let error as RenderError {
            XCTAssertTrue(error.message.contains("larger than the driver allows"), error.message)
        }
    }

    func testPNGBackgroundComesThroughUnchangedWhenNothingIsDrawn() async throws {
        var px = [UInt8]()
        for i in 0..<(8 * 4) { px += [UInt8(i * 7 % 256), UInt8(i * 13 % 256), UInt8(i * 29 % 256), 255] }
        let background = Image(width: 8, height: 4, pixels: px)
        let image = try await Renderer().render(canvas: Canvas(width: 8, height: 4, background: .image(background)), batches: [])
        XCTAssertEqual(image, background)
    }

    /// One renderer keeps the last background image made ready for a target: frames over
    /// other images of the same size, over a changed copy, and over the first again each
    /// come out over their own image (as a new renderer draws them).
    func testEachFrameStartsFromItsOwnBackgroundImage() async throws {
        func image(_ seed: Int) -> Image {
            var px = [UInt8]()
            for i in 0..<(16 * 9) { px += [UInt8((i * 7 + seed) % 256), UInt8((i * 13 + seed * 3) % 256), UInt8(i * 29 % 256), 255] }
            return Image(width: 16, height: 9, pixels: px)
        }
        let a = image(1), b = image(2)
        var changed = a
        changed.pixels[5 * 4] ^= 0x40  // one pixel of a copy of a
        let stamps = [SketchPoint(x: 8, y: 4.5, radius: 3, age: 0, dissolveAngle: 0, red: 0.2, green: 0.4, blue: 1, alpha: 0.5)]
        let renderer = try Renderer()
        for (k, background) in [a, b, changed, a, a, b].enumerated() {
            let canvas = Canvas(width: 16, height: 9, background: .image(background))
            let batch = StampBatch(brushKey: "soft", brush: .builtin(.softRound, size: 16), stamps: stamps)
            let kept = try await renderer.render(canvas: canvas, batches: [batch])
            let fresh = try await Renderer().render(canvas: canvas, batches: [batch])
            XCTAssertTrue(kept == fresh, "frame \(k) is not what a new renderer draws over its background")
            XCTAssertEqual(Array(kept.pixels[0..<16]), Array(background.pixels[0..<16]), "frame \(k): the background's first pixels")
        }
    }
}
