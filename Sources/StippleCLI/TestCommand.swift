import ArgumentParser
import Foundation
import Stipple

struct TestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Render every script in a folder and compare each with its golden image.",
        discussion: """
            Cases: every *.json script in DIR (not recursive, sorted by name), at frame 0 or at the \
            frames DIR/stipple-test.json lists. Goldens: GOLDEN/NAME[@frame-NNNN].DRIVER.PRIMITIVE.png \
            (GOLDEN defaults to DIR/golden; DRIVER is e.g. llvmpipe). This driver's golden is compared \
            exactly unless a tolerance is configured; for quads another driver's golden stands in with \
            the cross-driver tolerance; points goldens are kept per driver. A missing golden is recorded, \
            except with CI=true, where it fails. Failures write OUTPUT/NAME/{expected,actual,diff}.png.
            Exit status: 0 all passed (or were recorded); 1 any case failed; 2 bad input or no EGL.
            Examples:
              stipple test Fixtures/scripts --golden Fixtures/golden
              stipple test tests/ --jobs 2 --shard 1/3 --json shard1.json
              stipple test --merge-reports shard1.json shard2.json shard3.json --junit junit.xml
            """)

    @Argument(help: "The folder of test scripts.")
    var directory: String?

    @Option(help: "The folder of golden images (default: DIR/golden).")
    var golden: String?

    @Option(parsing: .unconditional, help: "Renderers working side by side, each with its own thread and GL context.")
    var jobs: Int = 1

    @Option(help: "Run only the K-th of N deterministic slices of the cases (K/N, round-robin).")
    var shard: String?

    @Flag(help: "Write missing goldens and goldens that no longer match (unchanged ones are left alone).")
    var record = false

    @Option(help: "Draw every case as points or quads, whatever stipple-test.json says.")
    var primitive: Primitive?

    @Option(help: "Where failing cases' expected, actual and diff images go (default: .stipple-test).")
    var output: String = ".stipple-test"

    @Flag(help: "Write expected, actual and diff images for passing cases too.")
    var keepDiffs = false

    @Option(help: "Write the run's report as JSON (sorted keys); shards' reports merge with --merge-reports.")
    var json: String?

    @Option(help: "Write a JUnit XML report.")
    var junit: String?

    @Option(help: "Write a self-contained HTML report into this folder.")
    var report: String?

    @Option(name: .customLong("merge-reports"), parsing: .upToNextOption,
            help: "Merge the --json reports of shards into one (with --json, --junit, --report); runs nothing.")
    var mergeReports: [String] = []

    func validate() throws {
        if mergeReports.isEmpty {
            guard directory != nil else { throw ValidationError("Please give the folder of test scripts.") }
        } else if directory != nil {
            throw ValidationError("--merge-reports merges reports and runs nothing: give no folder.")
        }
        if jobs < 1 { throw ValidationError("Please give --jobs of 1 or more (got \(jobs)).") }
        if let shard, Shard(shard) == nil {
            throw ValidationError("--shard is K/N with 1 ≤ K ≤ N, such as 2/3 (got \(shard)).")
        }
    }

    func run() async throws {
        if !mergeReports.isEmpty { return try merge() }
        let dir = directory!
        let suite = try GoldenSuite.discover(directory: dir, primitive: primitive)
        let shard = self.shard.flatMap(Shard.init)
        let cases = shard.map { suite.shard($0) } ?? suite.cases
        let env = ProcessInfo.processInfo.environment
        let options = GoldenRunner.Options(
            goldenDirectory: golden ?? suite.defaultGoldenDirectory, outputDirectory: output,
            jobs: jobs, record: record, keepDiffs: keepDiffs, isCI: GoldenCheck.isCI(env),
            platform: try EGLPlatform.fromEnvironment(env))
        // Reports never overwrite the suite's inputs: its scripts, its stipple-test.json, its goldens.
        let suiteInputs = cases.map(\.scriptPath) + [(dir as NSString).appendingPathComponent(GoldenConfig.fileName)]
        for path in [json, junit].compactMap({ $0 }) {
            try checkOutput(path, notAnyOf: suiteInputs, inputsAre: "an input of the test suite")
            if OutputFile.isInside(path, folder: options.goldenDirectory) {
                throw InputError(file: path, "refusing to overwrite an input of the test suite (it is in the golden folder); choose another output path")
            }
        }
        try OutputFile.checkOwnedFolder(output, marker: ".stipple-test-output", option: "--output")
        let jobs = max(1, min(self.jobs, cases.count))
        let result = try await GoldenRunner(options: options).run(cases, shard: shard, started: { driver in
            print(GoldenConsole.header(driver, cases: cases.count, of: suite.cases.count, shard: shard, jobs: jobs))
        }, progress: { print(GoldenConsole.line($0)) })
        OutputFile.markOwnedFolder(output, marker: ".stipple-test-output")
        print(GoldenConsole.summary(result, notRun: suite.cases.count - cases.count))
        try writeReports(result, suiteName: cases.isEmpty ? dir : nil)
        if result.cases.contains(where: \.isFailure) { throw ExitCode(ExitStatus.differs) }
    }

    private func merge() throws {
        let reports = try mergeReports.map { (path: $0, report: try GoldenRunReport.load(path: $0)) }
        let merged = try GoldenRunReport.merge(reports)
        print(GoldenConsole.header(merged.driver, cases: merged.cases.count, of: merged.cases.count, shard: nil, jobs: 1)
            .split(separator: "\n")[0])
        print("merged \(reports.count) report\(reports.count == 1 ? "" : "s")")
        for c in merged.cases { print(GoldenConsole.line(c)) }
        print(GoldenConsole.summary(merged))
        try writeReports(merged, suiteName: nil)
        if merged.cases.contains(where: \.isFailure) { throw ExitCode(ExitStatus.differs) }
    }

    private func writeReports(_ result: GoldenRunReport, suiteName: String?) throws {
        if let json { try result.writeJSON(to: json) }
        if let junit { try JUnitReport.write(result, to: junit, suiteName: suiteName) }
        if let report {
            try FileManager.default.createDirectory(atPath: report, withIntermediateDirectories: true)
            try HTMLReport.write(report: result, to: report)
        }
    }
}

