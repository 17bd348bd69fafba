import Stipple
import Foundation

/// A `stipple test` report as JUnit XML, for CI systems: one testsuite (the test folder),
/// one testcase per case. Failed, missing and no-golden-for-driver cases are failures,
/// unreadable scripts errors, recorded cases skipped (nothing was compared). Flaky cases
/// are failures of type "flaky" (apart from "failed"), counted in the `flaky` property,
/// with both renders named.
public enum JUnitReport {
    /// The report as JUnit XML; `suiteName` names the test suite (default: the test folder).
    public static func xml(_ report: GoldenRunReport, suiteName: String? = nil) -> String {
        let name = suiteName ?? defaultSuiteName(report)
        let counts = report.counts
        let (failures, errors, skipped) = (counts.failures, counts.errors, counts.recorded)
        let time = report.cases.reduce(0) { $0 + $1.seconds }
        var x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        x += "<testsuites name=\"stipple test\" tests=\"\(report.cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(seconds(time))\">\n"
        x += "  <testsuite name=\(attr(name)) tests=\"\(report.cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(seconds(time))\">\n"
        x += "    <properties>\n"
        var properties = [("egl.platform", report.driver.platform), ("gl.vendor", report.driver.vendor),
                          ("gl.renderer", report.driver.renderer), ("driver", report.driver.shortName)]
        if let shard = report.shard { properties.append(("shard", shard)) }
        if report.flaky > 0 { properties.append(("flaky", String(report.flaky))) }
        if let signal = report.interrupted {
            properties.append(("interrupted", signal))
            properties.append(("not-run", String(report.notRun ?? 0)))
        }
        for (k, v) in properties { x += "      <property name=\(attr(k)) value=\(attr(v))/>\n" }
        x += "    </properties>\n"
        for c in report.cases {
            x += "    <testcase classname=\(attr(name)) name=\(attr(c.name)) time=\"\(seconds(c.seconds))\""
            let paths = [("expected", c.golden), ("actual", c.actual), ("actual, second render", c.secondActual), ("diff", c.diff)]
                .compactMap { k, v in v.map { "\(k): \($0)" } }.joined(separator: "\n")
            switch c.verdict {
            case .passed:
                x += "/>\n"
            case .recorded:
                x += ">\n      <skipped message=\(attr(c.message))/>\n    </testcase>\n"
            case .error:
                x += ">\n      <error message=\(attr(c.message)) type=\"error\">\(text(paths))</error>\n    </testcase>\n"
            case .failed, .missing, .noGoldenForDriver, .flaky:
                let body = [c.message, "driver: \(c.driver.renderer) (\(c.driver.platform))", paths,
                            c.acceptCommand.map { "to accept: \($0)" } ?? ""]
                    .filter { !$0.isEmpty }.joined(separator: "\n")
                x += ">\n      <failure message=\(attr(c.message)) type=\(attr(c.verdict.rawValue))>\(text(body))</failure>\n    </testcase>\n"
            }
        }
        x += "  </testsuite>\n</testsuites>\n"
        return x
    }

    /// Writes the XML to `path`, whole or not at all.
    public static func write(_ report: GoldenRunReport, to path: String, suiteName: String? = nil) throws {
        try AtomicFile.write(Array(xml(report, suiteName: suiteName).utf8), to: path)
    }

    /// The folder the cases' scripts are in, as given on the command line.
    public static func defaultSuiteName(_ report: GoldenRunReport) -> String {
        report.cases.first.map { FileSystem.folder(of: $0.script) } ?? "stipple"
    }

    static func seconds(_ s: Double) -> String { String(format: "%.3f", s) }

    /// A quoted attribute value.
    static func attr(_ s: String) -> String {
        "\"" + text(s).replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "\n", with: "&#10;").replacingOccurrences(of: "\t", with: "&#9;") + "\""
    }

    /// Character data: markup escaped, characters XML 1.0 forbids dropped.
    static func text(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(u)
            default:
                let v = u.value
                if v < 0x20 || (0xFFFE...0xFFFF).contains(v) { continue }
                out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
