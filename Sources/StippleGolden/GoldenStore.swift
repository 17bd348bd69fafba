import Stipple
import Foundation

/// A folder of golden images named `NAME.DRIVER.PRIMITIVE.png` (NAME may end in
/// `@frame-NNNN`; DRIVER is `DriverIdentity.shortName`), so goldens of several drivers
/// and both primitives live side by side. A case may have several accepted goldens
/// (Chromium's argument: a noisy case has two or three valid images): the first is
/// `NAME.DRIVER.PRIMITIVE.png`, the others `NAME.DRIVER.PRIMITIVE~2.png`, `~3`, …; the
/// case passes when it matches any of them.
public struct GoldenStore: Sendable {
    /// The folder of golden images.
    public var directory: String

    /// The goldens in `directory`.
    public init(directory: String) { self.directory = directory }

    /// Where a case's golden for `driver` and `primitive` is (or would be) kept;
    /// `alternative` 2, 3, … for the further accepted ones.
    public func path(name: String, driver: String, primitive: Primitive, alternative: Int = 1) -> String {
        FileSystem.resolve(GoldenStore.fileName(name: name, driver: driver, primitive: primitive, alternative: alternative),
                           against: directory)
    }

    /// A golden's file name: `NAME.DRIVER.PRIMITIVE.png`, `~N` before `.png` for further ones.
    public static func fileName(name: String, driver: String, primitive: Primitive, alternative: Int = 1) -> String {
        "\(name).\(driver).\(primitive.rawValue)\(alternative > 1 ? "~\(alternative)" : "").png"
    }

    /// What the store holds for a case, from this driver's point of view.
    public enum Lookup: Sendable, Equatable {
        /// This driver's own goldens (the first, then alternatives): compared with the
        /// case's tolerance (`.exact` by default).
        case own(paths: [String])
        /// Another driver's quads goldens: placement is exact on every driver, so they are
        /// compared with `.crossDriver` tolerance by default.
        case otherDriver(paths: [String], driver: String)
        /// Points goldens exist only for other drivers: they place points differently, so
        /// none of them can stand in for this driver's.
        case onlyOtherDrivers([String])
        case none
    }

    /// The goldens a case can be compared with on `driver`.
    public func lookup(name: String, driver: String, primitive: Primitive) -> Lookup {
        let all = goldens(name: name, primitive: primitive)
        if let own = all[driver], !own.isEmpty { return .own(paths: own) }
        let others = all.keys.filter { $0 != driver }.sorted()
        guard let first = others.first else { return .none }
        switch primitive {
        // llvmpipe's first when there is one: the reference the project's own goldens use.
        case .quads:
            let pick = others.contains("llvmpipe") ? "llvmpipe" : first
            return .otherDriver(paths: all[pick]!, driver: pick)
        case .points: return .onlyOtherDrivers(others)
        }
    }

    /// The drivers that have a golden of this case and primitive, sorted.
    public func drivers(name: String, primitive: Primitive) -> [String] {
        goldens(name: name, primitive: primitive).keys.sorted()
    }

