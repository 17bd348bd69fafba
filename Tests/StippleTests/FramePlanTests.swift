import XCTest
@testable import Stipple

/// The frame plan, built without GL: which stamps a frame draws, as points or quads, in
/// which runs and in which order. No EGL here.
final class FramePlanTests: XCTestCase {
    let brushA = Brush.builtin(.softRound, size: 8)
    let brushB = Brush.builtin(.hardRound, size: 8)

    func planner(maxAge: Float = 0, primitive: Primitive = .points, ageOffset: Float = 0, band: Float = 64,
                 size: Float = 100) -> FramePlanner {
        FramePlanner(effects: AgeEffects(maxAge: maxAge, dissolveDistance: 6, pointScale: 1), primitive: primitive,
                     maxPointSize: 255, canvasWidth: size, canvasHeight: size, ageOffset: ageOffset, guardBand: band)
    }

    func stamp(_ x: Float, _ y: Float = 50, radius: Float = 2, age: Float = 0) -> SketchPoint {
        SketchPoint(x: x, y: y, radius: radius, age: age, dissolveAngle: 0.5, red: 1, green: 0, blue: 0, alpha: 1)
    }

    func immediate(_ p: FramePlanner, _ batches: [StampBatch]) -> FramePlan {
        var plan = FramePlan()
        plan.reset(settings: RenderSettings(effects: p.effects, primitive: p.primitive), ageOffset: p.ageOffset)
        p.planImmediate(batches, into: &plan)
        return plan
    }

    func batch(_ stamps: [SketchPoint], _ key: String = "a") -> StampBatch {
        StampBatch(brushKey: key, brush: key == "a" ? brushA : brushB, stamps: stamps)
    }

    /// Live at frame N: born (age ≥ 0) and not dead (age < M). The boundaries exactly.
    func testLiveFilterAtTheAgeBoundaries() {
        let ages: [Float] = [-1, -0.001, 0, 5, 9.999, 10, 11]
        let stamps = ages.enumerated().map { stamp(Float(10 + $0.offset * 10), age: $0.element) }
        let plan = immediate(planner(maxAge: 10), [batch(stamps)])
        XCTAssertEqual(plan.stamps.map(\.age), [0, 5, 9.999], "unborn (< 0) and dead (≥ M) stamps are left out")
        XCTAssertEqual(plan.runs, [DrawRun(primitive: .points, batch: 0, source: 0, first: 0, count: 3)])
        // The same stamps 3 frames on: ages are kept, the shader adds the offset.
        let later = immediate(planner(maxAge: 10, ageOffset: 3), [batch(stamps)])
        XCTAssertEqual(later.stamps.map(\.age), [-1, -0.001, 0, 5], "live at offset 3: stored age + 3 in [0, 10)")
        XCTAssertEqual(later.ageOffset, 3)
        // M = 0: nothing ever dies.
        XCTAssertEqual(immediate(planner(maxAge: 0), [batch(stamps)]).stamps.count, 5)
    }

    /// `stipple stamps` and `Scene.batches(atFrame:)`: the same selection, ages rebased.
    func testLiveBatchRebasesAges() {
        let b = LiveStamps.batch(batch([stamp(1, age: -4), stamp(2, age: -1), stamp(3, age: -20)]), atFrame: 3,
                                 effects: AgeEffects(maxAge: 10))
        XCTAssertEqual(b.stamps.map(\.age), [2], "born at 1 → age 2; born at 4 → unborn; born at 20 → unborn")
    }

    /// Resident layers: the window spans the stamps that may be live; a run may span dead or
    /// unborn stamps inside it (the shader culls them), so a layer is one draw.
    func testResidentLayerIsOneRunOverItsWindow() {
        let stamps = [stamp(10, age: 0), stamp(20, age: -5), stamp(30, age: -2), stamp(40, age: -30)]
        var bounds = StampBounds()
        stamps.forEach { bounds.add($0) }
        let view = LayerView(brush: BrushRef(key: "a", brush: brushA), stamps: stamps, rotations: nil,
                             window: 1..<3, bounds: bounds)
        var plan = FramePlan()
        planner(maxAge: 10, ageOffset: 12).planLayers([view, view], into: &plan)
        XCTAssertEqual(plan.sources, [.layer(0), .layer(1)])
        XCTAssertEqual(plan.runs, [DrawRun(primitive: .points, batch: 0, source: 0, first: 1, count: 2),
                                   DrawRun(primitive: .points, batch: 1, source: 1, first: 1, count: 2)])
        XCTAssertFalse(plan.drawsImmediatePoints)
    }

