import Stipple
import Foundation

/// A folder of golden images named `NAME.DRIVER.PRIMITIVE.png` (NAME may end in
/// `@frame-NNNN`; DRIVER is `DriverIdentity.shortName`), so goldens of several drivers
/// and both primitives live side by side (SPEC §7).
public struct GoldenStore: Sendable {
    public var directory: String

    public init(directory: String) { self.directory = directory }

    /// Where a case's golden for `driver` and `primitive` is (or would be) kept.
    public func path(name: String, driver: String, primitive: Primitive) -> String {
        FileSystem.resolve("\(name).\(driver).\(primitive.rawValue).png", against: directory)
    }

    /// What the store holds for a case, from this driver's point of view.
    public enum Lookup: Sendable, Equatable {
        /// This driver's own golden: compared with the case's tolerance (`.exact` by default).
        case own(path: String)
        /// Another driver's quads golden: placement is exact on every driver, so it is
        /// compared with `.crossDriver` tolerance by default.
        case otherDriver(path: String, driver: String)
        /// Points goldens exist only for other drivers: they place points differently, so
        /// none of them can stand in for this driver's.
        case onlyOtherDrivers([String])
        case none
    }

    public func lookup(name: String, driver: String, primitive: Primitive) -> Lookup {
        let own = path(name: name, driver: driver, primitive: primitive)
        if FileSystem.entry(at: own) == .file { return .own(path: own) }
        let others = drivers(name: name, primitive: primitive).filter { $0 != driver }
        guard let first = others.first else { return .none }
        switch primitive {
        // llvmpipe's first when there is one: the reference the project's own goldens use.
        case .quads:
            let pick = others.contains("llvmpipe") ? "llvmpipe" : first
            return .otherDriver(path: path(name: name, driver: pick, primitive: primitive), driver: pick)
        case .points: return .onlyOtherDrivers(others)
        }
    }

    /// The drivers that have a golden of this case and primitive, sorted.
    public func drivers(name: String, primitive: Primitive) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return files.compactMap { file -> String? in
            guard let parsed = GoldenStore.parse(fileName: file), parsed.name == name,
                  parsed.primitive == primitive else { return nil }
            return parsed.driver
        }.sorted()
    }

    /// Splits `NAME.DRIVER.PRIMITIVE.png` from the right (a NAME may hold dots; a DRIVER never does).
    public static func parse(fileName: String) -> (name: String, driver: String, primitive: Primitive)? {
        guard fileName.hasSuffix(".png") else { return nil }
        let parts = fileName.dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, let primitive = Primitive(rawValue: String(parts[parts.count - 1])),
              !parts[parts.count - 2].isEmpty else { return nil }
        let name = parts[..<(parts.count - 2)].joined(separator: ".")
        guard !name.isEmpty else { return nil }
        return (name, String(parts[parts.count - 2]), primitive)
    }
}
