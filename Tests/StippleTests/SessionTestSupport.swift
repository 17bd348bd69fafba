import XCTest
@testable import Stipple

/// Random drawing sessions for the session tests: a live canvas and, beside it, the plain
/// model of what it should show (`SessionHistoryTests.SnapshotModel` over every stroke).
struct RandomSession {
    struct StrokeData {
        var samples: [TouchSample]
        var style: StrokeStyle
        var brushKey: String
        var brush: Brush
        var seedIndex: Int
    }

    static let brushes: [(String, Brush)] = [
        ("soft", .builtin(.softRound, size: 32)), ("hard", .builtin(.hardRound, size: 16)),
        // Not a built-in: a save writes it as a PNG.
        ("speckle", Brush(width: 8, height: 6, coverage: (0..<48).map { UInt8(($0 * 97 + 13) % 256) })),
    ]
    /// Strokes also vary speed, rotation, opacity and pressure mapping (for save tests).
    var variety = false

    var rng: SplitMix64
    var model = SessionHistoryTests.SnapshotModel()
    var strokes: [Int: StrokeData] = [:]
    let width: Int, height: Int

    init(seed: UInt64, width: Int, height: Int) {
        rng = SplitMix64(seed: seed); self.width = width; self.height = height
    }

    mutating func unit() -> Float { Float(rng.next() % 10_000) / 10_000 }

    /// A short random stroke whose samples all fall in `frame` (so its stamps are born then).
    mutating func makeStroke(frame: Int, fps: Double) -> (samples: [TouchSample], style: StrokeStyle, brush: Int) {
        let n = 1 + Int(rng.next() % 5)
        var samples: [TouchSample] = []
        for i in 0..<n {
            samples.append(TouchSample(x: unit() * Float(width), y: unit() * Float(height),
                                       t: (Double(frame) + Double(i) * 0.1) / fps, pressure: 0.2 + 0.8 * unit()))
        }
        let color = Color(red: unit(), green: unit(), blue: unit(), alpha: 0.3 + 0.7 * unit())
        var style = StrokeStyle(color: color, radius: 1.5 + 5 * unit(), smoothing: unit())
        guard variety else { return (samples, style, Int(rng.next() % 2)) }
        style.opacity = 0.2 + 0.8 * unit()
        style.spacing = 0.05 + 0.5 * unit()
        if rng.next() % 2 == 0 { style.speed = SpeedMapping(slowSpeed: 10 * unit(), fastSpeed: 50 + 500 * unit()) }
        switch rng.next() % 3 {
        case 0: style.rotation = .followStroke
        case 1: style.rotation = .fixed(unit() * 3)
        default: break
        }
        if rng.next() % 2 == 0 { style.pressure = PressureMapping(radius: 0.2...0.9, opacity: 0.5...1, missingPressure: unit()) }
        return (samples, style, Int(rng.next() % 3))
    }

    /// Draws a random stroke on `live` and records it.
    mutating func stroke(on live: LiveCanvas) async throws {
        let frame = await live.frame
        let (samples, style, b) = makeStroke(frame: frame, fps: live.fps)
        let (key, brush) = RandomSession.brushes[b]
        let id = await live.beginStroke(brushKey: key, brush: brush, style: style)
        for s in samples { try await live.add(s, to: id) }
        try await live.endStroke(id)
        let index = id.index
        strokes[index] = StrokeData(samples: samples, style: style, brushKey: key, brush: brush, seedIndex: index)
        model.add(index)
    }

    /// The image the model says the canvas shows: the shown strokes drawn from scratch.
    func expected(on renderer: Renderer, canvas: Canvas, settings: RenderSettings, frame: Int, fps: Double,
                  seed: UInt64) async throws -> Image {
        let batches = model.shown.map { i -> StampBatch in
            let s = strokes[i]!
            let stamps = StrokeBuilder.stamps(for: s.samples, style: s.style, fps: fps, seed: seed, strokeIndex: s.seedIndex)
            return StampBatch(brushKey: s.brushKey, brush: s.brush, stamps: stamps.map(\.point))
        }
        return try await renderer.render(canvas: canvas, batches: batches, settings: settings, ageOffset: Float(frame))
    }
}
