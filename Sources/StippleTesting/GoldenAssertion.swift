import Synchronization
import Foundation
import Stipple
import StippleGolden

/// The machinery behind `assertGolden`: one renderer for the whole test process, the
/// golden's name and place beside the test file, the check that no two calls share a
/// golden, and failures reported to whichever framework runs.
enum GoldenAssertion {
    struct Site: Sendable {
        var fileID: String
        var file: StaticString
        var function: String
        var line: UInt
        var column: UInt

        /// "GoldenAssertTests.swift:12:9 in testTwoCalls()".
        var description: String {
            "\(URL(fileURLWithPath: "\(file)").lastPathComponent):\(line):\(column) in \(function)"
        }
    }

    /// Opened on first use and shared (the actor serialises tests that run in parallel).
    static let renderer: Result<Renderer, any Error> = Result {
        try Renderer(platform: EGLPlatform.fromEnvironment(ProcessInfo.processInfo.environment))
    }

    static func run(name: String?, frame: Int, primitive: Primitive, tolerance: GoldenTolerance?,
                    ignore: [GoldenTolerance.Region], record: GoldenRecordMode?, scriptPath: String, at site: Site,
                    render: @escaping (Renderer) async throws -> Image) async -> GoldenCaseResult? {
        let env = ProcessInfo.processInfo.environment
        let test = TestIdentity.current(function: site.function)
        let base = name ?? "\(test.baseName).\(GoldenRegistry.shared.nextCall(in: "\(site.fileID)|\(test.key)"))"
        let caseName = GoldenCase.name(script: base, frame: frame, framed: frame != 0)
        let c = GoldenCase(name: caseName, scriptName: base, scriptPath: scriptPath, frame: frame,
                           primitive: primitive, tolerance: tolerance, ignore: ignore)
        let store = GoldenStore(directory: goldenDirectory(site.file))
        do {
            let renderer = try renderer.get()
            let driver = DriverIdentity(renderer.info)
            let own = store.path(name: caseName, driver: driver.shortName, primitive: primitive)
            // Two checks of one golden in a run would overwrite each other: refuse the second.
            if let first = GoldenRegistry.shared.claim(own, by: site.description) {
                fail("assertGolden: two checks resolve to one golden, \(own): the first at \(first), this one at "
                     + "\(site.description). Give one of them a different `named:`; nothing was written.", at: site)
                return nil
            }
            let mode = recordMode(record, caseName: caseName, env)
            let check = GoldenCheck(store: store, outputDirectory: outputDirectory(site.file, env), driver: driver,
                                    record: mode) { r in
                let copy = r.actual.map { "cp '\($0)' '\(own)'" }
                let rerun = "re-run this test with STIPPLE_RECORD=failed STIPPLE_RECORD_FILTER='\(r.name)'"
                return [copy, rerun].compactMap { $0 }.joined(separator: ", or ")
            }
            let result = await check.check(c) { try await render(renderer) }
            if result.isFailure {
                let d = result.driver
                fail(GoldenConsole.line(result) + failurePaths(result)
                     + "\n(driver: EGL \(d.platform), \(d.vendor), \(d.renderer))", at: site)
                attachImages(of: result, at: site)
            } else if result.verdict == .recorded {
                FileHandle.standardError.write(Data("stipple: \(GoldenConsole.line(result))\n".utf8))
            }
            if let tight = result.tightTolerance {
                FileHandle.standardError.write(Data(("stipple: note: \(caseName) (\(site.description)): tolerance "
                    + "\(result.tolerance.summary) is looser than this run needed; tight: \(tight)\n").utf8))
            }
            return result
        } catch {
            fail("assertGolden \(caseName): \(error)", at: site)
            return nil
        }
    }

    /// The call's own mode, else `STIPPLE_RECORD` (limited to the cases `STIPPLE_RECORD_FILTER`'s
    /// comma-separated patterns match, when set), else `missing` (`never` when `CI=true`).
    static func recordMode(_ given: GoldenRecordMode?, caseName: String, _ env: [String: String]) -> GoldenRecordMode {
        if let given { return given }
        let fallback = GoldenRecordMode.default(isCI: GoldenCheck.isCI(env))
        guard let fromEnv = GoldenRecordMode.fromEnvironment(env) else { return fallback }
        if let filter = env["STIPPLE_RECORD_FILTER"], !filter.isEmpty {
            let patterns = filter.split(separator: ",").map(String.init)
            return CasePattern.matchesAny(caseName, patterns) ? fromEnv : fallback
        }
        return fromEnv
    }

    /// "testShiftedStamp()" → "testShiftedStamp"; file-name-safe.
    static func defaultName(_ function: String) -> String {
        safe(String(function.prefix { $0 != "(" }), fallback: "golden")
    }

    static func safe(_ text: String, fallback: String) -> String {
        let mapped = String(text.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
        let trimmed = mapped.split(separator: "-", omittingEmptySubsequences: true).joined(separator: "-")
        return trimmed.isEmpty ? fallback : String(trimmed.prefix(80))
    }

    /// `__Goldens__/TESTFILE/` beside the test file.
    static func goldenDirectory(_ file: StaticString) -> String {
        let url = URL(fileURLWithPath: "\(file)")
        return url.deletingLastPathComponent().appendingPathComponent("__Goldens__")
            .appendingPathComponent(url.deletingPathExtension().lastPathComponent).path
    }

    /// `$STIPPLE_TEST_OUTPUT/TESTFILE/`, or the temporary folder's `stipple-test/TESTFILE/`.
    static func outputDirectory(_ file: StaticString, _ env: [String: String]) -> String {
        let root = env["STIPPLE_TEST_OUTPUT"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("stipple-test")
        let testFile = URL(fileURLWithPath: "\(file)").deletingPathExtension().lastPathComponent
        return root.appendingPathComponent(testFile).path
    }

    static func failurePaths(_ r: GoldenCaseResult) -> String {
        let paths = [("golden", r.goldenPath), ("expected", r.golden), ("actual", r.actual),
                     ("actual, second render", r.secondActual), ("diff", r.diff)]
            .compactMap { k, v in v.map { "\n  \(k): \($0)" } }
        return paths.joined()
    }
}

/// The goldens claimed in this process and the calls counted in each test.
final class GoldenRegistry: Sendable {
    static let shared = GoldenRegistry()
    private let claims = Mutex<[String: String]>([:])
    private let calls = Mutex<[String: Int]>([:])

    /// nil when `path` is free (it is now `site`'s); else the site that has it.
    func claim(_ path: String, by site: String) -> String? {
        claims.withLock { claims in
            if let first = claims[path] { return first }
            claims[path] = site
            return nil
        }
    }

    /// 1 for a test's first unnamed call, 2 for its second, …
    func nextCall(in test: String) -> Int {
        calls.withLock { calls in
            calls[test, default: 0] += 1
            return calls[test]!
        }
    }
}
