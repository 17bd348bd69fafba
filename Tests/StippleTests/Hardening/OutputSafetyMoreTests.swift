import Foundation
import XCTest

/// Outputs that are FIFOs or character devices are written into, never replaced, by every
/// command (`OutputFile`, docs/limits.md "Outputs"); a killed run leaves no temporary;
/// frame names and `--frame` bounds. Devices are private twins of /dev/null (`mknod c 1 3`),
/// never the real one.
final class OutputSafetyMoreTests: XCTestCase {
    static let script = #"{"canvas":{"width":16,"height":16},"brushes":{"s":{"builtin":"soft-round"}},"draw":[{"brush":"s","stamps":[[8,8,2,0,0,1,1,1,1]]}]}"#
    static let sketch = #"{"brushes":{"s":{"builtin":"soft-round"}},"draw":[{"brush":"s","points":[{"x":2,"y":2,"t":0},{"x":14,"y":14,"t":0.05}]}]}"#

    /// A folder with s.json, sk.json, in.y4m (two 16×16 grey frames) and x.sketchpoints.
    static func folder(_ test: XCTestCase, _ name: String) throws -> CLIFolder {
        let f = try CLIFolder(test, name)
        try f.write("s.json", script)
        try f.write("sk.json", sketch)
        var y4m = Data("YUV4MPEG2 W16 H16 F30:1 Ip A1:1 C420jpeg\n".utf8)
        for _ in 0..<2 { y4m += Data("FRAME\n".utf8) + Data(repeating: 0x80, count: 384) }
        try y4m.write(to: f.dir.appendingPathComponent("in.y4m"))
        XCTAssertEqual(try f.run(["stamps", "s.json", "-o", "x.sketchpoints"]).status, 0)
        return f
    }