    /// This case's goldens by driver, each list in accepted order (the first, then ~2, ~3…).
    public func goldens(name: String, primitive: Primitive) -> [String: [String]] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var found: [String: [(Int, String)]] = [:]
        for file in files {
            guard let parsed = GoldenStore.parse(fileName: file), parsed.name == name,
                  parsed.primitive == primitive else { continue }
            found[parsed.driver, default: []].append((parsed.alternative, FileSystem.resolve(file, against: directory)))
        }
        return found.mapValues { $0.sorted { $0.0 < $1.0 }.map(\.1) }
    }

    /// The next free alternative's path (`~2` when only the first exists).
    public func nextAlternative(name: String, driver: String, primitive: Primitive) -> String {
        let taken = Set((goldens(name: name, primitive: primitive)[driver] ?? []).compactMap {
            GoldenStore.parse(fileName: URL(fileURLWithPath: $0).lastPathComponent)?.alternative
        })
        var n = 1
        while taken.contains(n) { n += 1 }
        return path(name: name, driver: driver, primitive: primitive, alternative: n)
    }

    /// The file names in the folder that are goldens of none of `caseNames` (`goldens`), and
    /// those that are not golden names at all (`strays`; hidden files left out), sorted.
    public func orphans(caseNames: Set<String>) -> (goldens: [String], strays: [String]) {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        var goldens: [String] = [], strays: [String] = []
        for f in files where !f.hasPrefix(".") {
            if let parsed = GoldenStore.parse(fileName: f) {
                if !caseNames.contains(parsed.name) { goldens.append(f) }
            } else {
                strays.append(f)
            }
        }
        return (goldens, strays)
    }

    /// Splits `NAME.DRIVER.PRIMITIVE[~N].png` from the right (a NAME may hold dots; a DRIVER
    /// never does). `alternative` is 1 for the first golden, N for `~N` (N ≥ 2).
    public static func parse(fileName: String) -> (name: String, driver: String, primitive: Primitive, alternative: Int)? {
        guard fileName.hasSuffix(".png") else { return nil }
        let parts = fileName.dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, !parts[parts.count - 2].isEmpty else { return nil }
        var last = parts[parts.count - 1], alternative = 1
        if let tilde = last.firstIndex(of: "~") {
            guard let n = Int(last[last.index(after: tilde)...]), n >= 2 else { return nil }
            alternative = n; last = last[..<tilde]
        }
        guard let primitive = Primitive(rawValue: String(last)) else { return nil }
        let name = parts[..<(parts.count - 2)].joined(separator: ".")
        guard !name.isEmpty else { return nil }
        return (name, String(parts[parts.count - 2]), primitive, alternative)
    }

    /// "ages.llvmpipe.points~2.png" → "~2"; the first golden → "" (for lines that say which matched).
    public static func alternativeLabel(_ path: String) -> String {
        let n = parse(fileName: URL(fileURLWithPath: path).lastPathComponent)?.alternative ?? 1
        return n > 1 ? "~\(n)" : ""
    }
}

/// When goldens are written (swift-snapshot-testing's record modes).
public enum GoldenRecordMode: String, Sendable, Codable, CaseIterable {
    /// Write a golden only where none exists (the default outside CI).
    case missing
    /// Write missing goldens and goldens the image no longer matches (what a plain `stipple test --record` means).
    case failed
    /// Write every case's image, matching or not.
    case all
    /// Never write anything: a missing golden fails (the default when `CI=true`).
    case never

    /// `missing`, or `never` in CI.
    public static func `default`(isCI: Bool) -> GoldenRecordMode { isCI ? .never : .missing }

    /// `STIPPLE_RECORD`: a mode's name; "1", "true" or "yes" mean `failed` (as before the modes).
    public static func fromEnvironment(_ env: [String: String]) -> GoldenRecordMode? {
        guard let v = env["STIPPLE_RECORD"]?.lowercased(), !v.isEmpty else { return nil }
        if ["1", "true", "yes"].contains(v) { return .failed }
        if ["0", "false", "no"].contains(v) { return nil }
        return GoldenRecordMode(rawValue: v)
    }
}

/// Case-name patterns: `*` any run of characters, `?` one; a pattern without either
/// matches the name exactly.
public enum CasePattern {
    /// True when `name` matches `pattern` (`*` any run of characters, `?` one).
    public static func matches(_ name: String, _ pattern: String) -> Bool {
        let n = Array(name.unicodeScalars), p = Array(pattern.unicodeScalars)
        var i = 0, j = 0, star = -1, mark = 0
        while i < n.count {
            if j < p.count && (p[j] == "?" || p[j] == n[i]) { i += 1; j += 1 }
            else if j < p.count && p[j] == "*" { star = j; mark = i; j += 1 }
            else if star >= 0 { j = star + 1; mark += 1; i = mark }
            else { return false }
        }
        while j < p.count && p[j] == "*" { j += 1 }
        return j == p.count
    }

    /// True when `name` matches any of `patterns`.
    public static func matchesAny(_ name: String, _ patterns: [String]) -> Bool {
        patterns.contains { matches(name, $0) }
    }
}
