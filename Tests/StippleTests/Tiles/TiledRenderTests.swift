import XCTest
@testable import Stipple

/// Tiles never show: a canvas drawn tile by tile (any tile size, odd ones and 1-pixel
/// slivers at the edge included) is bit-identical to the same stamps drawn in one pass.
final class TiledRenderTests: XCTestCase {
    private static let renderer = Result { try Renderer() }
    private var renderer: Renderer { get throws { try TiledRenderTests.renderer.get() } }

    /// Random stamps over and around a canvas: small and large (wider than the largest
    /// point, so drawn as quads), some centred off the canvas, turned or upright, of
    /// several ages, in two batches with different brushes.
    static func randomBatches(width: Int, height: Int, count: Int, seed: UInt64, rotate: Bool,
                              wide: Bool = true) -> [StampBatch] {
        var rng = SplitMix64(seed: seed)
        func unit() -> Float { Float(rng.next() >> 40) / Float(1 << 24) }
        func batch(_ key: String, _ brush: Brush) -> StampBatch {
            var stamps: [SketchPoint] = [], rotations: [Float] = []
            for _ in 0..<count {
                let big = unit() < 0.08
                let radius = wide && big ? 130 + unit() * 60 : 0.3 + unit() * 24
                let p = SketchPoint(x: unit() * Float(width + 80) - 40, y: unit() * Float(height + 80) - 40, radius: radius,
                                    age: unit() < 0.2 ? -3 : unit() * 40, dissolveAngle: unit() * 6.28,
                                    red: unit(), green: unit(), blue: unit(), alpha: 0.2 + 0.8 * unit())
                stamps.append(p)
                rotations.append(rotate && unit() < 0.5 ? unit() * 6.28 : 0)
            }
            return StampBatch(brushKey: key, brush: brush, stamps: stamps, rotations: rotate ? rotations : nil)
        }
        return [batch("builtin:soft-round:64", .builtin(.softRound, size: 64)), batch("builtin:hard-round:32", .builtin(.hardRound, size: 32))]
    }

    private func assertTiledMatchesOnePass(canvas: Canvas, batches: [StampBatch], settings: RenderSettings,
                                           ageOffset: Float, tile: Int, file: StaticString = #filePath,
                                           line: UInt = #line) async throws {
        let r = try renderer
        try TileTestSupport.requireTranslationInvariantDriver(r)
        let one = try await r.render(canvas: canvas, batches: batches, settings: settings, ageOffset: ageOffset)
        let plan = try r.planTiles(canvas: canvas, batches: batches, settings: settings, ageOffset: ageOffset, tile: tile)
        let tiled = try await r.renderTiled(plan)
        guard one != tiled else { return }
        var differing: [Int] = []
        for i in 0..<(canvas.width * canvas.height) where one.pixels[(i * 4)..<(i * 4 + 4)] != tiled.pixels[(i * 4)..<(i * 4 + 4)] {
            differing.append(i)
        }
        let first = differing[0]
        XCTFail("tile \(tile) on \(canvas.width)×\(canvas.height): \(differing.count) pixels differ, first at "
                + "(\(first % canvas.width), \(first / canvas.width)): one pass \(one.pixel(first % canvas.width, first / canvas.width)), "
                + "tiled \(tiled.pixel(first % canvas.width, first / canvas.width))", file: file, line: line)
    }

    func testRandomScriptsTiledEqualOnePass() async throws {
        var rng = SplitMix64(seed: 2024)
        let sizes = [(300, 200), (257, 131), (640, 480)]
        for (case_, (w, h)) in sizes.enumerated() {
            let aging = case_ != 1
            let settings = RenderSettings(effects: aging ? AgeEffects(maxAge: 36, dissolveDistance: 9, pointScale: 1.2) : AgeEffects())
            let batches = Self.randomBatches(width: w, height: h, count: 300, seed: UInt64(case_) + 7, rotate: case_ != 0)
            let background: CanvasBackground = case_ == 2 ? .color(Color(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.6)) : .color(.transparent)
            // Tiles of odd sizes, ones leaving a 1-pixel sliver at the right and bottom edge, one pixel.
            let tiles = [Int(rng.next() % 97) + 3, w - 1, h - 1, 64, 256, 300, 1000]
            for tile in tiles {
                try await assertTiledMatchesOnePass(canvas: Canvas(width: w, height: h, background: background),
                                                    batches: batches, settings: settings, ageOffset: aging ? 20 : 0, tile: tile)
            }
        }
    }

    /// Only small stamps: the apron shrinks to the widest of them, and points centred just
    /// outside a tile must still land as in one pass.
    func testSmallStampsNarrowApron() async throws {
        let batches = Self.randomBatches(width: 200, height: 150, count: 400, seed: 11, rotate: true, wide: false)
        let settings = RenderSettings(effects: AgeEffects(maxAge: 30, dissolveDistance: 20, pointScale: 1.5))
        for tile in [9, 64, 199] {
            try await assertTiledMatchesOnePass(canvas: Canvas(width: 200, height: 150), batches: batches, settings: settings,
                                                ageOffset: 25, tile: tile)
        }
    }

    func testQuadsPrimitiveAndOnePixelTiles() async throws {
        let batches = Self.randomBatches(width: 23, height: 17, count: 40, seed: 5, rotate: true)
        for primitive in Primitive.allCases {
            for tile in [1, 2, 22] {
                try await assertTiledMatchesOnePass(canvas: Canvas(width: 23, height: 17), batches: batches,
                                                    settings: RenderSettings(primitive: primitive), ageOffset: 0, tile: tile)
            }
        }
    }

    func testBackgroundImageUnderTiles() async throws {
        var rng = SplitMix64(seed: 99)
        let (w, h) = (120, 90)
        let pixels = (0..<(w * h * 4)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let canvas = Canvas(width: w, height: h, background: .image(Image(width: w, height: h, pixels: pixels)))
        let batches = Self.randomBatches(width: w, height: h, count: 80, seed: 3, rotate: false)
        for tile in [7, 50, 119] {
            try await assertTiledMatchesOnePass(canvas: canvas, batches: batches, settings: RenderSettings(), ageOffset: 0, tile: tile)
        }
    }
}
