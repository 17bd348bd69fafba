import ArgumentParser
import Foundation
import Stipple
import StippleGolden

/// `stipple test`'s outputs (--json, --junit, --report, --output, --golden), all checked
/// before any case runs or any golden is written (docs/limits.md, "Outputs").
extension TestCommand {
    /// Marks a --report folder stipple made, as `.stipple-test-output` marks --output's.
    static let reportMarker = ".stipple-test-report"

    /// Two outputs of one run naming the same file: a usage error (exit 64), from validate().
    func checkDistinctOutputs() throws {
        var files: [(option: String, path: String)] = []
        if let json { files.append(("--json", json)) }
        if let junit { files.append(("--junit", junit)) }
        if let report { files.append(("--report", (report as NSString).appendingPathComponent("index.html"))) }
        for (i, a) in files.enumerated() {
            for b in files[(i + 1)...] where OutputFile.sameFile(a.path, b.path) {
                throw ValidationError("\(a.option) and \(b.option) both name \(b.path): one would overwrite the other; give each its own file.")
            }
        }
        if mergeReports.isEmpty, accept == nil, let report, OutputFile.sameFile(report, outputDirectory) {
            throw ValidationError("--report and --output both name the folder \(report); give each its own folder.")
        }
    }

    /// Refuses, before any work, reports that would overwrite the suite's inputs (its scripts,
    /// stipple-test.json, anything in the golden folder), a --report folder that is the suite's,
    /// in the golden folder, or a user's non-empty folder, and a --golden that is not a folder.
    func checkSuiteOutputs(suiteDir dir: String, inputs suiteInputs: [String], goldenDir: String) throws {
        try FileSystem.checkPath(goldenDir)
        var info = stat()
        if stat(goldenDir, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR {
            throw InputError(file: goldenDir, "--golden names a file, not a folder of golden images; choose a folder")
        }
        for path in [json, junit].compactMap({ $0 }) {
            try checkOutput(path, notAnyOf: suiteInputs, inputsAre: "an input of the test suite")
            if OutputFile.isInside(path, folder: goldenDir) {
                throw InputError(file: path, "refusing to overwrite an input of the test suite (it is in the golden folder); choose another output path")
            }
        }
        if let report {
            try FileSystem.checkPath(report)
            if OutputFile.sameFile(report, dir) {
                throw InputError(file: report, "--report names the suite's folder; its index.html and images/ would be written among the scripts: choose another folder")
            }
            if OutputFile.isInside(report, folder: goldenDir) {
                throw InputError(file: report, "--report is in the golden folder; choose a folder outside it")
            }
            try checkReportFolder(report)
        }
        try OutputFile.checkOwnedFolder(outputDirectory, marker: ".stipple-test-output", option: "--output")
    }

    /// --report for --merge-reports: never over a report being merged.
    func checkMergeOutputs() throws {
        for path in [json, junit].compactMap({ $0 }) {
            try checkOutput(path, notAnyOf: mergeReports, inputsAre: "a report being merged")
        }
        if let report { try checkReportFolder(report) }
    }

    /// A --report folder: missing (its parent must exist or be made), empty, or one stipple made.
    private func checkReportFolder(_ report: String) throws {
        try OutputFile.checkOwnedFolder(report, marker: TestCommand.reportMarker, option: "--report")
    }

    /// Writes the reports asked for; a file-system error is one line naming the path.
    func writeReports(_ result: GoldenRunReport, suiteName: String?) throws {
        let cases = counted(result.cases.count, "case")
        do {
            if let json {
                try result.writeJSON(to: json)
                note("\(json): JSON report of \(cases)")
            }
            if let junit {
                try JUnitReport.write(result, to: junit, suiteName: suiteName)
                note("\(junit): JUnit report of \(cases)")
            }
            if let report {
                try FileManager.default.createDirectory(atPath: report, withIntermediateDirectories: true)
                OutputFile.markOwnedFolder(report, marker: TestCommand.reportMarker)
                try HTMLReport.write(report: result, to: report)
                note("\((report as NSString).appendingPathComponent("index.html")): HTML report of \(cases)")
            }
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError(file: report ?? json ?? junit ?? "report", "cannot write the report: \(OutputFile.describe(error))")
        }
    }
}
