import Foundation
import XCTest
@testable import Stipple
@testable import StippleBench

/// The API as a first program uses it: a canvas that opens its own renderer, brushes
/// without invented keys, colour literals, Double samples, `image.writePNG(to:)`; and the
/// bench table a user reads first.
final class SimpleAPITests: XCTestCase {
    func testBrushContentKeysFollowTheContent() {
        let a = Brush.builtin(.softRound, size: 32), b = Brush.builtin(.softRound, size: 32)
        XCTAssertEqual(a.contentKey, b.contentKey)
        XCTAssertNotEqual(a.contentKey, Brush.builtin(.hardRound, size: 32).contentKey)
        XCTAssertNotEqual(a.contentKey, Brush.builtin(.softRound, size: 33).contentKey)
        // Same bytes, other shape: other key.
        let wide = Brush(width: 4, height: 1, coverage: [1, 2, 3, 4]), tall = Brush(width: 1, height: 4, coverage: [1, 2, 3, 4])
        XCTAssertNotEqual(wide.contentKey, tall.contentKey)
        XCTAssertEqual(StampBatch(brush: a, stamps: []).brushKey, a.contentKey)
    }

    func testColorLiteralsAndDoubleSamples() {
        let c: Color = "#ff800080"
        XCTAssertEqual(c, Color(hex: "#ff800080"))
        XCTAssertEqual(SketchPoint(x: 1, y: 2, radius: 3, color: "#ff0000").fields, [1, 2, 3, 0, 0, 1, 0, 0, 1])
        let x = 10.5, y = 20.25
        XCTAssertEqual(TouchSample(x: x, y: y, t: 0.5, pressure: 0.5), TouchSample(x: Float(10.5), y: 20.25, t: 0.5, pressure: 0.5))
    }

    /// The short LiveCanvas draws what the long form draws.
    func testTheConvenientCanvasDrawsLikeTheExplicitOne() async throws {
        let short = try LiveCanvas(width: 96, height: 64, background: "#101014", maxAge: 40, seed: 4)
        let long = LiveCanvas(renderer: try Renderer(), canvas: Canvas(width: 96, height: 64, background: .color(Color(hex: "#101014")!)),
                              settings: RenderSettings(effects: AgeEffects(maxAge: 40)), seed: 4)
        let a = await short.beginStroke(color: "#ff3b30", radius: 5)
        let b = await long.beginStroke(brushKey: "soft", brush: .builtin(.softRound),
                                       style: StrokeStyle(color: Color(hex: "#ff3b30")!, radius: 5))
        for i in 0..<12 {
            let t = Double(i) / 60
            try await short.add(x: 10 + 6 * Double(i), y: 30 + 10 * sin(Double(i)), t: t, pressure: 0.7, to: a)
            try await long.add(TouchSample(x: Float(10 + 6 * Double(i)), y: Float(30 + 10 * sin(Double(i))), t: t,
                                           pressure: 0.7), to: b)
        }
        try await short.endStroke(a); try await long.endStroke(b)
        await short.tick(5); await long.tick(5)
        let ia = try await short.render(), ib = try await long.render()
        XCTAssertEqual(ia, ib)
        let dir = try TestSupport.temporaryDirectory(self)
        let path = dir.appendingPathComponent("a.png").path
        try ia.writePNG(to: path)
        XCTAssertEqual(try Image(contentsOfPNG: path), ia)
    }

