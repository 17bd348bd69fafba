import CStipple
import Foundation
import XCTest
@testable import Stipple
@testable import StippleBench
import CStippleBench

/// The benchmark's C peers: the GL baseline (`stp_bench_gl`) and Cairo (`stp_bench_cairo`).
final class CBenchTests: XCTestCase {
    /// Runs `stp_bench_gl` on its own context and render thread; returns the frame times or the error.
    private func benchGL(stamps: [SketchPoint], width: Int, height: Int, brush: Brush, perDraw: Int = 0,
                         uploadEveryFrame: Bool = true, vertex: String? = nil, warmup: Int = 1,
                         reps: Int = 3) throws -> Result<[Double], CBenchError> {
        let context = try GLContext(platform: .automatic)
        let thread = try RenderThread(name: "cbench-tests", setUp: { try context.makeCurrent() },
                                      tearDown: { context.close() })
        defer { thread.stop() }
        let vertexSource = vertex ?? EmbeddedShaders.sources["sketch.vert"]!
        let fragmentSource = EmbeddedShaders.sources["sketch.frag"]!
        return try thread.sync {
            var times = [Double](repeating: -1, count: reps)
            var err = [CChar](repeating: 0, count: 512)
            let rc = vertexSource.withCString { vs in
                fragmentSource.withCString { fs in
                    CBenchTests.withCPoints(stamps) { points in
                        brush.coverage.withUnsafeBufferPointer { cov in
                            var scene = stp_bench_scene(
                                vertex_source: vs, fragment_source: fs, stamps: points, count: Int32(stamps.count),
                                per_draw: Int32(perDraw), width: Int32(width), height: Int32(height), guard_band: 0,
                                brush: cov.baseAddress, brush_width: Int32(brush.width),
                                brush_height: Int32(brush.height), max_age: 0, dissolve_distance: 6,
                                point_scale: 1, age_offset: 0, upload_every_frame: uploadEveryFrame ? 1 : 0)
                            return stp_bench_gl(&scene, Int32(warmup), Int32(reps), &times, &err, err.count)
                        }
                    }
                }
            }
            return rc == 0 ? .success(times) : .failure(CBenchError(message: String(cBuffer: err)))
        }
    }

    struct CBenchError: Error { var message: String }

