import Stipple
import Foundation

/// The cases of a test folder: every `*.json` script in it (not recursive, sorted by file
/// name; `stipple-test.json` is the configuration, not a script), each at the frames its
/// configuration lists (frame 0 otherwise), in that order.
public struct GoldenSuite: Sendable, Equatable {
    /// The test folder.
    public var directory: String
    /// Its `stipple-test.json`, or the defaults.
    public var config: GoldenConfig
    /// Every case, in order: scripts by file name, then frames.
    public var cases: [GoldenCase]

    /// A suite of `cases` in `directory` with `config`.
    public init(directory: String, config: GoldenConfig = GoldenConfig(), cases: [GoldenCase]) {
        self.directory = directory; self.config = config; self.cases = cases
    }

    /// Finds the scripts and reads the configuration. `primitive` (the command line's
    /// --primitive) overrides the configuration's.
    public static func discover(directory: String, primitive override: Primitive? = nil) throws -> GoldenSuite {
        guard FileSystem.entry(at: directory) == .folder else {
            throw InputError(file: directory, "not a folder of test scripts")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw InputError(file: directory, "cannot list the folder: \(error.localizedDescription)")
        }
        let scripts = names.filter { $0.hasSuffix(".json") && $0 != GoldenConfig.fileName && !$0.hasPrefix(".") }
            .filter { FileSystem.entry(at: FileSystem.resolve($0, against: directory)) == .file }
            .sorted(by: GoldenSuite.order)
        let scriptNames = scripts.map { String($0.dropLast(5)) }
        let configPath = FileSystem.resolve(GoldenConfig.fileName, against: directory)
        // Anything by that name is read (a folder or a FIFO is an error there), never skipped.
        let config = FileSystem.entry(at: configPath) != .missing
            ? try GoldenConfig.load(path: configPath, scriptNames: Set(scriptNames)) : GoldenConfig()

        var cases: [GoldenCase] = []
        // Each case name is one golden and one output folder: two sources of one name are refused.
        var source: [String: String] = [:]
        for (file, name) in zip(scripts, scriptNames) {
            let c = config.cases[name]
            let frames = c?.frames ?? [0]
            let framed = frames != [0]
            for frame in frames {
                let caseName = GoldenCase.name(script: name, frame: frame, framed: framed)
                let from = framed ? "\(file) at frame \(frame) (\(GoldenConfig.fileName))" : file
                if let other = source[caseName] {
                    throw InputError(file: FileSystem.resolve(file, against: directory),
                                     "two cases are named \(caseName): \(other), and \(from); they would share one golden "
                                     + "and one output folder. Rename one script")
                }
                source[caseName] = from
                cases.append(GoldenCase(
                    name: caseName, scriptName: name,
                    scriptPath: FileSystem.resolve(file, against: directory), frame: frame,
                    primitive: override ?? c?.primitive ?? config.primitive ?? .points,
                    tolerance: c?.tolerance ?? config.tolerance, ignore: c?.ignore ?? []))
            }
        }
        return GoldenSuite(directory: directory, config: config, cases: cases)
    }

    /// DIR/golden: where goldens live unless --golden says otherwise.
    public var defaultGoldenDirectory: String { FileSystem.resolve("golden", against: directory) }

    /// Script file names in byte order, so every machine sorts the same way.
    static func order(_ a: String, _ b: String) -> Bool { Array(a.utf8).lexicographicallyPrecedes(b.utf8) }

    /// The K-th (from 1) of N deterministic slices: round-robin over the case list, so
    /// slices stay balanced as cases are added.
    public func shard(_ shard: Shard) -> [GoldenCase] {
        cases.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
    }
}

/// `K/N`: the K-th of N slices, 1 ≤ K ≤ N.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// K, from 1.
    public var index: Int
    /// N.
    public var count: Int

    /// `K/N` with 1 ≤ K ≤ N, read as a frame range's shard is; nil otherwise.
    public init?(_ text: String) {
        guard let parsed = FrameShard(text) else { return nil }
        index = parsed.index; count = parsed.count
    }

    /// "K/N".
    public var description: String { "\(index)/\(count)" }
}
