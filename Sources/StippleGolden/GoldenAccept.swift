import Stipple
import Foundation

/// `stipple test --accept REPORT.json`: the actual images a run kept (its `--json` report
/// and `--output` folder, e.g. a CI artifact) written as goldens, for the cases named or
/// every failed one, after checking that the report's driver is the one the goldens are
/// named for.
public struct GoldenAccept: Sendable {
    /// One golden to write.
    public struct Step: Sendable, Equatable {
        /// The case.
        public var name: String
        /// The actual image the run kept.
        public var source: String
        /// The golden written.
        public var target: String
        /// Other accepted goldens of the case removed (replacing), or kept (`add`).
        public var removed: [String]
        /// Other accepted goldens of the case left in place (`add`).
        public var kept: [String]
    }

    /// The run's report (its `--json` output).
    public var report: GoldenRunReport
    /// Where the report was read from: relative paths in it are resolved against its folder.
    public var reportPath: String
    /// The golden folder; nil: the report's own.
    public var goldenDirectory: String?
    /// Where the run's images are, when not where the report says (`--output`).
    public var outputDirectory: String?
    /// Add the image as a further accepted golden (`~N`) instead of replacing the case's goldens.
    public var add: Bool

    /// An acceptance of the images of `report`, read from `reportPath`; `goldenDirectory` and
    /// `outputDirectory` override the report's folders, and `add` keeps the existing goldens.
    public init(report: GoldenRunReport, reportPath: String, goldenDirectory: String? = nil,
                outputDirectory: String? = nil, add: Bool = false) {
        self.report = report; self.reportPath = reportPath; self.goldenDirectory = goldenDirectory
        self.outputDirectory = outputDirectory; self.add = add
    }

    /// The steps for `patterns` (names or `*`/`?` patterns; empty: every failed, missing or
    /// no-golden-for-driver case). Refuses, naming the case, anything it cannot do safely.
    public func plan(_ patterns: [String]) throws(InputError) -> [Step] {
        guard let dir = goldenDirectory ?? report.goldenDirectory else {
            throw InputError(file: reportPath, "the report does not say where its goldens are: give --golden DIR")
        }
        let acceptable: Set<GoldenCaseResult.Verdict> = [.failed, .missing, .noGoldenForDriver]
        var chosen: [GoldenCaseResult] = []
        if patterns.isEmpty {
            chosen = report.cases.filter { acceptable.contains($0.verdict) }
        } else {
            for p in patterns {
                let hits = report.cases.filter { CasePattern.matches($0.name, p) }
                guard !hits.isEmpty else {
                    let names = report.cases.prefix(8).map(\.name).joined(separator: ", ")
                    throw InputError(file: reportPath, "no case \(p) in this report (cases: \(names)\(report.cases.count > 8 ? ", …" : ""))")
                }
                for c in hits where !chosen.contains(where: { $0.name == c.name }) {
                    guard acceptable.contains(c.verdict) else {
                        throw InputError(file: reportPath, "case \(c.name) \(Self.why(c.verdict)); nothing to accept")
                    }
                    chosen.append(c)
                }
            }
        }
        let store = GoldenStore(directory: dir)
        let me = report.driver.shortName
        var steps: [Step] = []
        for c in chosen {
            guard c.driver.shortName == me else {
                throw InputError(file: reportPath, "case \(c.name) was drawn by \(c.driver.shortName), the report by \(me)")
            }
            if let g = c.goldenPath, let parsed = GoldenStore.parse(fileName: URL(fileURLWithPath: g).lastPathComponent),
               parsed.driver != me {
                throw InputError(file: reportPath, "case \(c.name): the report's images were drawn by \(me), but the golden "
                                 + "it was compared with, \(URL(fileURLWithPath: g).lastPathComponent), is \(parsed.driver)'s; "
                                 + "accepting would not change that golden. Run the case on \(parsed.driver) to accept there, "
                                 + "or record \(me)'s own golden on \(me) (stipple test DIR --filter '\(c.name)' --record failed)")
            }
            guard let primitive = Primitive(rawValue: c.primitive) else {
                throw InputError(file: reportPath, "case \(c.name): unknown primitive \"\(c.primitive)\"")
            }
            let source = try actualImage(c)
            let existing = store.goldens(name: c.name, primitive: primitive)[me] ?? []
            if add {
                steps.append(Step(name: c.name, source: source,
                                  target: store.nextAlternative(name: c.name, driver: me, primitive: primitive),
                                  removed: [], kept: existing))
            } else {
                let first = store.path(name: c.name, driver: me, primitive: primitive)
                steps.append(Step(name: c.name, source: source, target: first, removed: existing.filter { $0 != first }, kept: []))
            }
        }
        return steps
    }

