import Foundation
import Stipple
import XCTest

/// Hangs and lost nodes: a FIFO or a device given as any input is refused at once
/// (only regular files are read), and an output that is a FIFO or a device is written into,
/// never replaced by a rename.
final class SpecialFileTests: XCTestCase {
    private let one = #"{"canvas":{"width":8,"height":8},"brushes":{"b":{"builtin":"hard-round"}},"draw":[{"brush":"b","stamps":[[4,4,2,0,0,1,1,1,1]]}]}"#

    func testAFIFOAsTheScriptIsRefused() throws {
        let f = try CLIFolder(self, "fifo-script")
        _ = f.fifo("s.json")
        try f.assertRefused(["render", "s.json", "-o", "out.png"], saysAll: ["s.json: is a FIFO (named pipe), not a regular file"])
    }

    func testAFIFOAsABrushABackgroundAndAStampsFileIsRefused() throws {
        let f = try CLIFolder(self, "fifo-inputs")
        _ = f.fifo("b.png"); _ = f.fifo("bg.png"); _ = f.fifo("p.sketchpoints")
        try f.write("brush.json", #"{"canvas":{"width":8,"height":8},"brushes":{"b":"b.png"},"draw":[]}"#)
        try f.assertRefused(["render", "brush.json", "-o", "out.png"], saysAll: ["b.png", "FIFO"])
        try f.write("bg.json", #"{"canvas":{"width":8,"height":8,"background":{"image":"bg.png"}},"draw":[]}"#)
        try f.assertRefused(["render", "bg.json", "-o", "out.png"], saysAll: ["bg.png", "FIFO"])
        try f.write("sp.json", #"{"canvas":{"width":8,"height":8},"brushes":{"b":{"builtin":"hard-round"}},"draw":[{"brush":"b","stamps":"p.sketchpoints"}]}"#)
        try f.assertRefused(["render", "sp.json", "-o", "out.png"], saysAll: ["p.sketchpoints", "FIFO"])
    }

    func testAFIFOAsACompareInputIsRefused() throws {
        let f = try CLIFolder(self, "fifo-compare")
        _ = f.fifo("a.png")
        try f.assertRefused(["compare", "a.png", "a.png"], saysAll: ["a.png", "FIFO"])
    }

    func testADeviceAsTheScriptIsRefused() throws {
        let f = try CLIFolder(self, "dev-script")
        try f.assertRefused(["render", "/dev/zero", "-o", "out.png"], saysAll: ["/dev/zero: is a character device"])
    }

    func testAStippleTestJSONThatIsAFolderOrAFIFOIsAnError() throws {
        let f = try CLIFolder(self, "config-folder")
        try f.write("a.json", one)
        try FileManager.default.createDirectory(atPath: f.path("stipple-test.json"), withIntermediateDirectories: false)
        let run = try f.run(["test", ".", "--golden", "g"])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("stipple-test.json: is a folder"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: f.path("g")), "no golden recorded")
        try FileManager.default.removeItem(atPath: f.path("stipple-test.json"))
        _ = f.fifo("stipple-test.json")
        let fifo = try f.run(["test", ".", "--golden", "g"])
        XCTAssertEqual(fifo.status, 2, fifo.stderr)
        XCTAssertTrue(fifo.stderr.contains("FIFO"), fifo.stderr)
    }

    func testRenderingToDevNullKeepsTheDevice() throws {
        let f = try CLIFolder(self, "devnull")
        try f.write("one.json", one)
        let run = try f.run(["render", "one.json", "-o", "/dev/null"])
        XCTAssertEqual(run.status, 0, run.stderr)
        var info = stat()
        XCTAssertEqual(stat("/dev/null", &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR, "/dev/null must stay a character device")
    }

    func testRenderingToAFIFOWithNoReaderIsRefusedAndTheFIFOStays() throws {
        let f = try CLIFolder(self, "fifo-out")
        try f.write("one.json", one)
        _ = f.fifo("out.png")
        try f.assertRefused(["render", "one.json", "-o", "out.png"], saysAll: ["out.png: is a FIFO that no process is reading"])
    }

    func testRenderingToAFIFOWithAReaderWritesThePNGIntoIt() throws {
        let f = try CLIFolder(self, "fifo-reader")
        try f.write("one.json", one)
        let fifo = f.fifo("out.png")
        let box = DataBox()
        let reader = Thread {
            let fd = open(fifo, O_RDONLY)
            guard fd >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n <= 0 { break }
                box.data.append(contentsOf: buffer[0..<n])
            }
            close(fd)
        }
        reader.start()
        Thread.sleep(forTimeInterval: 0.3)  // the reader has the FIFO open
        let run = try f.run(["render", "one.json", "-o", "out.png"])
        XCTAssertEqual(run.status, 0, run.stderr)
        for _ in 0..<50 where !reader.isFinished { Thread.sleep(forTimeInterval: 0.1) }
        XCTAssertEqual(Array(box.data.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "a PNG came through the FIFO")
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO is still a FIFO")
    }
}