    /// A figure that never finished (infinite) is written to JSON and read back as such.
    func testABenchReportWithANeverFinishedFigureIsWrittenAsJSON() throws {
        var report = BenchReport(date: "d", platform: "surfaceless", renderer: "llvmpipe", glVersion: "ES 3.2",
                                 llvmpipeThreads: LlvmpipeThreads.describe(environment: [:], cores: 2), cores: 2,
                                 config: .quick)
        report.rows = [BenchRow(scenario: "serve", variant: "exact tile", workload: "w", timing: Timing(samples: [0.01]),
                                figures: ["p95 ms": .infinity, "p50 ms": 3])]
        report.targets = [.init(name: "serve: exact tile, p95 ms", measured: .infinity, limit: 250, atMost: true)]
        let json = try BenchReport.jsonEncoder().encode(report)
        XCTAssertTrue(String(decoding: json, as: UTF8.self).contains(#""p95 ms" : "inf""#))
        let back = try BenchReport.jsonDecoder().decode(BenchReport.self, from: json)
        XCTAssertEqual(back.rows[0].figures["p95 ms"], .infinity)
        XCTAssertEqual(back.rows[0].figures["p50 ms"], 3)
        XCTAssertFalse(back.targets[0].met)
    }

    func testBenchTableLeadsWithTheHeadlineAndJudgesNothingInQuick() {
        var report = BenchReport(date: "d", platform: "surfaceless", renderer: "llvmpipe", glVersion: "ES 3.2",
                                 llvmpipeThreads: LlvmpipeThreads.describe(environment: [:], cores: 2), cores: 2,
                                 config: .quick)
        var points = BenchRow(scenario: "stamps", variant: "stipple points", workload: "N=5000", timing: Timing(samples: [0.01]),
                              figures: ["stamps/s": 500_000])
        points.ratio = 1.1; points.ratioTo = "C baseline points"
        var quads = BenchRow(scenario: "stamps", variant: "stipple quads", workload: "N=5000", timing: Timing(samples: [0.015]))
        quads.ratio = 1.49; quads.ratioTo = "stipple points"
        let calls = BenchRow(scenario: "drawcalls", variant: "stipple", workload: "N=1024 in 1024 draws of 1",
                             timing: Timing(samples: [0.005]), figures: ["calls/s": 200_000])
        report.rows = [points, quads, calls]
        report.targets = [.init(name: "stamps: stipple / C baseline time per frame", measured: 1.1, limit: 1.05, atMost: true)]
        report.quick = true
        let text = BenchTable.render(report)
        let lines = text.split(separator: "\n")
        XCTAssertTrue(lines[0].contains("llvmpipe threads: 2 (one a core, llvmpipe's default)"), String(lines[0]))
        XCTAssertEqual(lines[1], "on this machine: 500.0k stamps/s (N=5000, points); 200.0k draw calls/s (one stamp a draw) — --quick sizes")
        XCTAssertTrue(text.contains("1.49× the time of stipple points (1.49× slower)"), text)
        XCTAssertTrue(text.contains("not judged in --quick"), text)
        XCTAssertFalse(text.contains("NOT MET"), text)
        XCTAssertTrue(text.contains("the Swift layer adds at most 5 %"), text)
        report.quick = false
        XCTAssertTrue(BenchTable.render(report).contains("NOT MET"))
        XCTAssertEqual(LlvmpipeThreads.count(environment: ["LP_NUM_THREADS": "3"], cores: 2), 3)
        XCTAssertEqual(LlvmpipeThreads.count(environment: [:], cores: 64), 16)
    }

    /// A ratio of memory names what it divides, not a time; the command and the run's length head the table.
    func testBenchTableNamesWhatARatioDividesAndTheRun() {
        var report = BenchReport(date: "d", platform: "surfaceless", renderer: "llvmpipe", glVersion: "ES 3.2",
                                 llvmpipeThreads: "2", cores: 2, config: BenchConfig())
        var rss = BenchRow(scenario: "session", variant: "1000 strokes", workload: "w", timing: Timing(samples: [1]))
        rss.ratio = 1.01; rss.ratioTo = "RSS after the first tenth"; rss.ratioOf = "RSS"
        report.rows = [rss]
        report.command = "stipple bench --chart out/bench.svg"
        report.seconds = 434
        let text = BenchTable.render(report)
        XCTAssertTrue(text.contains("1.01× RSS after the first tenth"), text)
        XCTAssertFalse(text.contains("the time of RSS"), text)
        XCTAssertTrue(text.contains("command: stipple bench --chart out/bench.svg; the whole run took 7 min 14 s"), text)
    }
}
