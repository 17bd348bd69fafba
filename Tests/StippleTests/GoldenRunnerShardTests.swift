import Foundation
import Stipple
@testable import StippleGolden
import XCTest

/// `--jobs` and `--shard`: the same verdicts whatever the parallelism, every case in
/// exactly one shard, and merged shard reports equal to the unsharded one.
final class GoldenRunnerShardTests: XCTestCase {
    /// A folder with failures in it, recorded then broken, so verdicts are mixed.
    private func brokenFolder(extraCases: Int) throws -> GoldenTestFolder {
        let f = try GoldenTestFolder(self, extraCases: extraCases)
        try #"{ "cases": { "pass": { "frames": [0, 3, 7] } } }"#
            .write(to: f.scripts.appendingPathComponent("stipple-test.json"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try f.test().status, 0)
        try f.breakCases(driver: try f.recordedDriver())
        return f
    }

    private func report(_ url: URL) throws -> GoldenRunReport {
        var r = try JSONDecoder().decode(GoldenRunReport.self, from: Data(contentsOf: url))
        // What differs run to run: the time, and the accept command naming this run's --json.
        for i in r.cases.indices { r.cases[i].seconds = 0; r.cases[i].acceptCommand = nil }
        return r
    }

    func testJobsTwoGivesTheSameVerdictsAsJobsOne() throws {
        let f = try brokenFolder(extraCases: 40)
        var times: [Int: Double] = [:]
        var reports: [Int: GoldenRunReport] = [:]
        var outputs: [Int: [String]] = [:]
        for jobs in [1, 2] {
            let json = f.root.appendingPathComponent("jobs\(jobs).json")
            let start = Date()
            let run = try f.test(["--jobs", "\(jobs)", "--json", json.path], ci: true)
            times[jobs] = Date().timeIntervalSince(start)
            XCTAssertEqual(run.status, 1, run.stderr)
            reports[jobs] = try report(json)
            outputs[jobs] = GoldenTestFolder.lines(run).filter { !$0.hasPrefix("running") }
                .map { $0.replacingOccurrences(of: json.lastPathComponent, with: "REPORT.json") }
        }
        XCTAssertEqual(reports[1]!.cases.count, 47)
        XCTAssertEqual(reports[1], reports[2])
        XCTAssertEqual(outputs[1], outputs[2], "the same lines in the same order")
        print(String(format: "stipple test, 47 cases (64×48): --jobs 1 %.2f s, --jobs 2 %.2f s wall", times[1]!, times[2]!))
    }

    func testShardsCoverEveryCaseOnceAndMergeToTheUnshardedReport() throws {
        let f = try brokenFolder(extraCases: 4)
        let all = f.root.appendingPathComponent("all.json")
        XCTAssertEqual(try f.test(["--json", all.path], ci: true).status, 1)
        let unsharded = try report(all)
        XCTAssertNil(unsharded.shard)

        var shardFiles: [String] = []
        var seen: [String] = []
        for k in 1...3 {
            let url = f.root.appendingPathComponent("shard\(k).json")
            let run = try f.test(["--shard", "\(k)/3", "--json", url.path], ci: true)
            XCTAssertTrue([0, 1].contains(run.status), run.stderr)
            XCTAssertTrue(GoldenTestFolder.lines(run).last!.contains("in other shards"), run.stdout)
            let r = try report(url)
            XCTAssertEqual(r.shard, "\(k)/3")
            seen += r.cases.map(\.name)
            shardFiles.append(url.path)
        }
        XCTAssertEqual(seen.sorted(), unsharded.cases.map(\.name).sorted(), "every case exactly once")
        XCTAssertEqual(Set(seen).count, seen.count)

        let merged = f.root.appendingPathComponent("merged.json")
        let junit = f.root.appendingPathComponent("merged.xml")
        let run = try TestSupport.stipple(["test", "--merge-reports"] + shardFiles + ["--json", merged.path, "--junit", junit.path])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(try report(merged), unsharded)
        let j = try JUnitCounter.parse(junit)
        XCTAssertEqual(j.testcases.count, unsharded.cases.count)
        XCTAssertEqual(j.suites.first?["failures"], "\(unsharded.failures.count)")
        XCTAssertEqual(j.suites.first?["name"], f.scripts.path)

        // A shard given twice is refused, not double-counted.
        let twice = try TestSupport.stipple(["test", "--merge-reports", shardFiles[0], shardFiles[0]])
        XCTAssertEqual(twice.status, 2)
        XCTAssertTrue(twice.stderr.contains("is also in"), twice.stderr)
    }
}