    /// A character device like /dev/null, private to the test folder.
    static func device(_ f: CLIFolder, _ name: String) throws -> String {
        let p = f.path(name)
        guard mknod(p, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0 else {  // makedev(1, 3): a /dev/null twin
            throw XCTSkip("mknod needs root: \(String(cString: strerror(errno)))")
        }
        return p
    }

    static func kind(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    static func hasFFmpeg() -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/ffmpeg") }
    }

    /// Every command whose output is a file, each into a device named as its output kind.
    static func commands(into name: (String) -> String) -> [[String]] {
        [["bake", "sk.json", "--video", "in.y4m", "-o", name("null")],
         ["bake", "sk.json", "--video", "in.y4m", "-o", name("v.y4m")],
         ["render", "s.json", "--frames", "0...1", "-o", name("f.y4m")],
         ["render", "s.json", "-o", name("f.png")],
         ["stamps", "s.json", "-o", name("f.json")],
         ["stamps", "s.json", "-o", name("f.sketchpoints")],
         ["convert", "x.sketchpoints", "-o", name("c.json")],
         ["convert", "x.sketchpoints", "-o", name("c.sketchpoints")]]
            + (hasFFmpeg() ? [["render", "s.json", "--frames", "0...1", "-o", name("f.mp4")]] : [])
    }

    func testACharacterDeviceOutputIsWrittenIntoNeverReplaced() throws {
        let f = try Self.folder(self, "special-chardev")
        for args in Self.commands(into: { "dev-" + $0 }) {
            let dev = try Self.device(f, args.last!)
            let run = try f.run(args)
            XCTAssertEqual(run.status, 0, "\(args): \(run.stderr)")
            XCTAssertEqual(Self.kind(dev), S_IFCHR, "\(args) replaced the device")
            let left = try FileManager.default.contentsOfDirectory(atPath: f.dir.path).filter { $0.contains(".tmp-") }
            XCTAssertEqual(left, [], "\(args)")
        }
    }

    func testStampsIntoADeviceReportTheBytesWritten() throws {
        let f = try Self.folder(self, "special-bytes")
        _ = try Self.device(f, "dev.sketchpoints")
        let run = try f.run(["stamps", "s.json", "-o", "dev.sketchpoints"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("1 stamp at frame 0 (36 bytes)"), run.stderr)
    }

    func testAFIFOWithAReaderIsWrittenIntoNeverReplaced() throws {
        let f = try Self.folder(self, "special-fifo")
        for args in Self.commands(into: { "fifo-" + $0 }) where !args.last!.hasSuffix(".mp4") {
            let fifo = f.fifo(args.last!)
            // A reader waiting (non-blocking open: no writer is needed yet); outputs fit the pipe.
            let reader = open(fifo, O_RDONLY | O_NONBLOCK)
            XCTAssertGreaterThanOrEqual(reader, 0)
            defer { close(reader) }
            _ = fcntl(reader, 1031 /* F_SETPIPE_SZ */, 1 << 20)
            let run = try f.run(args)
            XCTAssertEqual(run.status, 0, "\(args): \(run.stderr)")
            XCTAssertEqual(Self.kind(fifo), S_IFIFO, "\(args) replaced the FIFO")
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            XCTAssertGreaterThan(read(reader, &buffer, buffer.count), 0, "\(args) wrote nothing into the FIFO")
        }
    }

    func testAFIFOWithNoReaderIsRefused() throws {
        let f = try Self.folder(self, "special-noreader")
        for args in Self.commands(into: { "fifo-" + $0 }) {
            _ = f.fifo(args.last!)
            try f.assertRefused(args, saysAll: ["no process is reading"])
        }
    }

    /// SIGTERM or SIGINT mid-run: the process dies by the signal and leaves no `.tmp-` file.
    func testAKilledRunLeavesNoTemporaryFile() throws {
        let f = try CLIFolder(self, "killed")
        try f.write("big.json", Self.script.replacingOccurrences(of: #""width":16,"height":16"#, with: #""width":512,"height":512"#))
        try f.write("sk.json", Self.sketch)
        var y4m = Data("YUV4MPEG2 W256 H256 F30:1 Ip A1:1 C420jpeg\n".utf8)
        let frame = Data("FRAME\n".utf8) + Data(repeating: 0x80, count: 256 * 256 * 3 / 2)
        for _ in 0..<400 { y4m += frame }
        try y4m.write(to: f.dir.appendingPathComponent("long.y4m"))
        let runs: [([String], Int32)] = [
            (["render", "big.json", "--frames", "0...99999", "-o", "out.y4m"], SIGTERM),
            (["render", "big.json", "--frames", "0...99999", "-o", "out.y4m"], SIGINT),
            (["bake", "sk.json", "--video", "long.y4m", "-o", "baked.y4m"], SIGTERM)]
        for (args, sig) in runs {
            let p = Process()
            p.executableURL = TestSupport.stippleBinary
            p.arguments = args
            p.currentDirectoryURL = f.dir
            p.standardError = FileHandle.nullDevice
            try p.run()
            let deadline = Date().addingTimeInterval(60)
            var seen = false
            while Date() < deadline, p.isRunning, !seen {
                seen = (try FileManager.default.contentsOfDirectory(atPath: f.dir.path)).contains { $0.contains(".tmp-") }
                if !seen { usleep(20_000) }
            }
            XCTAssertTrue(seen && p.isRunning, "\(args): no temporary seen while running")
            kill(p.processIdentifier, sig)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationReason, .uncaughtSignal, "\(args)")
            XCTAssertEqual(p.terminationStatus, sig, "\(args)")
            let left = try FileManager.default.contentsOfDirectory(atPath: f.dir.path).filter { $0.contains(".tmp-") }
            XCTAssertEqual(left, [], "\(args) after signal \(sig)")
        }
    }

    func testFramesOfAnotherDigitWidthAreStale() throws {
        let f = try Self.folder(self, "frames-width-stale")
        try FileManager.default.createDirectory(atPath: f.path("fr"), withIntermediateDirectories: false)
        try f.write("fr/frame-00001.png", "an earlier render's")
        try f.assertRefused(["render", "s.json", "-o", "fr", "--frames", "0...2"], saysAll: ["frame-00001.png", "--clean"])
        let run = try f.run(["render", "s.json", "-o", "fr", "--frames", "0...2", "--clean"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: f.path("fr")).sorted(),
                       ["frame-0000.png", "frame-0001.png", "frame-0002.png"])
        XCTAssertTrue(run.stderr.contains("removed 1 older frame"), run.stderr)
    }

    func testTheFramesSummaryNamesTheFilesWritten() throws {
        let f = try Self.folder(self, "frames-summary")
        let run = try f.run(["render", "s.json", "-o", "fr", "--frames", "9998...10000"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("(frame-09998.png … frame-10000.png)"), run.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: f.path("fr")).sorted(),
                       ["frame-09998.png", "frame-09999.png", "frame-10000.png"])
    }

    func testStampsFrameIsBoundedAsRendersIs() throws {
        let f = try Self.folder(self, "stamps-frame")
        for frame in ["16777216", "16777217", "9223372036854775807", "-1"] {
            try f.assertRefused(["stamps", "s.json", "--frame", frame, "-o", "o.json"], status: 64, saysAll: ["16777215"])
        }
        XCTAssertEqual(try f.run(["stamps", "s.json", "--frame", "16777215", "-o", "o.json"]).status, 0)
    }

    // MARK: stipple test's outputs, all checked before any case runs

    /// A suite `.` with a.json and its recorded golden in g/.
    private func suite(_ name: String) throws -> CLIFolder {
        let f = try CLIFolder(self, name)
        try f.write("a.json", Self.script)
        let run = try f.run(["test", ".", "--golden", "g", "--record", "missing"])
        XCTAssertEqual(run.status, 0, run.stderr + run.stdout)
        return f
    }

    func testReportNeverOverwritesAUsersFolderTheSuiteOrTheGoldens() throws {
        let f = try suite("report-folders")
        try FileManager.default.createDirectory(atPath: f.path("mine"), withIntermediateDirectories: false)
        try f.write("mine/index.html", "the user's own page")
        try f.assertRefused(["test", ".", "--golden", "g", "--report", "mine"], saysAll: ["mine", "--report", "did not make"])
        try f.assertRefused(["test", ".", "--golden", "g", "--report", "."], saysAll: ["--report", "suite"])
        try f.assertRefused(["test", ".", "--golden", "g", "--report", "g"], saysAll: ["--report", "golden folder"])
        try f.assertRefused(["test", ".", "--golden", "g", "--report", "g/html"], saysAll: ["--report", "golden folder"])
        // A folder stipple made is its own to rewrite.
        XCTAssertEqual(try f.run(["test", ".", "--golden", "g", "--report", "html"]).status, 0)
        let again = try f.run(["test", ".", "--golden", "g", "--report", "html"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: f.path("html/index.html")))
    }

    func testBadOutputPathsAreRefusedBeforeAnyGoldenIsRecorded() throws {
        let f = try CLIFolder(self, "report-before-work")
        try f.write("a.json", Self.script)
        // Nothing recorded into g/ (nor anywhere): one line naming the path, exit 2.
        try f.assertRefused(["test", ".", "--golden", "g", "--record", "missing", "--report", "a.json"],
                            saysAll: ["a.json", "--report"])
        try f.assertRefused(["test", ".", "--golden", "a.json", "--record", "missing"], saysAll: ["a.json", "--golden"])
        try f.assertRefused(["test", ".", "--golden", "g", "--record", "missing", "--json", "no/such/r.json"],
                            saysAll: ["no/such/r.json", "does not exist"])
    }

    func testTwoOutputsNamingOneFileAreAUsageError() throws {
        let f = try suite("report-same-file")
        try f.assertRefused(["test", ".", "--golden", "g", "--json", "r.xml", "--junit", "r.xml"], status: 64,
                            saysAll: ["--json", "--junit", "r.xml"])
        try f.assertRefused(["test", ".", "--golden", "g", "--json", "html/index.html", "--report", "html"], status: 64,
                            saysAll: ["--json", "--report"])
        try f.assertRefused(["test", ".", "--golden", "g", "--report", "o", "--output", "o"], status: 64,
                            saysAll: ["--report", "--output"])
    }
}
