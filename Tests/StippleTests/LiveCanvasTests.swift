import XCTest
@testable import Stipple

final class LiveCanvasTests: XCTestCase {
    let canvas = Canvas(width: 160, height: 120, background: .color(Color(hex: "#101014")!))
    let effects = AgeEffects(maxAge: 40, dissolveDistance: 6, pointScale: 1)
    let style = StrokeStyle(color: Color(hex: "#ff3b30")!, radius: 6)

    /// A scribble: samples 1/60 s apart.
    static func samples(_ count: Int, seed: Double = 0) -> [TouchSample] {
        (0..<count).map { i in
            let a = Double(i) * 0.37 + seed
            return TouchSample(x: Float(80 + 60 * cos(a) * sin(a * 0.31)), y: Float(60 + 40 * sin(a * 1.3)),
                               t: Double(i) / 60, pressure: Float(0.5 + 0.5 * sin(a)))
        }
    }

    /// Feeds the same scribble to a canvas, rendering along the way; returns the frames.
    static func play(_ live: LiveCanvas, frames: Int, style: StrokeStyle) async throws -> [Image] {
        let input = samples(frames * 2)
        let stroke = await live.beginStroke(brushKey: "soft", brush: .builtin(.softRound, size: 32), style: style)
        var images: [Image] = []
        for f in 0..<frames {
            for s in input[(f * 2)..<(f * 2 + 2)] { try await live.add(s, to: stroke) }
            if f == frames - 1 { try await live.endStroke(stroke) }
            images.append(try await live.render())
            await live.tick()
        }
        return images
    }

    func testTwoLiveCanvasesFedTheSameSamplesGiveIdenticalFrames() async throws {
        let a = LiveCanvas(renderer: try Renderer(), canvas: canvas, settings: RenderSettings(effects: effects), seed: 9)
        let b = LiveCanvas(renderer: try Renderer(), canvas: canvas, settings: RenderSettings(effects: effects), seed: 9)
        let style = self.style
        async let fa = LiveCanvasTests.play(a, frames: 30, style: style)
        async let fb = LiveCanvasTests.play(b, frames: 30, style: style)
        let (ia, ib) = try await (fa, fb)
        XCTAssertEqual(ia.count, 30)
        for (i, (x, y)) in zip(ia, ib).enumerated() { XCTAssertEqual(x, y, "frame \(i) differs") }
        XCTAssertNotEqual(ia[5], ia[25], "the frames should change over time")
    }

    func testResidentAndReuploadDrawTheSameAndResidentUploadsOnlyWhatIsNew() async throws {
        let resident = try Renderer(), reupload = try Renderer()
        let a = LiveCanvas(renderer: resident, canvas: canvas, settings: RenderSettings(effects: effects), seed: 2,
                           upload: .resident)
        let b = LiveCanvas(renderer: reupload, canvas: canvas, settings: RenderSettings(effects: effects), seed: 2,
                           upload: .reuploadAges)
        let ia = try await LiveCanvasTests.play(a, frames: 60, style: style)
        let ib = try await LiveCanvasTests.play(b, frames: 60, style: style)
        for (i, (x, y)) in zip(ia, ib).enumerated() { XCTAssertEqual(x, y, "frame \(i) differs") }
        let stamps = await a.liveStamps().count
        XCTAssertGreaterThan(stamps, 50)
        // Resident: each stamp crosses the bus about once (plus growth re-uploads);
        // reupload: every live stamp every frame.
        let residentBytes = await resident.statistics().bytesUploaded
        let reuploadBytes = await reupload.statistics().bytesUploaded
        print("60 frames, \(stamps) live stamps at the end: resident uploaded \(residentBytes) B, reupload \(reuploadBytes) B")
        XCTAssertLessThan(residentBytes * 3, reuploadBytes, "resident \(residentBytes) B, reupload \(reuploadBytes) B")
    }

    func testRequestsArrivingFasterThanFramesCoalesce() async throws {
        let live = LiveCanvas(renderer: try Renderer(), canvas: Canvas(width: 640, height: 480),
                              settings: RenderSettings(effects: effects), seed: 1)
        let stroke = await live.beginStroke(brushKey: "soft", brush: .builtin(.softRound, size: 32), style: style)
        for s in LiveCanvasTests.samples(200) { try await live.add(s, to: stroke) }
        let images = try await withThrowingTaskGroup(of: Image.self) { group in
            for _ in 0..<40 { group.addTask { try await live.render() } }
            var all: [Image] = []
            for try await image in group { all.append(image) }
            return all
        }
        XCTAssertEqual(images.count, 40)
        let rendered = await live.framesRendered
        let coalesced = await live.requestsCoalesced
        print("40 concurrent render requests: \(rendered) frames drawn, \(coalesced) coalesced")
        XCTAssertLessThan(rendered, 40, "every request drew its own frame")
        XCTAssertEqual(rendered + coalesced, 40)
        // Nothing changed between requests: every caller saw the same frame.
        XCTAssertTrue(images.allSatisfy { $0 == images[0] })
    }

    func testLatestStateWinsWhenRequestsCoalesce() async throws {
        let live = LiveCanvas(renderer: try Renderer(), canvas: canvas, settings: RenderSettings(effects: effects), seed: 1)
        let stroke = await live.beginStroke(brushKey: "soft", brush: .builtin(.softRound, size: 32), style: style)
        let input = LiveCanvasTests.samples(40)
        for s in input[0..<20] { try await live.add(s, to: stroke) }
        async let first = live.render()
        for s in input[20..<40] { try await live.add(s, to: stroke) }
        async let second = live.render()
        let (_, latest) = try await (first, second)
        let fresh = try await live.render()
        XCTAssertEqual(latest, fresh, "a later request must see every sample added before it")
    }
}
