import Stipple
import Foundation

extension GoldenRunReport {
    enum CodingKeys: String, CodingKey {
        case driver, shard, cases, goldenDirectory, outputDirectory, interrupted, notRun
        /// Written for readers (the counts every other report shows), never read back.
        case counts
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(driver: try c.decode(DriverIdentity.self, forKey: .driver),
                  shard: try c.decodeIfPresent(String.self, forKey: .shard),
                  cases: try c.decode([GoldenCaseResult].self, forKey: .cases),
                  goldenDirectory: try c.decodeIfPresent(String.self, forKey: .goldenDirectory),
                  outputDirectory: try c.decodeIfPresent(String.self, forKey: .outputDirectory))
        interrupted = try c.decodeIfPresent(String.self, forKey: .interrupted)
        notRun = try c.decodeIfPresent(Int.self, forKey: .notRun)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(driver, forKey: .driver)
        try c.encodeIfPresent(shard, forKey: .shard)
        try c.encode(cases, forKey: .cases)
        try c.encodeIfPresent(goldenDirectory, forKey: .goldenDirectory)
        try c.encodeIfPresent(outputDirectory, forKey: .outputDirectory)
        try c.encodeIfPresent(interrupted, forKey: .interrupted)
        try c.encodeIfPresent(notRun, forKey: .notRun)
        try c.encode(counts, forKey: .counts)
    }

    /// JSON with sorted keys, so reports diff cleanly and compare byte for byte.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Writes the report as JSON (sorted keys) to `path`, whole or not at all.
    public func writeJSON(to path: String) throws {
        try AtomicFile.write([UInt8](try jsonData()), to: path)
    }

    /// Reads a `--json` report. Errors name the file and, through the located-JSON reader,
    /// the line:column of the value that is wrong (or of the object missing a key).
    public static func load(path: String) throws(InputError) -> GoldenRunReport {
        let bytes = try FileSystem.readBytes(path: path)
        let root = try JSONParser.parse(bytes, file: path)
        let reader = JSONReader(path: path)
        do {
            return try JSONDecoder().decode(GoldenRunReport.self, from: Data(bytes))
        } catch let error as DecodingError {
            let (path, context): ([CodingKey], String) = {
                switch error {
                case let .typeMismatch(type, c): return (c.codingPath, "expected \(Self.kind(type)) for \(Self.name(c.codingPath))")
                case let .valueNotFound(type, c): return (c.codingPath, "expected \(Self.kind(type)) for \(Self.name(c.codingPath)), found null")
                case let .keyNotFound(key, c): return (c.codingPath, "missing \"\(key.stringValue)\" in \(Self.name(c.codingPath))")
                case let .dataCorrupted(c): return (c.codingPath, "\(Self.name(c.codingPath)): \(c.debugDescription)")
                @unknown default: return ([], "\(error)")
                }
            }()
            throw reader.fail(Self.locate(path, in: root), "not a stipple test report (--json): \(context)")
        } catch {
            throw InputError(file: path, "not a stipple test report (--json): \(error)")
        }
    }

    /// Where the value at `codingPath` starts (the deepest part of it that exists).
    static func locate(_ codingPath: [CodingKey], in root: JSONValue) -> InputLocation {
        var value = root
        for key in codingPath {
            switch value.kind {
            case let .array(items):
                guard let i = key.intValue, items.indices.contains(i) else { return value.location }
                value = items[i]
            case let .object(members):
                guard let m = members.first(where: { $0.key == key.stringValue }) else { return value.location }
                value = m.value
            default: return value.location
            }
        }
        return value.location
    }

    /// "cases[2].verdict".
    static func name(_ codingPath: [CodingKey]) -> String {
        var s = ""
        for k in codingPath {
            if let i = k.intValue { s += "[\(i)]" } else { s += (s.isEmpty ? "" : ".") + k.stringValue }
        }
        return s.isEmpty ? "the report" : s
    }

    static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Double.Type: return "a number"
        case is Bool.Type: return "a boolean"
        default:
            let t = String(describing: type)
            if t.hasPrefix("Array") { return "an array" }
            if t.hasPrefix("Dictionary") { return "an object" }
            return t
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
        var merged = GoldenRunReport(driver: first.report.driver, shard: nil, cases: cases,
                                     goldenDirectory: first.report.goldenDirectory, outputDirectory: first.report.outputDirectory)
        // A shard that was stopped leaves the whole run incomplete.
        let stopped = reports.filter { $0.report.interrupted != nil }
        if let signal = stopped.first?.report.interrupted {
            merged.interrupted = signal
            merged.notRun = stopped.reduce(0) { $0 + ($1.report.notRun ?? 0) }
        }
        return merged
    }

    /// The order `GoldenSuite` lists cases in: script file name (bytes), then frame.
    static func caseOrder(_ a: GoldenCaseResult, _ b: GoldenCaseResult) -> Bool {
        let fa = a.script.split(separator: "/").last.map(String.init) ?? a.script
        let fb = b.script.split(separator: "/").last.map(String.init) ?? b.script
        if fa != fb { return GoldenSuite.order(fa, fb) }
        return a.frame < b.frame
    }
}
