import XCTest
@testable import Stipple

/// Every blend, effect, edge and shadow case drawn by the GPU against the CPU oracle, on
/// several backgrounds, within 2 per 8-bit channel: blurs and shadows both ways, by the
/// GPU's own passes and worked out on the CPU (a software rasterizer's default).
final class ModeOracleTests: XCTestCase {
    private let tolerance = 2.0

    private func check(_ mode: StrokeMode, on backgrounds: [(String, Image)] = ModeFixtures.backgrounds(),
                       from a: (Float, Float) = (6, 8), to b: (Float, Float) = (58, 40),
                       file: StaticString = #filePath, line: UInt = #line) async throws {
        let renderer = try Renderer()
        // Paint under the stroke too, so it acts on sketch paint as well as on the background.
        let under = ModeFixtures.stroke(from: (8, 40), to: (56, 6), color: Color(red: 0.1, green: 0.7, blue: 0.9, alpha: 0.6),
                                        radius: 5, brush: .hardRound)
        for onCPU in [false, true] {
            await renderer.setBlursOnCPU(onCPU)
            try await check(mode, renderer, under: under, on: backgrounds, from: a, to: b,
                            "\(onCPU ? "blurred on the CPU" : "blurred by the GPU")", file: file, line: line)
        }
    }

    private func check(_ mode: StrokeMode, _ renderer: Renderer, under: StampBatch, on backgrounds: [(String, Image)],
                       from a: (Float, Float), to b: (Float, Float), _ way: String,
                       file: StaticString, line: UInt) async throws {
        for (name, background) in backgrounds {
            let stroke = ModeFixtures.stroke(from: a, to: b, mode: mode)
            let r = try await ModeFixtures.renders(renderer, background, before: [under], stroke: stroke)
            var reference: [UInt8]?
            if mode.edgeTolerance != nil, let p = stroke.edgeAnchor?.pixel(width: ModeFixtures.width, height: ModeFixtures.height) {
                let i = (p.y * ModeFixtures.width + p.x) * 4
                reference = Array(r.before[i..<i + 4])
            }
            let expected = ModeOracle.apply(mode, before: r.before, layer: r.layer, width: ModeFixtures.width,
                                            height: ModeFixtures.height, reference: reference)
            let worst = ModeFixtures.worst(r.after, expected)
            XCTAssertLessThanOrEqual(worst.diff, tolerance, "\(mode) on \(name), \(way): worst at byte \(worst.at)",
                                     file: file, line: line)
            XCTAssertNotEqual(r.after, r.before, "\(mode) on \(name), \(way), changed nothing", file: file, line: line)
        }
    }

    func testEveryBlend() async throws {
        for blend in StrokeMode.Blend.allCases {
            var m = StrokeMode()
            m.blend = blend
            m.strokeOpacity = 0.7
            try await check(m)
        }
    }

    func testEveryEffect() async throws {
        for effect in StrokeMode.Effect.allCases {
            var m = StrokeMode()
            m.effect = effect
            m.strokeOpacity = 0.9
            try await check(m)
        }
    }

    func testEdgesBothDirections() async throws {
        let step = ModeFixtures.backgrounds().filter { $0.0 == "step" }
        var m = StrokeMode()
        m.edgeTolerance = 10
        try await check(m, on: step, from: (4, 24), to: (60, 24))
        try await check(m, on: step, from: (60, 30), to: (4, 30))
        m.effect = .darken
        try await check(m, on: step, from: (60, 30), to: (4, 20))
    }

    func testShadowsSharpAndBlurred() async throws {
        var m = StrokeMode()
        var s = StrokeMode.Shadow()
        s.dx = 5; s.dy = -3; s.blur = 0
        m.shadow = s
        try await check(m)
        s.blur = 2.5
        s.color = Color(red: 0.2, green: 0, blue: 0.4, alpha: 0.7)
        m.shadow = s
        m.blend = .multiply
        m.strokeOpacity = 0.8
        try await check(m)
        // Cast far from the stroke: the final pass draws the cast's cells, not only the stroke's.
        s.dx = 26; s.dy = 20; s.blur = 1.5
        m.shadow = s
        try await check(m, from: (4, 6), to: (30, 12))
    }
}
