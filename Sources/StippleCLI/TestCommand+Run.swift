import ArgumentParser
import Foundation
import Stipple
import StippleGolden

extension TestCommand {
    func runSuite(_ dir: String) async throws {
        let suite = try GoldenSuite.discover(directory: dir, primitive: primitive)
        guard !suite.cases.isEmpty else {
            throw InputError(file: dir, "no test scripts (*.json) in this folder: nothing was tested, which is not a pass")
        }
        var cases = suite.cases
        if !filter.isEmpty {
            cases = cases.filter { CasePattern.matchesAny($0.name, filter) }
            guard !cases.isEmpty else {
                let names = suite.cases.prefix(6).map(\.name).joined(separator: ", ")
                throw InputError(file: dir, "--filter \(filter.joined(separator: " ")) matches none of the cases "
                                 + "(\(counted(suite.cases.count, "case")) in all: \(names)\(suite.cases.count > 6 ? ", …" : "")): nothing was tested")
            }
        }
        let shard = self.shard.flatMap(Shard.init)
        if let shard {
            let all = cases
            cases = all.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
            guard !cases.isEmpty else {
                throw InputError(file: dir, "shard \(shard) selects none of the cases (\(counted(all.count, "case")) in all): nothing was tested")
            }
        }
        let env = ProcessInfo.processInfo.environment
        let goldenDir = golden ?? suite.defaultGoldenDirectory
        let accept = acceptCommandMaker(dir: dir, goldenDir: goldenDir)
        let options = GoldenRunner.Options(
            goldenDirectory: goldenDir, outputDirectory: outputDirectory,
            jobs: jobs, record: record, keepDiffs: keepDiffs, isCI: GoldenCheck.isCI(env),
            platform: try EGLPlatform.fromEnvironment(env), acceptCommand: accept)
        // Reports never overwrite the suite's inputs: its scripts and every file they read
        // (brushes, backgrounds, .sketchpoints), its stipple-test.json, its goldens.
        let caseInputs = suite.cases.flatMap { (try? Script.load(path: $0.scriptPath))?.inputFiles ?? [$0.scriptPath] }
        let suiteInputs = caseInputs + [(dir as NSString).appendingPathComponent(GoldenConfig.fileName)]
        try checkSuiteOutputs(suiteDir: dir, inputs: suiteInputs, goldenDir: goldenDir)
        try lockFolders(goldenDir: goldenDir, writesGoldens: options.recordMode != .never)
        let jobs = max(1, min(self.jobs, cases.count))
        // Each case's line reaches a log file as it is printed, whatever ends the run.
        StopOnSignals.flushEachLine()
        let signals = StopOnSignals()
        let result = try await GoldenRunner(options: options).run(cases, shard: shard, stop: signals.stop, started: { driver in
            print(GoldenConsole.header(driver, cases: cases.count, of: suite.cases.count, shard: shard, jobs: jobs))
        }, progress: { print(GoldenConsole.line($0)) })
        OutputFile.markOwnedFolder(outputDirectory, marker: ".stipple-test-output")
        print(GoldenConsole.summary(result, notRun: suite.cases.count - cases.count))
        for line in GoldenConsole.staleTolerances(result) { print(line) }
        try listOrphans(goldenDir: goldenDir, suite: suite)
        try writeReports(result, suiteName: nil)
        try TestCommand.exit(result, signal: result.interrupted == nil ? nil : signals.exitStatus)
    }

    /// The run's exit status: 128 + the signal when one stopped it, 2 when a case could not be
    /// drawn (an error: bad input, not a changed image), 1 when one failed, was missing or
    /// flaky, 0 otherwise.
    static func exit(_ result: GoldenRunReport, signal: Int32?) throws {
        if let signal { throw ExitCode(signal) }
        let counts = result.counts
        if counts.errors > 0 { throw ExitCode(ExitStatus.failure) }
        if counts.failures > 0 { throw ExitCode(ExitStatus.differs) }
    }

    /// With --json: `stipple test --accept REPORT [--golden G] [--output O] NAME` (works from a
    /// CI artifact); without, or for a failure against another driver's golden: `stipple test DIR
    /// [--golden G] [--output O] --filter NAME --record failed` (the run's own folders).
    func acceptCommandMaker(dir: String, goldenDir: String) -> @Sendable (GoldenCaseResult) -> String? {
        let json = self.json, golden = self.golden, output = self.output
        let primitive = self.primitive.map { " --primitive \($0.rawValue)" } ?? ""
        return { r in
            let w = TestCommand.shellWord
            let g = golden.map { " --golden \(w($0))" } ?? ""
            let o = output.map { " --output \(w($0))" } ?? ""
            // A failure against another driver's golden is accepted by recording this driver's
            // own (--accept refuses it: it would not change the golden that failed).
            let crossDriver = r.verdict == .failed && r.goldenDriver.map { $0 != r.driver.shortName } == true
            if let json, !crossDriver {
                return "stipple test --accept \(w(json))\(g)\(o) \(w(r.name))"
            }
            return "stipple test \(w(dir))\(g)\(o)\(primitive) --filter \(w(r.name)) --record failed"
        }
    }

    func merge() throws {
        try checkMergeOutputs()
        let reports = try mergeReports.map { (path: $0, report: try GoldenRunReport.load(path: $0)) }
        let merged = try GoldenRunReport.merge(reports)
        print(GoldenConsole.header(merged.driver, cases: merged.cases.count, of: merged.cases.count, shard: nil, jobs: 1)
            .split(separator: "\n")[0])
        print("merged \(reports.count) report\(reports.count == 1 ? "" : "s")")
        for c in merged.cases { print(GoldenConsole.line(c)) }
        print(GoldenConsole.summary(merged))
        for line in GoldenConsole.staleTolerances(merged) { print(line) }
        try writeReports(merged, suiteName: nil)
        try TestCommand.exit(merged, signal: nil)
    }

    func acceptReport(_ path: String) throws {
        let report = try GoldenRunReport.load(path: path)
        let accept = GoldenAccept(report: report, reportPath: path, goldenDirectory: golden, outputDirectory: output, add: add)
        let steps = try accept.plan(arguments)
        guard !steps.isEmpty else {
            print("nothing to accept: \(path) has no failed, missing or no-golden-for-driver case")
            return
        }
        try accept.apply(steps)
        for s in steps { print(GoldenAccept.line(s)) }
        print("accepted \(steps.count) golden\(steps.count == 1 ? "" : "s") for \(report.driver.shortName)")
    }
}
