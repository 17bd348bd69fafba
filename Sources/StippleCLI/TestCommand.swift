import ArgumentParser
import Foundation
import Stipple
import StippleGolden

extension GoldenRecordMode: ExpressibleByArgument {}

struct TestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Render every script in a folder and compare each with its golden image.",
        discussion: """
            Cases: every *.json script in DIR (not recursive, sorted by name), at frame 0 or at the \
            frames DIR/stipple-test.json lists. Goldens: GOLDEN/NAME[@frame-NNNN].DRIVER.PRIMITIVE.png, \
            and further accepted ones NAME….PRIMITIVE~2.png, ~3… (GOLDEN defaults to DIR/golden; DRIVER \
            is e.g. llvmpipe); a case passes when it matches any of them. A failing case is rendered \
            twice: if the renders differ it is FLAKY. Failures write OUTPUT/NAME/{expected,actual,diff}.png \
            and say how to accept the new image. See docs/golden-testing.md.
            Record modes: missing (default; `never` when CI=true) writes only missing goldens; failed \
            also rewrites goldens that no longer match (plain --record means this); all rewrites every \
            golden; never writes nothing.
            Exit status: 0 all passed (or were recorded); 1 any case failed, was missing or flaky; \
            2 a case could not be drawn (ERROR: its script or a file it reads is bad), bad input, no EGL, \
            or no case to run (empty folder, a shard or --filter selecting none); 130 or 143 stopped by \
            SIGINT or SIGTERM (no case starts after it; the reports are written for the cases that ran).
            Examples:
              stipple test Fixtures/scripts --golden Fixtures/golden
              stipple test tests/ --jobs 2 --shard 1/3 --json shard1.json
              stipple test tests/ --filter 'periscope@*' --record failed
              stipple test --accept ci/report.json --output ci/.stipple-test periscope@frame-0005
              stipple test --merge-reports shard1.json shard2.json shard3.json --junit junit.xml
            """)

    @Argument(help: ArgumentHelp("The folder of test scripts; with --accept, the cases to accept (names or patterns).",
                                 valueName: "dir-or-cases"))
    var arguments: [String] = []

    @Option(help: "The folder of golden images (default: DIR/golden; with --accept, the report's).")
    var golden: String?

    @Option(parsing: .unconditional, help: "Renderers working side by side, each with its own thread and GL context.")
    var jobs: Int = 1

    @Option(parsing: .unconditional, help: "Run only the K-th of N deterministic slices of the cases (K/N, round-robin).")
    var shard: String?

    @Option(parsing: .singleValue, help: "Run only the cases whose names match (exact, or with * and ?); repeatable.")
    var filter: [String] = []

    @Option(help: "When to write goldens: missing, failed, all or never (plain --record: failed).")
    var record: GoldenRecordMode?

    @Option(help: "Draw every case as points or quads, whatever stipple-test.json says.")
    var primitive: Primitive?

    @Option(help: "Where failing cases' expected, actual and diff images go (default: .stipple-test).")
    var output: String?

    @Flag(help: "Write expected, actual and diff images for passing cases too.")
    var keepDiffs = false

    @Flag(help: "Remove orphan goldens: those in the golden folder that no case of the folder has the name of (listed either way).")
    var prune = false

    @Option(help: "Write the run's report as JSON (sorted keys); shards' reports merge with --merge-reports.")
    var json: String?

    @Option(help: "Write a JUnit XML report.")
    var junit: String?

    @Option(help: "Write a self-contained HTML report into this folder.")
    var report: String?

    @Option(name: .customLong("merge-reports"), parsing: .upToNextOption,
            help: "Merge the --json reports of shards into one (with --json, --junit, --report); runs nothing.")
    var mergeReports: [String] = []

    @Option(help: "Write the actual images of a run's --json report as goldens: the cases named, or every failed one.")
    var accept: String?

    @Flag(help: "With --accept: add each image as a further accepted golden (~2, ~3…) instead of replacing.")
    var add = false

    var outputDirectory: String { output ?? ".stipple-test" }

    func validate() throws {
        let modes = [!mergeReports.isEmpty, accept != nil].filter { $0 }.count
        if modes > 1 { throw ValidationError("--merge-reports and --accept are separate tasks: give one.") }
        if !mergeReports.isEmpty {
            if !arguments.isEmpty { throw ValidationError("--merge-reports merges reports and runs nothing: give no folder.") }
        } else if accept == nil {
            guard !arguments.isEmpty else { throw ValidationError("Please give the folder of test scripts.") }
            guard arguments.count == 1 else {
                let given = arguments.map { InputError.quoted($0) }.joined(separator: ", ")
                // `--record sometimes`: a word that is no folder after --record was meant as a mode.
                var hint = ""
                if let word = arguments.first(where: { !FileManager.default.fileExists(atPath: $0) }), record != nil {
                    hint = "; \(InputError.quoted(word)) is no folder: --record's modes are missing, failed, all and never"
                }
                throw ValidationError("Please give one folder of test scripts (got \(arguments.count): \(given))\(hint); choose cases with --filter.")
            }
            if add { throw ValidationError("--add goes with --accept.") }
        }
        try checkDistinctOutputs()
        if jobs < 1 { throw ValidationError("Please give --jobs of 1 or more (got \(jobs)).") }
        if let shard, Shard(shard) == nil {
            throw ValidationError("--shard is K/N with 1 ≤ K ≤ N, such as 2/3 (got \(shard)).")
        }
    }

    func run() async throws {
        if !mergeReports.isEmpty { return try merge() }
        if let accept { return try acceptReport(accept) }
        try await runSuite(arguments[0])
    }

    /// `--record` alone keeps its old meaning (`failed`): ArgumentParser has no option with an
    /// optional value, so a `--record` not followed by a mode's name becomes `--record=failed`.
    static func normalized(_ arguments: [String]) -> [String] {
        guard arguments.first == "test" else { return arguments }
        let modes = Set(GoldenRecordMode.allCases.map(\.rawValue))
        var out: [String] = []
        for (i, a) in arguments.enumerated() {
            if a == "--record", !(i + 1 < arguments.count && modes.contains(arguments[i + 1])) {
                out.append("--record=failed")
            } else {
                out.append(a)
            }
        }
        return out
    }

    /// A word for a shell line: quoted unless plainly safe.
    static func shellWord(_ s: String) -> String {
        let safe = s.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "@%+=:,./_-".unicodeScalars.contains($0) }
        return safe && !s.isEmpty ? s : "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
