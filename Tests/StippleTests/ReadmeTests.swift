import Foundation
import XCTest

/// README.md as a test: every ```sh and ```swift block runs, in README order, in a copy of
/// examples/ with the built `stipple` first on PATH; the swift blocks are compiled into one
/// program against the library this build made. A block that must not run says so in its
/// fence (```sh no-run). A README that drifts from the code fails here.
final class ReadmeTests: XCTestCase {
    static let readme = TestSupport.packageRoot.appendingPathComponent("README.md")

    func testEveryShellAndSwiftBlockOfTheReadmeRuns() throws {
        let blocks = ReadmeBlock.all(in: try String(contentsOf: Self.readme, encoding: .utf8))
        let runnable = blocks.enumerated().filter { ["sh", "swift"].contains($0.element.language) && $0.element.runs }
        XCTAssertGreaterThanOrEqual(runnable.filter { $0.element.language == "sh" }.count, 2)
        XCTAssertGreaterThanOrEqual(runnable.filter { $0.element.language == "swift" }.count, 2)

        let work = try TestSupport.temporaryDirectory(self, "stipple-readme")
        try FileManager.default.copyItem(at: TestSupport.packageRoot.appendingPathComponent("examples"),
                                         to: work.appendingPathComponent("examples"))
        let examples = work.appendingPathComponent("examples")
        let swiftBlocks = runnable.filter { $0.element.language == "swift" }.map { (index: $0.offset, block: $0.element) }
        let program: URL?, notCompiled: String?
        do {
            program = try ReadmeProgram.build(swiftBlocks, readme: Self.readme.path)
            notCompiled = nil
        } catch let reason as ReadmeProgram.Unavailable {
            program = nil; notCompiled = reason.message
        }

        let bin = TestSupport.stippleBinary.deletingLastPathComponent().path
        let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for (index, block) in runnable {
            let run: TestSupport.Run
            switch block.language {
            case "sh":
                run = try ReadmeProgram.run("/bin/bash", ["-euo", "pipefail", "-c", block.code], in: examples,
                                            environment: ["PATH": path])
            default:
                guard let program else { continue }
                run = try ReadmeProgram.run(program.path, ["\(index)"], in: examples, environment: [:])
            }
            XCTAssertEqual(run.status, 0, """
                README.md:\(block.line): the \(block.language) block failed (exit \(run.status))
                \(block.code)
                stderr: \(run.stderr)
                """)
        }
        // What the blocks say they write is there.
        for file in ["burst.png", "frames/frame-0168.png", "stroke.png", "live.json", "live.sketchpoints",
                     "formula.png", "formula.json", "sun.png", "shapes/7000000000000008.png", "shapes.npy",
                     "shapes-lines/7000000000000008.png"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: examples.appendingPathComponent(file).path), file)
        }
        if let notCompiled { throw XCTSkip("README's sh blocks ran; its swift blocks did not: \(notCompiled)") }
        for file in ["live.png", "burst-60.png", "two-stamps.png"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: examples.appendingPathComponent(file).path), file)
        }
    }

    func testBlocksAreFoundWithTheirMarkers() {
        let text = "a\n```sh\nstipple info\n```\n```sh no-run\nmake run\n```\n```swift\nlet x = 1\n```\n```json\n{}\n```\n"
        let blocks = ReadmeBlock.all(in: text)
        XCTAssertEqual(blocks.map(\.language), ["sh", "sh", "swift", "json"])
        XCTAssertEqual(blocks.map(\.runs), [true, false, true, true])
        XCTAssertEqual(blocks.map(\.line), [3, 6, 9, 12])
        XCTAssertEqual(blocks[0].code, "stipple info")
    }

    /// Shell blocks are written for sh: a ```bash or ```console block would silently not run.
    func testNoShellBlockHidesUnderAnotherName() throws {
        let blocks = ReadmeBlock.all(in: try String(contentsOf: Self.readme, encoding: .utf8))
        let others = blocks.filter { ["bash", "shell", "console", "zsh", "swift-no"].contains($0.language) }
        XCTAssertEqual(others.map(\.line), [], "use ```sh (or ```sh no-run) so the block is tested")
    }
}

