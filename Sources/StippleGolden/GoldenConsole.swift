import Stipple
/// The lines `stipple test` prints, shared with the test API so both read the same.
public enum GoldenConsole {
    /// "PASS ages (max diff 0)", "FAIL shifted: max channel diff 255, … → OUT/shifted/diff.png".
    public static func line(_ r: GoldenCaseResult) -> String {
        switch r.verdict {
        case .passed: return "PASS \(r.name) (\(r.message))"
        case .failed: return "FAIL \(r.name): \(r.message)" + (r.diff.map { " → \($0)" } ?? "")
        case .missing: return "MISSING \(r.name): \(r.message)" + (r.actual.map { " → \($0)" } ?? "")
        case .recorded: return "RECORDED \(r.name): \(r.message)"
        case .noGoldenForDriver: return "NO GOLDEN \(r.name): \(r.message)"
        case .error: return "ERROR \(r.name): \(r.message)"
        }
    }

    /// The run's header: the driver (EGL platform, vendor, renderer) and what runs.
    public static func header(_ d: DriverIdentity, cases: Int, of total: Int, shard: Shard?, jobs: Int) -> String {
        var s = "driver: EGL platform \(d.platform), vendor \(d.vendor), renderer \(d.renderer); goldens named \"\(d.shortName)\"\n"
        s += "running \(cases) case\(cases == 1 ? "" : "s")"
        if let shard { s += " of \(total) (shard \(shard))" }
        s += " on \(jobs) renderer\(jobs == 1 ? "" : "s")"
        return s
    }

    /// "N passed, M failed", plus ", S skipped (…)" when some cases were not compared.
    public static func summary(_ report: GoldenRunReport, notRun: Int = 0) -> String {
        let failed = report.cases.filter(\.isFailure).count
        let recorded = report.recorded
        var s = "\(report.passed) passed, \(failed) failed"
        let skipped = recorded + notRun
        if skipped > 0 {
            var why: [String] = []
            if recorded > 0 { why.append("\(recorded) recorded") }
            if notRun > 0 { why.append("\(notRun) in other shards") }
            s += ", \(skipped) skipped (\(why.joined(separator: ", ")))"
        }
        return s
    }
}