    static func withCPoints<T>(_ stamps: [SketchPoint], _ body: (UnsafePointer<stp_sketch_point>?) -> T) -> T {
        stamps.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress else { return body(nil) }
            return base.withMemoryRebound(to: stp_sketch_point.self, capacity: buf.count) { body($0) }
        }
    }

    /// Skips with the library's own message when libcairo.so.2 is missing.
    private func requireCairo() throws {
        var err = [CChar](repeating: 0, count: 256)
        if stp_cairo_available(&err, err.count) != 0 {
            throw XCTSkip("Cairo: skipped (\(String(cBuffer: err)))")
        }
    }

    private static func scatter(count: Int, width: Int, height: Int, radius: Float, seed: UInt64 = 7) -> [SketchPoint] {
        var rng = SplitMix64(seed: seed)
        func unit() -> Float { Float(rng.nextUnitDouble()) }
        return (0..<count).map { _ in
            SketchPoint(x: unit() * Float(width), y: unit() * Float(height), radius: radius,
                        red: unit(), green: unit(), blue: unit(), alpha: 0.5 + 0.5 * unit())
        }
    }

    // MARK: GL baseline

    func testGLBaselineTimesEveryFrameWithoutGLError() throws {
        let stamps = CBenchTests.scatter(count: 50, width: 32, height: 24, radius: 3)
        let brush = Brush.builtin(.softRound, size: 16)
        for (perDraw, upload) in [(0, true), (7, true), (0, false)] {
            switch try benchGL(stamps: stamps, width: 32, height: 24, brush: brush, perDraw: perDraw,
                               uploadEveryFrame: upload) {
            case let .success(times):
                XCTAssertEqual(times.count, 3)
                XCTAssertTrue(times.allSatisfy { $0 > 0 && $0 < 10 }, "per_draw \(perDraw): \(times)")
            case let .failure(e):
                XCTFail("per_draw \(perDraw), upload \(upload): \(e.message)")
            }
        }
    }

    func testGLBaselineReportsABrokenShader() throws {
        let broken = "#version 100\nvoid main() { gl_Position = ; }\n"
        let result = try benchGL(stamps: [SketchPoint(x: 4, y: 4, radius: 2)], width: 8, height: 8,
                                 brush: Brush.builtin(.hardRound, size: 8), vertex: broken)
        guard case let .failure(e) = result else { return XCTFail("a broken shader ran") }
        XCTAssertTrue(e.message.hasPrefix("the vertex shader does not compile:"), e.message)
    }

    // MARK: Cairo

    func testCairoTimesEveryFrame() throws {
        try requireCairo()
        let stamps = CBenchTests.scatter(count: 50, width: 32, height: 24, radius: 3)
        let brush = Brush.builtin(.softRound, size: 16)
        var times = [Double](repeating: -1, count: 3)
        var err = [CChar](repeating: 0, count: 512)
        let rc = CBenchTests.withCPoints(stamps) { points in
            brush.coverage.withUnsafeBufferPointer { cov in
                stp_bench_cairo(points, Int32(stamps.count), 32, 24, cov.baseAddress, Int32(brush.width),
                                Int32(brush.height), 1, 1, 3, &times, &err, err.count)
            }
        }
        XCTAssertEqual(rc, 0, String(cBuffer: err))
        XCTAssertTrue(times.allSatisfy { $0 > 0 && $0 < 10 }, "\(times)")
    }

    /// Cairo draws the picture the GPU draws: a few opaque hard-round stamps, one over another.
    /// No square edge falls exactly on a pixel centre (a tie, which drivers settle differently);
    /// on llvmpipe the two pictures then differ by at most 3 units anywhere. The rims are held
    /// loosely, so another driver's sub-pixel placement (softpipe's 1/8 px) still passes.
    func testCairoMatchesTheGPURoughly() async throws {
        try requireCairo()
        let (w, h) = (64, 48)
        let brush = Brush.builtin(.hardRound, size: 64)
        let stamps = [
            SketchPoint(x: 14.2, y: 14.6, radius: 9, red: 1, green: 0, blue: 0),
            SketchPoint(x: 45, y: 12, radius: 6, red: 0, green: 0.5, blue: 1),
            SketchPoint(x: 20.3, y: 33.7, radius: 10, red: 0.2, green: 1, blue: 0.2),
            // Over the first: its centre shows its colour (buffer order, OVER).
            SketchPoint(x: 20, y: 22, radius: 5, red: 1, green: 1, blue: 0),
            SketchPoint(x: 50.2, y: 36.1, radius: 3.5, red: 0, green: 0, blue: 0),
        ]
        let gpu = try await Renderer().renderPremultiplied(
            canvas: Canvas(width: w, height: h),
            batches: [StampBatch(brushKey: "hard-round-64", brush: brush, stamps: stamps)])
        var cpu = [UInt8](repeating: 0, count: w * h * 4)
        var err = [CChar](repeating: 0, count: 512)
        let rc = CBenchTests.withCPoints(stamps) { points in
            brush.coverage.withUnsafeBufferPointer { cov in
                stp_cairo_render(points, Int32(stamps.count), Int32(w), Int32(h), cov.baseAddress,
                                 Int32(brush.width), Int32(brush.height), 1, &cpu, &err, err.count)
            }
        }
        XCTAssertEqual(rc, 0, String(cBuffer: err))
        XCTAssertEqual(gpu.count, cpu.count)

        func pixel(_ img: [UInt8], _ x: Int, _ y: Int) -> [Int] { (0..<4).map { Int(img[(y * w + x) * 4 + $0]) } }
        // Same colour and coverage at every stamp's centre.
        for s in stamps {
            let (x, y) = (Int(s.x), Int(s.y))
            let a = pixel(gpu, x, y), b = pixel(cpu, x, y)
            let expected = [s.red, s.green, s.blue, s.alpha].map { Int(($0 * 255).rounded()) }
            for c in 0..<4 {
                XCTAssertLessThanOrEqual(abs(a[c] - b[c]), 2, "centre (\(x), \(y)): GPU \(a), Cairo \(b)")
                XCTAssertLessThanOrEqual(abs(b[c] - expected[c]), 2, "centre (\(x), \(y)): Cairo \(b), expected \(expected)")
            }
        }
        // Nothing outside the stamps (beyond a pixel of rim), in either; the rims differ by little.
        var rimPixels = 0, bigDifferences = 0
        for y in 0..<h {
            for x in 0..<w {
                let (px, py) = (Float(x) + 0.5, Float(y) + 0.5)
                let nearest = stamps.map { (($0.x - px) * ($0.x - px) + ($0.y - py) * ($0.y - py)).squareRoot() - $0.radius }.min()!
                let a = pixel(gpu, x, y), b = pixel(cpu, x, y)
                if nearest > 1.5 {
                    XCTAssertEqual(a, [0, 0, 0, 0], "GPU draws at (\(x), \(y)), outside every stamp")
                    XCTAssertEqual(b, [0, 0, 0, 0], "Cairo draws at (\(x), \(y)), outside every stamp")
                } else if nearest > -1.5 {
                    rimPixels += 1
                    if abs(a[3] - b[3]) > 64 { bigDifferences += 1 }
                } else {
                    for c in 0..<4 {
                        XCTAssertLessThanOrEqual(abs(a[c] - b[c]), 3, "inside a stamp at (\(x), \(y)): GPU \(a), Cairo \(b)")
                    }
                }
            }
        }
        XCTAssertLessThanOrEqual(bigDifferences, rimPixels / 20, "\(bigDifferences) of \(rimPixels) rim pixels differ by > 64 in alpha")
    }

    // MARK: measurement (STIPPLE_CBENCH_MEASURE=1)

    /// The first measurement: 100 000 soft-round stamps of radius 4 on 1280×720, one draw a frame.
    func testMeasureHundredThousandStamps() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["STIPPLE_CBENCH_MEASURE"] == "1",
                          "set STIPPLE_CBENCH_MEASURE=1 to measure")
        let (w, h) = (1280, 720)
        let stamps = CBenchTests.scatter(count: 100_000, width: w, height: h, radius: 4)
        let brush = Brush.builtin(.softRound, size: 32)
        func median(_ t: [Double]) -> Double { t.sorted()[t.count / 2] }
        for upload in [true, false] {
            switch try benchGL(stamps: stamps, width: w, height: h, brush: brush, uploadEveryFrame: upload,
                               warmup: 3, reps: 15) {
            case let .success(t):
                print(String(format: "stp_bench_gl (upload %@): median %.2f ms, min %.2f ms, %.2f M stamps/s",
                             upload ? "every frame" : "once", median(t) * 1e3, t.min()! * 1e3,
                             Double(stamps.count) / median(t) / 1e6))
            case let .failure(e): XCTFail(e.message)
            }
        }
        try requireCairo()
        var times = [Double](repeating: -1, count: 5)
        var err = [CChar](repeating: 0, count: 512)
        let rc = CBenchTests.withCPoints(stamps) { points in
            brush.coverage.withUnsafeBufferPointer { cov in
                stp_bench_cairo(points, Int32(stamps.count), Int32(w), Int32(h), cov.baseAddress, Int32(brush.width),
                                Int32(brush.height), 1, 1, 5, &times, &err, err.count)
            }
        }
        XCTAssertEqual(rc, 0, String(cBuffer: err))
        print(String(format: "stp_bench_cairo: median %.2f ms, min %.2f ms, %.2f M stamps/s",
                     median(times) * 1e3, times.min()! * 1e3, Double(stamps.count) / median(times) / 1e6))
    }
}
