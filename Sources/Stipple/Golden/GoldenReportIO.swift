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
        // Stipple's own parser first: a syntax error is named at its line and column.
        _ = try JSONParser.parse(bytes, file: path)
        do {
            return try JSONDecoder().decode(GoldenRunReport.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw InputError(file: path, "not a stipple test report (--json): \(DecodingError.oneLine(error))")
        } catch {
            throw InputError(file: path, "not a stipple test report (--json): \(error.localizedDescription)")
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
        return GoldenRunReport(driver: first.report.driver, shard: nil, cases: cases)
    }

    /// The order `GoldenSuite` lists cases in: script file name (bytes), then frame.
    static func caseOrder(_ a: GoldenCaseResult, _ b: GoldenCaseResult) -> Bool {
        let fa = a.script.split(separator: "/").last.map(String.init) ?? a.script
        let fb = b.script.split(separator: "/").last.map(String.init) ?? b.script
        if fa != fb { return GoldenSuite.order(fa, fb) }
        return a.frame < b.frame
    }
}

extension DecodingError {
    /// What is wrong and where, in one line: "missing key \"driver\" at cases[0]".
    static func oneLine(_ error: DecodingError) -> String {
        func at(_ path: [CodingKey]) -> String {
            guard !path.isEmpty else { return "at the top" }
            var text = ""
            for key in path {
                if let i = key.intValue {
                    text += "[\(i)]"
                } else {
                    text += text.isEmpty ? key.stringValue : "." + key.stringValue
                }
            }
            return "at \(text)"
        }
        switch error {
        case let .keyNotFound(key, c): return "missing key \"\(key.stringValue)\" \(at(c.codingPath))"
        case let .typeMismatch(type, c): return "expected \(type) \(at(c.codingPath))"
        case let .valueNotFound(type, c): return "expected \(type), found null \(at(c.codingPath))"
        case let .dataCorrupted(c): return "\(c.debugDescription) \(at(c.codingPath))"
        @unknown default: return "\(error)"
        }
    }
}
