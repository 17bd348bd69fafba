import Foundation
import XCTest
@testable import Stipple
@testable import StippleBench

/// CI's seconds-long run of `stipple bench`: every scenario runs and reports sane figures.
/// Timing targets are never asserted here (a shared machine is noisy): they are read in
/// `make bench`'s table.
final class BenchSmokeTests: XCTestCase {
    func testQuickRunReportsEveryScenario() throws {
        let dir = try TestSupport.temporaryDirectory(self)
        let chart = dir.appendingPathComponent("bench.svg").path
        var config = ["bench", "--quick", "--json", "--chart", chart]
        config += ["--frames", "6"]
        let run = try TestSupport.stipple(config)
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try BenchReport.jsonDecoder().decode(BenchReport.self, from: Data(run.stdout.utf8))
        let scenarios = Set(report.rows.map(\.scenario))
        XCTAssertEqual(scenarios, Set(BenchConfig.Scenario.allCases.map(\.rawValue)))
        XCTAssertTrue(report.rows.allSatisfy { $0.timing.samples.allSatisfy { $0 > 0 } })
        // The report names the driver that ran it: this machine's, as the renderer reports it.
        let info = try Renderer().info
        XCTAssertEqual(report.renderer, info.glRenderer)
        XCTAssertEqual(report.glVersion, info.glVersion)
        // Resident layers upload with k, not with L: the bytes a frame barely move as L grows tenfold.
        let resident = report.rows.filter { $0.scenario == "animation" && $0.variant == "resident" }
        let reupload = report.rows.filter { $0.scenario == "animation" && $0.variant == "reupload" }
        XCTAssertEqual(resident.count, 2)
        let r0 = resident[0].figures["bytes/frame"]!, r1 = resident[1].figures["bytes/frame"]!
        let u0 = reupload[0].figures["bytes/frame"]!, u1 = reupload[1].figures["bytes/frame"]!
        XCTAssertGreaterThan(u1 / u0, 5, "reupload grows with L")
        XCTAssertLessThan(r1, u1 / 5, "resident uploads far less than reupload at L = 20000")
        XCTAssertLessThan(r1 / r0, 8, "resident bytes a frame must not grow with L like reupload's")
        // The streamed render ran as a child and its own peak memory was read.
        let streamed = report.rows.first { $0.scenario == "tiles" && $0.variant.hasPrefix("render") }
        XCTAssertGreaterThan(streamed?.figures["peak RSS MiB"] ?? 0, 1, "the child's VmHWM")
        // The kept bakes (the user's sketch and the heavy one, accumulating and dissolving, and the
        // heavy accumulating one with its strokes drawn at once) report how much they drew again,
        // or the frames that drew only their new stamps (the quick sizes are too small to judge
        // how little).
        let kept = report.rows.filter { $0.scenario == "bake" && $0.variant.hasSuffix("kept sketch") }
        XCTAssertEqual(kept.count, 5)
        XCTAssertTrue(kept.allSatisfy { ($0.figures["redrawn %"] ?? 0) > 0 || ($0.figures["new stamps only"] ?? 0) > 0 },
                      "\(kept.map(\.figures))")
        // Each size's heavy accumulating bake has its floor: the C program drew the sketch's stamps.
        let floors = report.rows.filter { $0.scenario == "bake" && $0.variant.hasPrefix("floor: C GLES2 stamps drawn once") }
        XCTAssertEqual(floors.count, report.rows.filter { $0.scenario == "bake" && $0.variant == "empty-script bake" }.count)
        XCTAssertTrue(floors.allSatisfy { ($0.figures["C draw s"] ?? 0) > 0 && ($0.ratio ?? 0) > 1 }, "\(floors.map(\.figures))")
        // The views scenario's children ran and their peak memory was read; previews were measured.
        let views = report.rows.filter { $0.scenario == "views" }
        XCTAssertTrue(views.contains { $0.variant.hasPrefix("stipple render --pyramid") && ($0.figures["peak RSS MiB"] ?? 0) > 1 })
        XCTAssertEqual(views.filter { $0.variant.hasPrefix("preview against exact") }.count, 12)
        let svg = try String(contentsOfFile: chart, encoding: .utf8)
        XCTAssertTrue(svg.hasPrefix("<svg") && svg.contains("polyline"), "the chart draws curves")
    }
}