    /// A box's window over a layer's runs of stamps is the one found stamp by stamp: random
    /// layers (some stamps off the canvas, huge, NaN or infinite), random boxes and frames,
    /// with and without dissolving.
    func testBoxWindowOverRunsEqualsTheStampByStampOne() {
        var rng = SplitMix64(seed: 11)
        func unit() -> Float { Float(rng.next() >> 40) / Float(1 << 24) }
        for trial in 0..<300 {
            let n = 1 + Int(unit() * 700)
            var stamps: [SketchPoint] = []
            var (x, y) = (unit() * 2000 - 200, unit() * 1000 - 100)
            for j in 0..<n {
                x += unit() * 40 - 20; y += unit() * 40 - 20
                var s = SketchPoint(x: x, y: y, radius: unit() < 0.01 ? 300 : 1 + unit() * 12, age: -Float(j / 7),
                                    dissolveAngle: unit() * 6.28, red: 1, green: 1, blue: 1, alpha: 1)
                if trial % 10 == 0 && unit() < 0.02 { s.x = unit() < 0.5 ? .nan : .infinity }
                stamps.append(s)
            }
            var bounds = StampBounds(), blocks = StampBlocks()
            stamps.forEach { bounds.add($0); blocks.add($0) }
            let lo = Int(unit() * Float(n)), hi = lo + Int(unit() * Float(n - lo + 1))
            let flat = LayerView(brush: BrushRef(key: "a", brush: brushA), stamps: stamps, rotations: nil,
                                 window: lo..<min(hi, n), bounds: bounds)
            var runs = flat
            runs.blocks = blocks
            let effects = AgeEffects(maxAge: trial % 2 == 0 ? 0 : 40, dissolveDistance: 6)
            for _ in 0..<20 {
                let (bx, by) = (Int(unit() * 2200) - 300, Int(unit() * 1200) - 200)
                let box = PixelBox(x0: bx, y0: by, x1: bx + 1 + Int(unit() * 200), y1: by + 1 + Int(unit() * 200))
                let frame = Float(Int(unit() * Float(n / 7 + 50)))
                XCTAssertEqual(runs.window(touching: box, frame: frame, effects: effects),
                               flat.window(touching: box, frame: frame, effects: effects), "trial \(trial), \(box), frame \(frame)")
            }
        }
    }

    /// The guard band: a point centred off the canvas but inside the band stays a point; one
    /// further out becomes a quad; one that cannot touch the canvas is not drawn at all.
    func testGuardBand() {
        let inBand = stamp(-20, radius: 30), beyond = stamp(-70, radius: 80), away = stamp(-300, radius: 4)
        let plan = immediate(planner(band: 64), [batch([inBand, beyond, away])])
        XCTAssertEqual(plan.runs.map(\.primitive), [.points, .quads])
        XCTAssertEqual(plan.quads.count, 6, "six vertices for the one quad")
        XCTAssertEqual(plan.runs.map(\.count), [1, 1], "the stamp that cannot touch the canvas is left out")
        let noBand = immediate(planner(band: 0), [batch([inBand])])
        XCTAssertEqual(noBand.runs.map(\.primitive), [.quads], "without a band, a point centred off the canvas may be dropped")
    }

    /// Stamps wider than the driver's largest point are quads; the rest stay points, and the
    /// order of compositing is kept.
    func testWideStampsBecomeQuadsInOrder() {
        let plan = immediate(planner(), [batch([stamp(10), stamp(50, radius: 200), stamp(90)])])
        XCTAssertEqual(plan.runs, [DrawRun(primitive: .points, batch: 0, source: 0, first: 0, count: 1),
                                   DrawRun(primitive: .quads, batch: 0, source: 0, first: 0, count: 1),
                                   DrawRun(primitive: .points, batch: 0, source: 0, first: 2, count: 1)])
        XCTAssertEqual(plan.quads.map(\.point.radius), Array(repeating: 200, count: 6))
        XCTAssertEqual(immediate(planner(primitive: .quads), [batch([stamp(10), stamp(90)])]).runs.map(\.primitive), [.quads])
    }

    /// Draw order across brushes: each batch keeps its brush and its place.
    func testDrawOrderAcrossBrushes() {
        let plan = immediate(planner(), [batch([stamp(10), stamp(20)], "a"), batch([stamp(30)], "b"),
                                         batch([stamp(40)], "a")])
        XCTAssertEqual(plan.brushes.map(\.key), ["a", "b", "a"])
        XCTAssertEqual(plan.runs, [DrawRun(primitive: .points, batch: 0, source: 0, first: 0, count: 2),
                                   DrawRun(primitive: .points, batch: 1, source: 0, first: 2, count: 1),
                                   DrawRun(primitive: .points, batch: 2, source: 0, first: 3, count: 1)])
    }

    /// A plan reused for the next frame keeps nothing of the last one, and never reuses the
    /// storage of a caller's array it borrowed.
    func testResetForgetsTheLastFrame() {
        var mine = [stamp(10), stamp(20)]
        var plan = FramePlan()
        let p = planner()
        plan.reset(settings: RenderSettings(), ageOffset: 0)
        p.planImmediate([batch(mine)], into: &plan)
        XCTAssertTrue(plan.stampsBorrowed)
        plan.reset(settings: RenderSettings(), ageOffset: 0)
        p.planImmediate([batch([stamp(1, age: -1)])], into: &plan)
        mine[0].x = 99
        XCTAssertEqual(plan.stamps.count, 0)
        XCTAssertEqual(plan.runs, [])
        XCTAssertEqual(mine[0].x, 99)
    }
}
