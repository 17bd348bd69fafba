import Foundation
import Stipple
import XCTest

/// Lost or clobbered files: `--frames` never replaces a user's file and leaves
/// nothing behind when it fails; a failing render makes no folders; frame names keep one
/// width and never wrap; `stipple test` reports never overwrite the suite's inputs.
final class OutputSafetyTests: XCTestCase {
    private let one = #"{"canvas":{"width":8,"height":8},"brushes":{"b":{"builtin":"hard-round"}},"draw":[{"brush":"b","stamps":[[4,4,2,0,0,1,1,1,1]]}]}"#

    func testFramesIntoAFolderWithAUsersFrameFileIsRefused() throws {
        let f = try CLIFolder(self, "frames-user")
        try f.write("one.json", one)
        try FileManager.default.createDirectory(atPath: f.path("out"), withIntermediateDirectories: false)
        try f.write("out/frame-0001.png", "the user's own file")
        try f.assertRefused(["render", "one.json", "-o", "out", "--frames", "0...2"],
                            saysAll: ["out/frame-0001.png: exists", "--overwrite"])
    }

    func testFramesWithOverwriteReplacesEarlierFrames() throws {
        let f = try CLIFolder(self, "frames-overwrite")
        try f.write("one.json", one)
        XCTAssertEqual(try f.run(["render", "one.json", "-o", "out", "--frames", "0...1"]).status, 0)
        XCTAssertEqual(try f.run(["render", "one.json", "-o", "out", "--frames", "0...1"]).status, 2)
        let again = try f.run(["render", "one.json", "-o", "out", "--frames", "0...1", "--overwrite"])
        XCTAssertEqual(again.status, 0, again.stderr)
    }

    func testFrameNamesPastNineThousandNineHundredNinetyNineKeepOneWidth() throws {
        let f = try CLIFolder(self, "frames-width")
        try f.write("one.json", one)
        let run = try f.run(["render", "one.json", "-o", "out", "--frames", "9999...10000"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: f.path("out")).sorted()
        XCTAssertEqual(names, ["frame-09999.png", "frame-10000.png"])
    }

    func testAFrameRangeBeyondTheLimitIsAUsageErrorAndWritesNothing() throws {
        let f = try CLIFolder(self, "frames-limit")
        try f.write("one.json", one)
        try f.assertRefused(["render", "one.json", "-o", "out", "--frames", "4294967296...4294967296"], status: 64,
                            saysAll: ["16777215"])
        try f.assertRefused(["render", "one.json", "-o", "out", "--frames", "0...100000000"], status: 64,
                            saysAll: ["16777215"])
        try f.assertRefused(["render", "one.json", "-o", "out", "--frames", "0...100000"], status: 64,
                            saysAll: ["100001 frames", "100000"])
    }

    func testAFailingFramesRunRemovesTheFramesAndFoldersItMade() throws {
        let f = try CLIFolder(self, "frames-fail")
        try f.write("one.json", one)
        // frame-0003.png is a folder: the run fails there, after frames 0...2 were written.
        try FileManager.default.createDirectory(atPath: f.path("new/out/frame-0003.png"), withIntermediateDirectories: true)
        let before = try f.snapshot()
        let run = try f.run(["render", "one.json", "-o", "new/out", "--frames", "0...5", "--overwrite"])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(try f.snapshot(), before, "no frame left behind")
    }

    func testAFailingRenderIntoMissingFoldersMakesNoFolder() throws {
        let f = try CLIFolder(self, "render-nofolder")
        try f.write("one.json", one)
        try f.assertRefused(["render", "one.json", "-o", "new/a/b.png"], saysAll: ["the folder new/a does not exist"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: f.path("new")))
    }

    func testTestReportsNeverOverwriteTheSuitesInputs() throws {
        let f = try CLIFolder(self, "test-inputs")
        try f.write("a.json", one)
        try f.write("stipple-test.json", "{}")
        // Recording asked for by name: under CI=true the default mode writes nothing.
        XCTAssertEqual(try f.run(["test", ".", "--golden", "g", "--record", "missing"]).status, 0)
        let golden = try FileManager.default.contentsOfDirectory(atPath: f.path("g")).first!
        try f.assertRefused(["test", ".", "--golden", "g", "--json", "stipple-test.json"], saysAll: ["refusing to overwrite"])
        try f.assertRefused(["test", ".", "--golden", "g", "--junit", "g/\(golden)"], saysAll: ["refusing to overwrite"])
        try f.assertRefused(["test", ".", "--golden", "g", "--json", "a.json"], saysAll: ["refusing to overwrite"])
    }

    func testTestOutputNeverReplacesAUsersFiles() throws {
        let f = try CLIFolder(self, "test-output")
        try f.write("a.json", one)
        try FileManager.default.createDirectory(atPath: f.path("mine/a"), withIntermediateDirectories: true)
        try f.write("mine/a/expected.png", "the user's own file")
        try f.assertRefused(["test", ".", "--golden", "g", "--output", "mine"], saysAll: ["mine", "--output"])
    }
}
