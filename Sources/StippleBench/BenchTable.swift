import Stipple
import Foundation

/// The report as a plain table for people, one block a scenario.
package enum BenchTable {
    package static func render(_ report: BenchReport) -> String {
        let threads = LlvmpipeThreads.apply(to: report.renderer) ? "llvmpipe threads: \(report.llvmpipeThreads), " : ""
        var out = "stipple bench: \(report.renderer) (\(report.platform)), \(report.glVersion), "
            + "\(threads)\(report.cores) cores, \(report.date)\n"
        if let command = report.command, let seconds = report.seconds {
            out += "command: \(command); the whole run took \(Int(seconds) / 60) min \(Int(seconds) % 60) s\n"
        }
        out += headline(report)
        out += "times are medians over \(report.config.reps) repetitions after \(report.config.warmup) warm-up "
            + "(\(report.config.pairs) alternating pairs where Stipple meets the C baseline); "
            + "min and p95 beside them; every GPU time ends with glFinish\n"
        var scenarios: [String] = []
        for row in report.rows where !scenarios.contains(row.scenario) { scenarios.append(row.scenario) }
        for scenario in scenarios {
            let rows = report.rows.filter { $0.scenario == scenario }
            out += "\n== \(scenario) ==\n"
            var lines = [["variant", "workload", "median", "min", "p95", "figures", "ratio"]]
            for r in rows {
                let figures = r.figures.keys.sorted().map { "\($0) \(number(r.figures[$0]!))" }.joined(separator: ", ")
                let ratio = r.ratio.map { r.ratioOf == nil ? ratioText($0, r.ratioTo ?? "") : String(format: "%.2f× %@", $0, r.ratioTo ?? "") } ?? ""
                lines.append([r.variant, r.workload, ms(r.timing.median), ms(r.timing.min), ms(r.timing.p95), figures, ratio])
            }
            out += columns(lines)
        }
        if !report.targets.isEmpty {
            let quick = report.quick == true
            out += "\n== targets ==" + (quick ? " (a --quick run's sizes and repetitions are too small to judge them: run make bench)" : "") + "\n"
            out += columns([["target", "measured", "limit", "verdict", "meaning"]] + report.targets.map {
                [$0.name, String(format: "%.3f", $0.measured), ($0.atMost ? "≤ " : "≥ ") + String(format: "%.2f", $0.limit),
                 quick ? "not judged in --quick" : ($0.met ? "met" : "NOT MET"), $0.explanation]
            })
        }
        for s in report.skipped { out += "skipped: \(s)\n" }
        for n in report.notes ?? [] { out += "note: \(n)\n" }
        return out
    }

    /// The answer to "how fast is this here", for the first lines: stamps a second (points)
    /// and draw calls a second (one stamp a draw), where those scenarios ran.
    static func headline(_ report: BenchReport) -> String {
        var parts: [String] = []
        if let r = report.rows.first(where: { $0.scenario == "stamps" && $0.variant == "stipple points" }),
           let v = r.figures["stamps/s"] {
            parts.append("\(number(v)) stamps/s (\(r.workload), points)")
        }
        if let r = report.rows.first(where: { $0.scenario == "drawcalls" && $0.variant == "stipple"
                                              && $0.workload.hasSuffix(" draws of 1") }),
           let v = r.figures["calls/s"] {
            parts.append("\(number(v)) draw calls/s (one stamp a draw)")
        }
        guard !parts.isEmpty else { return "" }
        return "on this machine: " + parts.joined(separator: "; ") + (report.quick == true ? " — --quick sizes" : "") + "\n"
    }

    /// `1.49× the time of stipple points`: every ratio in the tables divides this row's time
    /// by the other's; "faster" and "slower" say the same in words.
    static func ratioText(_ ratio: Double, _ other: String) -> String {
        let words = ratio >= 1 ? String(format: "%.2f× slower", ratio) : String(format: "%.2f× faster", 1 / ratio)
        return String(format: "%.2f× the time of %@ (%@)", ratio, other, words)
    }

    static func ms(_ seconds: Double) -> String { String(format: "%.3f ms", seconds * 1e3) }

    /// 1234567 → "1.23M", 0.00123 → "0.00123".
    static func number(_ v: Double) -> String {
        let a = abs(v)
        if a >= 1e9 { return String(format: "%.2fG", v / 1e9) }
        if a >= 1e6 { return String(format: "%.2fM", v / 1e6) }
        if a >= 1e4 { return String(format: "%.1fk", v / 1e3) }
        if a >= 100 { return String(format: "%.0f", v) }
        return String(format: "%.3g", v)
    }

    static func columns(_ rows: [[String]]) -> String {
        let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n") + "\n"
    }
}
