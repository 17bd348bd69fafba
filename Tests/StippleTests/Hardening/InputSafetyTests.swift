import Foundation
import Stipple
import XCTest

/// Inputs are safe: what a user gave is never removed or overwritten,
/// even when it looks like an output (a stale frame, a report path), and a killed encode
/// leaves neither a temporary file nor an ffmpeg behind.
final class InputSafetyTests: XCTestCase {
    func testCleanNeverRemovesAnInputNamedLikeAFrame() throws {
        let f = try CLIFolder(self, "clean-input")
        try FileManager.default.createDirectory(atPath: f.path("out"), withIntermediateDirectories: false)
        // The script itself, named like an earlier render's frame 9, in the output folder.
        try f.write("out/frame-0009.png", OutputSafetyMoreTests.script)
        try f.assertRefused(["render", "out/frame-0009.png", "--frames", "0...2", "-o", "out", "--clean"],
                            saysAll: ["frame-0009.png", "is an input of this script"])
    }

    func testReportsNeverOverwriteAFileACaseReads() throws {
        let f = try CLIFolder(self, "report-input")
        try FileManager.default.createDirectory(atPath: f.path("suite"), withIntermediateDirectories: false)
        try f.write("b.png", "a brush a case reads")
        try f.write("suite/a.json", #"{"canvas":{"width":8,"height":8},"brushes":{"s":"../b.png"},"draw":[]}"#)
        try f.assertRefused(["test", "suite", "--json", "b.png", "--record", "missing"], saysAll: ["b.png", "an input of the test suite"])
        try f.assertRefused(["test", "suite", "--junit", "b.png", "--record", "missing"], saysAll: ["b.png", "an input of the test suite"])
    }

    func testAKilledEncodeLeavesNeitherTemporaryNorFFmpeg() throws {
        try XCTSkipUnless(OutputSafetyMoreTests.hasFFmpeg(), "ffmpeg is not on PATH")
        let f = try CLIFolder(self, "killed-encode")
        try f.write("sk.json", OutputSafetyMoreTests.sketch)
        var y4m = Data("YUV4MPEG2 W16 H16 F30:1 Ip A1:1 C420jpeg\n".utf8)
        for _ in 0..<5 { y4m += Data("FRAME\n".utf8) + Data(repeating: 0x80, count: 384) }
        try y4m.write(to: f.dir.appendingPathComponent("v.y4m"))
        // A FIFO no one writes: the bake waits for its writer with ffmpeg already started.
        _ = f.fifo("ev")
        for sig in [SIGTERM, SIGHUP] {
            let p = Process()
            p.executableURL = TestSupport.stippleBinary
            p.arguments = ["bake", "sk.json", "--video", "v.y4m", "--events", "ev", "-o", "o.mkv"]
            p.currentDirectoryURL = f.dir
            p.standardError = FileHandle.nullDevice
            try p.run()
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, try !FileManager.default.contentsOfDirectory(atPath: f.dir.path).contains(where: { $0.contains(".tmp-") }) {
                usleep(20_000)
            }
            usleep(300_000)
            kill(p.processIdentifier, sig)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationReason, .uncaughtSignal)
            // ffmpeg, left alone, would write its container into the temporary after it was removed.
            usleep(1_000_000)
            let left = try FileManager.default.contentsOfDirectory(atPath: f.dir.path).filter { $0.contains(".tmp-") || $0 == "o.mkv" }
            XCTAssertEqual(left, [], "after signal \(sig)")
        }
    }
}
