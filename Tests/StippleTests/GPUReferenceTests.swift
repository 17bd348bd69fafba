import XCTest
@testable import Stipple
@testable import StippleGolden

/// What the GPU draws against the independent CPU implementation of docs/reference.md §3–§4, on random
/// stamps. The tolerance: K = 3 per premultiplied channel (8-bit rounding at each blend,
/// bilinear weights at 8 bits of sub-texel precision in llvmpipe), and at most 0.5 % of
/// pixels beyond it (pixel centres within 1/512 px of a stamp's edge, which the driver
/// decides, docs/reference.md §4).
final class GPUReferenceTests: XCTestCase {
    static let k = 3
    static let maxShare = 0.005

    struct SeededRandom: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    func randomStamps(_ n: Int, width: Int, height: Int, maxRadius: Float, maxAge: Float,
                      rng: inout SeededRandom) -> [SketchPoint] {
        (0..<n).map { _ in
            SketchPoint(x: .random(in: -10...Float(width + 10), using: &rng),
                        y: .random(in: -10...Float(height + 10), using: &rng),
                        radius: .random(in: 0.2...maxRadius, using: &rng),
                        age: maxAge > 0 ? .random(in: 0...maxAge * 1.05, using: &rng) : 0,
                        dissolveAngle: .random(in: 0...(2 * .pi), using: &rng),
                        red: .random(in: 0...1, using: &rng), green: .random(in: 0...1, using: &rng),
                        blue: .random(in: 0...1, using: &rng), alpha: .random(in: 0.05...1, using: &rng))
        }
    }

    func check(seed: UInt64, brush: Brush, primitive: Primitive, maxAge: Float, count: Int = 300,
               maxRadius: Float = 12, file: StaticString = #filePath, line: UInt = #line) async throws {
        var rng = SeededRandom(state: seed)
        let (w, h) = (96, 72)
        let stamps = randomStamps(count, width: w, height: h, maxRadius: maxRadius, maxAge: maxAge, rng: &rng)
        let background = Color(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.6)
        let effects = AgeEffects(maxAge: maxAge, dissolveDistance: 6, pointScale: 1)
        let renderer = try Renderer()
        let gpu = try await renderer.render(
            canvas: Canvas(width: w, height: h, background: .color(background)),
            batches: [StampBatch(brushKey: "b", brush: brush, stamps: stamps)],
            settings: RenderSettings(effects: effects, primitive: primitive))
        let cpu = ReferenceRenderer.render(
            width: w, height: h, background: background, stamps: stamps, brush: brush,
            parameters: .init(maxAge: maxAge, dissolveDistance: 6, pointScale: 1))
        let result = ImageComparison.compare(expected: cpu, actual: gpu, maxChannelDifference: Self.k)
        let allowed = Int(Double(w * h) * Self.maxShare)
        print("GPU vs CPU seed \(seed) \(primitive) M=\(maxAge): \(result.summary)")
        if !result.passes(maxPixels: allowed) {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stipple-gpu-ref-\(seed)")
            try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try PNGFile.write(cpu, to: dir.appendingPathComponent("expected-cpu.png").path)
            try PNGFile.write(gpu, to: dir.appendingPathComponent("actual-gpu.png").path)
            try PNGFile.write(DiffImage.make(expected: cpu, actual: gpu, maxChannelDifference: Self.k),
                              to: dir.appendingPathComponent("diff.png").path)
            XCTFail("GPU differs from the CPU reference: \(result.summary) (allowed \(allowed)); images in \(dir.path)",
                    file: file, line: line)
        }
    }

    func testSoftBrushPointsNoAgeing() async throws {
        try await check(seed: 1, brush: .builtin(.softRound, size: 64), primitive: .points, maxAge: 0)
    }

    func testHardBrushQuadsNoAgeing() async throws {
        try await check(seed: 2, brush: .builtin(.hardRound, size: 32), primitive: .quads, maxAge: 0)
    }

    func testAgeEffectsPoints() async throws {
        try await check(seed: 3, brush: .builtin(.softRound, size: 64), primitive: .points, maxAge: 40)
    }

    func testAgeEffectsQuads() async throws {
        try await check(seed: 4, brush: .builtin(.softRound, size: 64), primitive: .quads, maxAge: 40)
    }

    func testAsymmetricBrushBothPaths() async throws {
        // A ramp: coverage grows left to right and top to bottom, so a flip or a turn shows.
        var cov = [UInt8](repeating: 0, count: 16 * 16)
        for j in 0..<16 { for i in 0..<16 { cov[j * 16 + i] = UInt8(min(255, i * 12 + j * 4)) } }
        let brush = Brush(width: 16, height: 16, coverage: cov)
        try await check(seed: 5, brush: brush, primitive: .points, maxAge: 0, maxRadius: 20)
        try await check(seed: 6, brush: brush, primitive: .quads, maxAge: 0, maxRadius: 20)
    }

    func testWideStampsBeyondThePointLimit() async throws {
        try await check(seed: 7, brush: .builtin(.softRound, size: 64), primitive: .points, maxAge: 0,
                        count: 12, maxRadius: 300)
    }
}
