import Stipple
/// The lines `stipple test` prints, shared with the test API so both read the same.
package enum GoldenConsole {
    /// "PASS ages (max diff 0)", "FAIL shifted: max channel diff 255, … → OUT/shifted/diff.png; to accept: …".
    package static func line(_ r: GoldenCaseResult) -> String {
        let accept = r.acceptCommand.map { "; to accept: \($0)" } ?? ""
        switch r.verdict {
        case .passed: return "PASS \(r.name) (\(r.message))"
        case .failed:
            return "FAIL \(r.name): \(r.message)" + (r.diff.map { " → \($0)" } ?? "") + accept
                + (bisectCommand(r).map { "; to find the draw entry that departs: \($0)" } ?? "")
        case .missing: return "MISSING \(r.name): \(r.message)" + (r.actual.map { " → \($0)" } ?? "") + accept
        case .recorded: return "RECORDED \(r.name): \(r.message)"
        case .noGoldenForDriver: return "NO GOLDEN \(r.name): \(r.message)" + accept
        case .error: return "ERROR \(r.name): \(r.message)"
        case .flaky: return "FLAKY \(r.name): \(r.message)" + (r.diff.map { " → \($0)" } ?? "")
        }
    }

    /// The run's header: the driver (EGL platform, vendor, renderer) and what runs.
    package static func header(_ d: DriverIdentity, cases: Int, of total: Int, shard: Shard?, jobs: Int) -> String {
        var s = "driver: EGL platform \(d.platform), vendor \(d.vendor), renderer \(d.renderer); goldens named \"\(d.shortName)\"\n"
        s += "running \(cases) case\(cases == 1 ? "" : "s")"
        if let shard { s += " of \(total) (shard \(shard))" } else if cases != total { s += " of \(total)" }
        s += " on \(jobs) renderer\(jobs == 1 ? "" : "s")"
        return s
    }

    /// The counts (`GoldenRunReport.Counts.summary`), then ", S not run (…)" where cases were
    /// left out, and a last word when the run was interrupted.
    package static func summary(_ report: GoldenRunReport, notRun: Int = 0) -> String {
        var s = report.counts.summary
        if notRun > 0 { s += ", \(notRun) not run (in other shards, or left out by --filter)" }
        if let signal = report.interrupted {
            s += "; interrupted by \(signal): \(report.notRun ?? 0) not run, reports written for the \(counted(report.cases.count, "case")) that ran"
        }
        return s
    }

    /// One line a case whose configured tolerance was looser than it needed, with the tight value.
    package static func staleTolerances(_ report: GoldenRunReport) -> [String] {
        let stale = report.staleTolerances
        guard !stale.isEmpty else { return [] }
        return ["tolerances looser than this run needed (tighten them, or list several goldens):"]
            + stale.map { "  \($0.name): configured \($0.tolerance.summary); tight: \($0.tightTolerance!)" }
    }

    /// `stipple bisect` for a failed case: its script, golden, frame and tolerance.
    package static func bisectCommand(_ r: GoldenCaseResult) -> String? {
        guard let golden = r.goldenPath, r.comparison?.expectedWidth == r.comparison?.actualWidth,
              r.comparison?.expectedHeight == r.comparison?.actualHeight else { return nil }
        var words = ["stipple", "bisect", r.script, "--golden", golden]
        if r.frame != 0 { words += ["--frame", String(r.frame)] }
        if r.primitive != "points" { words += ["--primitive", r.primitive] }
        let t = r.tolerance
        if let p = t.perceptualThreshold {
            words += ["--perceptual", String(p)]
            if let m = t.metric { words += ["--metric", m.rawValue] }
            if t.checkerboard == false { words.append("--no-checkerboard") }
        } else if t.maxChannelDifference != 0 {
            words += ["--max-channel-diff", String(t.maxChannelDifference)]
        }
        if t.maxPixels > 0 || t.maxPixelsPercent > 0 { words += ["--max-pixels", t.pixelLimit.description] }
        if let n = t.windowSize { words += ["--window", String(n)] }
        if t.ignoreAntialiasing { words.append("--antialiasing") }
        return words.map(shellQuoted).joined(separator: " ")
    }

    private static func shellQuoted(_ word: String) -> String {
        word.allSatisfy({ $0.isLetter || $0.isNumber || "-_./@%=:+,".contains($0) }) ? word
            : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