    /// Writes the goldens (re-encoded small, as recorded ones are) and removes the replaced ones.
    public func apply(_ steps: [Step]) throws {
        for s in steps {
            let image = try PNGFile.read(path: s.source).image
            try GoldenCheck.writeGolden(image, to: s.target)
            for r in s.removed { try FileManager.default.removeItem(atPath: r) }
        }
    }

    /// "ACCEPTED ages: OUT/ages/actual.png → golden/ages.llvmpipe.points~2.png (beside 1 accepted golden)".
    public static func line(_ s: Step) -> String {
        var l = "ACCEPTED \(s.name): \(s.source) → \(s.target)"
        let names = { (paths: [String]) in paths.map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: ", ") }
        if !s.kept.isEmpty { l += " (added beside \(names(s.kept)))" }
        if !s.removed.isEmpty { l += " (replacing; removed \(names(s.removed)))" }
        return l
    }

    /// Where the run's actual image of `c` is: as the report says (from here, then from the
    /// report's folder), else in `--output`, else in a folder named like the run's output
    /// beside the report (an artifact unpacked with its report) — the first of those that
    /// still holds the image the report saw (its `actualDigest`), when the report says.
    func actualImage(_ c: GoldenCaseResult) throws(InputError) -> String {
        let reportFolder = FileSystem.folder(of: reportPath)
        var tried: [String] = []
        if let a = c.actual { tried += [a, FileSystem.resolve(a, against: reportFolder)] }
        if let o = outputDirectory { tried.append(FileSystem.resolve("\(c.name)/actual.png", against: o)) }
        if let o = report.outputDirectory {
            let last = URL(fileURLWithPath: o).lastPathComponent
            tried.append(FileSystem.resolve("\(last)/\(c.name)/actual.png", against: reportFolder))
        }
        var seen = Set<String>()
        tried = tried.filter { seen.insert($0).inserted }
        let found = tried.filter { FileSystem.entry(at: $0) == .file }
        guard !found.isEmpty else {
            throw InputError(file: reportPath, "case \(c.name): its actual image is not here; looked for "
                             + (tried.isEmpty ? "(the report names none)" : tried.joined(separator: ", "))
                             + "; give the run's output folder with --output")
        }
        // The image the report saw, not whatever a later run left under the same name.
        guard let digest = c.actualDigest else { return found[0] }
        for path in found where (try? PNGFile.read(path: path).image.contentDigest) == digest { return path }
        throw InputError(file: reportPath, "case \(c.name): \(found.joined(separator: ", ")) "
                         + (found.count == 1 ? "is" : "are") + " no longer the image this report saw (a later run "
                         + "wrote over it); nothing was accepted. Accept the later run's own report, or run the case "
                         + "again; give runs you mean to accept later an --output folder each")
    }

    static func why(_ v: GoldenCaseResult.Verdict) -> String {
        switch v {
        case .passed: return "passed"
        case .recorded: return "was recorded in that run"
        case .error: return "could not be rendered (error)"
        case .flaky: return "is flaky: two renders differed, so neither image is the case's; fix the nondeterminism first"
        default: return "is \(v.rawValue)"
        }
    }
}