/// Compiles README's swift blocks into one program with `swiftc`, against the modules and
/// objects of this build (no package to resolve); kept beside the build and rebuilt only
/// when the blocks or the library change.
enum ReadmeProgram {
    struct Unavailable: Error { var message: String }

    /// The objects of the library as this build compiled it: one `NAME.swift.o` for each
    /// source SwiftPM lists (a folder listing would also pick up objects of renamed sources).
    static func currentObjects(swift folder: URL) throws -> [String] {
        let list = try String(contentsOf: folder.appendingPathComponent("sources"), encoding: .utf8)
        return list.split(separator: "\n").map { folder.appendingPathComponent(URL(fileURLWithPath: String($0)).lastPathComponent + ".o").path }
    }

    /// The C objects whose source file is still in the package.
    static func currentObjects(c folder: URL, sources: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { name in
            name.hasSuffix(".c.o") && FileManager.default.fileExists(
                atPath: TestSupport.packageRoot.appendingPathComponent(sources).appendingPathComponent(String(name.dropLast(2))).path)
        }.map { folder.appendingPathComponent($0).path }
    }

    static func build(_ blocks: [(index: Int, block: ReadmeBlock)], readme: String) throws -> URL {
        let fm = FileManager.default
        let bin = TestSupport.stippleBinary.deletingLastPathComponent()
        let modules = bin.appendingPathComponent("Modules"), stipple = bin.appendingPathComponent("Stipple.build")
        let cshim = bin.appendingPathComponent("CStipple.build")
        guard fm.fileExists(atPath: modules.appendingPathComponent("Stipple.swiftmodule").path),
              fm.fileExists(atPath: cshim.appendingPathComponent("module.modulemap").path) else {
            throw Unavailable(message: "no Stipple module in \(bin.path) (SwiftPM's build layout changed?)")
        }
        guard let swiftc = findSwiftc() else { throw Unavailable(message: "swiftc is not on PATH") }
        let objects = try currentObjects(swift: stipple) + currentObjects(c: cshim, sources: "Sources/CStipple")

        let scratch = bin.appendingPathComponent("readme-examples")
        try fm.createDirectory(at: scratch, withIntermediateDirectories: true)
        let source = scratch.appendingPathComponent("main.swift"), program = scratch.appendingPathComponent("readme")
        let text = ReadmeBlock.program(blocks, readme: readme)
        let newestInput = ([modules.appendingPathComponent("Stipple.swiftmodule").path] + objects)
            .compactMap { try? fm.attributesOfItem(atPath: $0)[.modificationDate] as? Date }.max() ?? .distantFuture
        if (try? String(contentsOf: source, encoding: .utf8)) == text,
           let built = try? fm.attributesOfItem(atPath: program.path)[.modificationDate] as? Date, built > newestInput {
            return program
        }
        try text.write(to: source, atomically: true, encoding: .utf8)
        let include = TestSupport.packageRoot.appendingPathComponent("Sources/CStipple/include").path
        let args = ["-g", "-Onone", "-suppress-warnings", "-I", modules.path,
                    "-Xcc", "-fmodule-map-file=\(cshim.appendingPathComponent("module.modulemap").path)",
                    "-Xcc", "-I\(include)", "-module-cache-path", scratch.appendingPathComponent("cache").path,
                    source.path] + objects + ["-lEGL", "-lGLESv2", "-lgbm", "-lpng", "-lz", "-o", program.path]
            + TestSupport.sanitizerFlags
        let run = try run(swiftc, args, in: scratch, environment: [:])
        guard run.status == 0 else {
            XCTFail("README.md's swift blocks do not compile:\n\(run.stderr)\(run.stdout)")
            throw Unavailable(message: "they do not compile (see the failure above)")
        }
        return program
    }

    static func findSwiftc() -> String? {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return dirs.map { $0 + "/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func run(_ executable: String, _ arguments: [String], in directory: URL,
                    environment: [String: String]) throws -> TestSupport.Run {
        try TestSupport.run(executable, arguments, environment: environment, in: directory)
    }
}
