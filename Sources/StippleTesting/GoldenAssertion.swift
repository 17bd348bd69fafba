import Foundation
import Stipple
import StippleGolden

/// The machinery behind `assertGolden`: one renderer for the whole test process, the
/// golden's place beside the test file, and failures reported to whichever framework runs.
enum GoldenAssertion {
    struct Site: Sendable {
        var fileID: String
        var file: StaticString
        var function: String
        var line: UInt
        var column: UInt
    }

    /// Opened on first use and shared (the actor serialises tests that run in parallel).
    static let renderer: Result<Renderer, any Error> = Result {
        try Renderer(platform: EGLPlatform.fromEnvironment(ProcessInfo.processInfo.environment))
    }

    static func run(name: String?, frame: Int, primitive: Primitive, tolerance: GoldenTolerance?,
                    ignore: [GoldenTolerance.Region], record: Bool, scriptPath: String, at site: Site,
                    render: (Renderer) async throws -> Image) async -> GoldenCaseResult? {
        let base = name ?? defaultName(site.function)
        let caseName = GoldenCase.name(script: base, frame: frame, framed: frame != 0)
        let c = GoldenCase(name: caseName, scriptName: base, scriptPath: scriptPath, frame: frame,
                           primitive: primitive, tolerance: tolerance, ignore: ignore)
        let env = ProcessInfo.processInfo.environment
        do {
            let renderer = try renderer.get()
            let started = Date()
            let image = try await render(renderer)
            let check = GoldenCheck(store: GoldenStore(directory: goldenDirectory(site.file)),
                                    outputDirectory: outputDirectory(site.file, env), driver: DriverIdentity(renderer.info),
                                    record: record || env["STIPPLE_RECORD"].map { $0 == "1" || $0 == "true" } == true,
                                    isCI: GoldenCheck.isCI(env))
            let result = check.check(c, image: image, started: started)
            if result.isFailure {
                let d = result.driver
                fail(GoldenConsole.line(result) + failurePaths(result)
                     + "\n(driver: EGL \(d.platform), \(d.vendor), \(d.renderer))", at: site)
            } else if result.verdict == .recorded {
                FileHandle.standardError.write(Data("stipple: \(GoldenConsole.line(result))\n".utf8))
            }
            return result
        } catch {
            fail("assertGolden \(caseName): \(error)", at: site)
            return nil
        }
    }

    /// "testShiftedStamp()" → "testShiftedStamp"; file-name-safe.
    static func defaultName(_ function: String) -> String {
        let bare = function.prefix { $0 != "(" }
        let safe = bare.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }
        return safe.isEmpty ? "golden" : String(safe)
    }

    static func goldenDirectory(_ file: StaticString) -> String {
        URL(fileURLWithPath: "\(file)").deletingLastPathComponent().appendingPathComponent("__Goldens__").path
    }

    /// `$STIPPLE_TEST_OUTPUT/TESTFILE/`, or the temporary folder's `stipple-test/TESTFILE/`.
    static func outputDirectory(_ file: StaticString, _ env: [String: String]) -> String {
        let root = env["STIPPLE_TEST_OUTPUT"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("stipple-test")
        let testFile = URL(fileURLWithPath: "\(file)").deletingPathExtension().lastPathComponent
        return root.appendingPathComponent(testFile).path
    }

    static func failurePaths(_ r: GoldenCaseResult) -> String {
        let paths = [("expected", r.golden), ("actual", r.actual), ("diff", r.diff)]
            .compactMap { k, v in v.map { "\n  \(k): \($0)" } }
        return paths.joined()
    }
}
