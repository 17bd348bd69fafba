import Stipple
import Foundation

extension GoldenRunReport {
    /// JSON with sorted keys, so reports diff cleanly and compare byte for byte.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    public func writeJSON(to path: String) throws {
        try AtomicFile.write([UInt8](try jsonData()), to: path)
    }

    public static func load(path: String) throws -> GoldenRunReport {
        let bytes = try FileSystem.readBytes(path: path)
        do {
            return try JSONDecoder().decode(GoldenRunReport.self, from: Data(bytes))
        } catch {
            throw InputError(file: path, "not a stipple test report (--json): \(error)")
        }
    }

    /// The reports of shards as one: every case once, in the unsharded run's order (script
    /// file name, then frame), no shard. Reports of different drivers, or a case in two
    /// reports, are refused: the result would not be one run's report.
    public static func merge(_ reports: [(path: String, report: GoldenRunReport)]) throws -> GoldenRunReport {
        guard let first = reports.first else { throw InputError(file: "--merge-reports", "no reports to merge") }
        var seen: [String: String] = [:]
        var cases: [GoldenCaseResult] = []
        for (path, r) in reports {
            guard r.driver == first.report.driver else {
                throw InputError(file: path, "made on \(r.driver.renderer) (\(r.driver.platform)); "
                                 + "\(first.path) on \(first.report.driver.renderer): shards must share a driver")
            }
            for c in r.cases {
                if let other = seen[c.name] { throw InputError(file: path, "case \(c.name) is also in \(other)") }
                seen[c.name] = path
                cases.append(c)
            }
        }
        cases.sort(by: caseOrder)
        return GoldenRunReport(driver: first.report.driver, shard: nil, cases: cases,
                               goldenDirectory: first.report.goldenDirectory, outputDirectory: first.report.outputDirectory)
    }

    /// The order `GoldenSuite` lists cases in: script file name (bytes), then frame.
    static func caseOrder(_ a: GoldenCaseResult, _ b: GoldenCaseResult) -> Bool {
        let fa = a.script.split(separator: "/").last.map(String.init) ?? a.script
        let fb = b.script.split(separator: "/").last.map(String.init) ?? b.script
        if fa != fb { return GoldenSuite.order(fa, fb) }
        return a.frame < b.frame
    }
}
