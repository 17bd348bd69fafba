import Foundation
import XCTest
@testable import Stipple

/// `stipple render` and `stipple convert` on ink files, run as a user runs them.
final class InkCLITests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "stipple-ink-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }

    @discardableResult
    func stipple(_ args: [String], status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws -> TestSupport.Run {
        let run = try TestSupport.stipple(args)
        XCTAssertEqual(run.status, status, "stipple \(args.joined(separator: " ")): \(run.stderr)", file: file, line: line)
        return run
    }

    func bytes(_ p: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: p)) }

    func testInkRendersAsItsConvertedScriptAndRoundTripsThroughInkML() throws {
        let inputs = [InkFiles.fixture("channels.inkml"), InkFiles.fixture("difference.inkml"), InkFiles.fixture("raw.ndjson")]
        for (i, input) in inputs.enumerated() {
            try stipple(["render", input, "-o", path("\(i)-ink.png")])
            try stipple(["convert", input, "-o", path("\(i).json")])
            try stipple(["render", path("\(i).json"), "-o", path("\(i)-json.png")])
            XCTAssertEqual(try bytes(path("\(i)-ink.png")), try bytes(path("\(i)-json.png")), input)
            // Script → InkML → script: the same script, the same image.
            try stipple(["convert", path("\(i).json"), "-o", path("\(i).inkml")])
            try stipple(["convert", path("\(i).inkml"), "-o", path("\(i)-back.json")])
            XCTAssertEqual(try bytes(path("\(i).json")), try bytes(path("\(i)-back.json")), input)
            try stipple(["render", path("\(i)-back.json"), "-o", path("\(i)-back.png")])
            XCTAssertEqual(try bytes(path("\(i)-ink.png")), try bytes(path("\(i)-back.png")), input)
        }
        // The exported file is InkML that names its channels, canvas and brush.
        let text = try String(contentsOfFile: path("0.inkml"), encoding: .utf8)
        for part in ["<channel name=\"X\"", "<channel name=\"T\" type=\"decimal\" units=\"s\"/>", "<channel name=\"F\"",
                     "<brushProperty name=\"color\" value=\"#ff0000\"/>"] {
            XCTAssertTrue(text.contains(part), part)
        }
    }

    func testQuickDrawSelectionAndSize() throws {
        let input = InkFiles.fixture("mixed.ndjson")
        let run = try stipple(["render", input, "--key", "6", "--size", "64x48", "-o", path("six.png")])
        XCTAssertTrue(run.stderr.contains("64×48"), run.stderr)
        let image = try PNGFile.read(path: path("six.png")).image
        XCTAssertEqual([image.width, image.height], [64, 48])
        // White canvas, dark ink somewhere in the middle.
        XCTAssertEqual(image.pixel(0, 0).r, 255)
        XCTAssertTrue((0..<64).contains { image.pixel($0, 24).r < 128 })
        try stipple(["render", input, "-o", path("x.png")], status: 2)
        let bad = try stipple(["render", input, "--index", "2", "-o", path("x.png")], status: 2)
        XCTAssertTrue(bad.stderr.contains("mixed.ndjson:4:33: stroke 1 has 2 x values but 1 y values"), bad.stderr)
    }

    func testInkOptionsAreRefusedForScripts() throws {
        let script = TestSupport.fixtures.appendingPathComponent("scripts").path
        let any = try FileManager.default.contentsOfDirectory(atPath: script).first { $0.hasSuffix(".json") }!
        let run = try stipple(["render", (script as NSString).appendingPathComponent(any), "--margin", "3", "-o", path("a.png")], status: 64)
        XCTAssertTrue(run.stderr.contains("apply to ink files"), run.stderr)
        // With a script, --size is a view's size: the whole canvas fitted into it.
        let demo = (script as NSString).appendingPathComponent("demo.json")
        try stipple(["render", demo, "--size", "64x64", "-o", path("v.png")], status: 0)
        let view = try PNGFile.read(path: path("v.png")).image
        XCTAssertEqual([view.width, view.height], [64, 36], "640×360 fitted into 64×64")
    }

    /// A file of `count` Quick, Draw!-shaped drawings, deterministic.
    func drawings(_ count: Int, badLine: Int? = nil) throws -> String {
        var rng = SplitMix64(seed: 7)
        var lines: [String] = []
        for i in 0..<count {
            if i == badLine { lines.append("{\"key_id\": \"bad\", \"drawing\": [[[1, 2], [3]]]}"); continue }
            var strokes: [String] = []
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let n = 2 + Int(rng.next() % 6)
                let xs = (0..<n).map { _ in String(rng.next() % 256) }, ys = (0..<n).map { _ in String(rng.next() % 256) }
                strokes.append("[[\(xs.joined(separator: ","))],[\(ys.joined(separator: ","))]]")
            }
            lines.append("{\"key_id\":\"\(5_000_000 + i)\",\"word\":\"test\",\"drawing\":[\(strokes.joined(separator: ","))]}")
        }
        let file = path("drawings.ndjson")
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// The PNG files in a folder, by name.
    func pngs(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted()
    }

    func testShardedFoldersJoinToTheWholeRun() throws {
        let input = try drawings(23)
        try stipple(["render", input, "--size", "40x40", "-o", path("whole/")])
        for k in 1...3 { try stipple(["render", input, "--size", "40x40", "--shard", "\(k)/3", "-o", path("parts/")]) }
        let whole = try pngs(in: path("whole"))
        XCTAssertEqual(whole.count, 23)
        XCTAssertEqual(whole.first, "5000000.png")
        XCTAssertEqual(try pngs(in: path("parts")), whole)
        // Each part labels its own drawings; in order, they are the whole run's labels.
        let labels = try String(contentsOfFile: path("whole/labels.csv"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(labels.first, "file,word,key_id,source,line")
        XCTAssertEqual(labels[1], "5000000.png,test,5000000,\(input),1")
        let joined = try (1...3).flatMap { k in
            try String(contentsOfFile: path("parts/labels-\(k)-of-3.csv"), encoding: .utf8).split(separator: "\n").dropFirst()
        }
        XCTAssertEqual(Array(labels.dropFirst()), joined)
        for name in whole { XCTAssertEqual(try bytes(path("whole/" + name)), try bytes(path("parts/" + name)), name) }
        let png = try PNGFile.read(path: path("whole/5000003.png"))
        XCTAssertTrue(png.isGrey)
        // A second run into the same folder refuses to replace files unless told.
        let again = try stipple(["render", input, "--size", "40x40", "-o", path("whole/")], status: 2)
        XCTAssertTrue(again.stderr.contains("--overwrite"), again.stderr)
        try stipple(["render", input, "--size", "40x40", "-o", path("whole/"), "--overwrite"])
    }

    /// `--lines` draws a whole file's drawings as lines: shards join to the whole run, byte for
    /// byte; lines differ from stamps only along the edges; and it is refused where there is
    /// no dataset (one drawing, a conversion, a script).
    func testLinesShardsJoinAndAreRefusedOutsideADataset() throws {
        let input = try drawings(19)
        try stipple(["render", input, "--size", "64x64", "--lines", "-o", path("lines/")])
        for k in 1...2 { try stipple(["render", input, "--size", "64x64", "--lines", "--shard", "\(k)/2", "-o", path("parts/")]) }
        try stipple(["render", input, "--size", "64x64", "-o", path("stamps/")])
        let names = try pngs(in: path("lines"))
        XCTAssertEqual(names.count, 19)
        XCTAssertEqual(try pngs(in: path("parts")), names)
        for name in names {
            XCTAssertEqual(try bytes(path("lines/" + name)), try bytes(path("parts/" + name)), name)
            let l = try PNGFile.read(path: path("lines/" + name)).image.pixels, s = try PNGFile.read(path: path("stamps/" + name)).image.pixels
            let inked = stride(from: 0, to: s.count, by: 4).filter { s[$0] < 128 }.count
            let disagree = stride(from: 0, to: s.count, by: 4).filter { (l[$0] < 128) != (s[$0] < 128) }.count
            XCTAssertLessThan(Double(disagree), 0.1 * Double(inked) + 8, "\(name): \(disagree) of \(inked) pixels")
        }
        let one = try stipple(["render", input, "--index", "2", "--lines", "-o", path("one.png")], status: 64)
        XCTAssertTrue(one.stderr.contains("--lines applies when drawings render as a dataset"), one.stderr)
        let converted = try stipple(["convert", input, "--index", "2", "--lines", "-o", path("one.json")], status: 64)
        XCTAssertTrue(converted.stderr.contains("--lines"), converted.stderr)
        let script = TestSupport.fixtures.appendingPathComponent("scripts").path
        let any = try FileManager.default.contentsOfDirectory(atPath: script).first { $0.hasSuffix(".json") }!
        let scripted = try stipple(["render", (script as NSString).appendingPathComponent(any), "--lines", "-o", path("a.png")], status: 64)
        XCTAssertTrue(scripted.stderr.contains("--lines applies when drawings render as a dataset"), scripted.stderr)
    }

    func testNpyArrayHeaderShapeAndShards() throws {
        let input = try drawings(17)
        let run = try stipple(["render", input, "-o", path("all.npy"), "--size", "28x28"])
        XCTAssertTrue(run.stderr.contains("17×28×28 uint8"), run.stderr)
        let data = [UInt8](try bytes(path("all.npy")))
        XCTAssertEqual(Array(data[0..<8]), [0x93] + Array("NUMPY".utf8) + [1, 0])
        let headerLength = Int(data[8]) | Int(data[9]) << 8
        XCTAssertEqual((10 + headerLength) % 64, 0)
        let header = String(decoding: data[10..<(10 + headerLength)], as: UTF8.self)
        XCTAssertTrue(header.hasPrefix("{'descr': '|u1', 'fortran_order': False, 'shape': (17, 28, 28), }"), header)
        XCTAssertTrue(header.hasSuffix("\n"))
        let body = Array(data[(10 + headerLength)...])
        XCTAssertEqual(body.count, 17 * 28 * 28)
        // White strokes on black: corners empty, every drawing has ink.
        for d in 0..<17 {
            let plane = body[(d * 784)..<((d + 1) * 784)]
            XCTAssertEqual(plane.first, 0)
            XCTAssertGreaterThan(plane.max()!, 200, "drawing \(d)")
        }
        // Parts concatenate to the whole array.
        var joined: [UInt8] = []
        for k in 1...4 {
            try stipple(["render", input, "-o", path("part\(k).npy"), "--size", "28x28", "--shard", "\(k)/4"])
            let part = [UInt8](try bytes(path("part\(k).npy")))
            let n = Int(part[8]) | Int(part[9]) << 8
            joined += part[(10 + n)...]
        }
        XCTAssertEqual(joined, body)
    }

    func testBadLinesStopTheRunOrAreSkippedAndCounted() throws {
        let input = try drawings(6, badLine: 3)
        let fatal = try stipple(["render", input, "-o", path("a.npy")], status: 2)
        XCTAssertTrue(fatal.stderr.contains("drawings.ndjson:4:"), fatal.stderr)
        XCTAssertTrue(fatal.stderr.contains("--skip-bad-lines"), fatal.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("a.npy")))
        let skipped = try stipple(["render", input, "-o", path("a.npy"), "--skip-bad-lines"])
        XCTAssertTrue(skipped.stderr.contains("drawings.ndjson:4:"), skipped.stderr)
        XCTAssertTrue(skipped.stderr.contains("skipped 1 bad line"), skipped.stderr)
        XCTAssertTrue(skipped.stderr.contains("5×28×28"), skipped.stderr)
    }
}

extension InkCLITests {
    /// examples/distributed/ink-parallel.sh: its shards give the whole run's PNGs and rows.
    func testTheInkRecipeJoinsToTheWholeRun() throws {
        let input = try drawings(9)
        let recipe = TestSupport.packageRoot.appendingPathComponent("examples/distributed/ink-parallel.sh").path
        let env = ["STIPPLE": TestSupport.stippleBinary.path, "RUNNER": "xargs -P 2 -I {}"]
        let exports = env.map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
        let run = try VideoTestSupport.shell("\(exports) sh '\(recipe)' '\(input)' 3 20x20", in: URL(fileURLWithPath: folder))
        XCTAssertEqual(run.status, 0, run.stderr)
        try stipple(["render", input, "-o", path("whole/")])
        try stipple(["render", input, "--size", "20x20", "-o", path("whole.npy")])
        let names = try pngs(in: path("whole"))
        XCTAssertEqual(try pngs(in: path("drawings")), names)
        for name in names { XCTAssertEqual(try bytes(path("whole/" + name)), try bytes(path("drawings/" + name)), name) }
        func body(_ p: String) throws -> [UInt8] {
            let d = [UInt8](try bytes(p))
            return Array(d[(10 + (Int(d[8]) | Int(d[9]) << 8))...])
        }
        XCTAssertEqual(try (1...3).flatMap { try body(path("drawings-\($0).npy")) }, try body(path("whole.npy")))
    }
}

extension InkCLITests {
    /// A line whose strokes would make millions of stamps is a bad line, found before stamping.
    func testADrawingOfTooManyStampsIsABadLine() throws {
        let n = 40_000
        let xs = (0..<n).map { $0 % 2 == 0 ? "0" : "255" }.joined(separator: ",")
        let ys = (0..<n).map { String($0 % 256) }.joined(separator: ",")
        let file = path("huge.ndjson")
        let lines = ["{\"key_id\":\"1\",\"drawing\":[[[0,255],[0,255]]]}", "{\"key_id\":\"2\",\"drawing\":[[[\(xs)],[\(ys)]]]}"]
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let fatal = try stipple(["render", file, "--size", "256x256", "--spacing", "0.01", "-o", path("h.npy")], status: 2)
        XCTAssertTrue(fatal.stderr.contains("huge.ndjson:2:1: this drawing would make over 4194304 stamps"), fatal.stderr)
        let skipped = try stipple(["render", file, "--size", "256x256", "--spacing", "0.01", "-o", path("h.npy"), "--skip-bad-lines"])
        XCTAssertTrue(skipped.stderr.contains("1×256×256"), skipped.stderr)
    }

    /// Office writes InkML in .xml files: recognised by their root element, whatever comes
    /// before it (a declaration, comments, a DOCTYPE whose quoted strings hold "]>"); an XML
    /// file of another kind says what it is; --format forces either way.
    func testInkIsRecognisedByItsContent() throws {
        let inkML = try String(contentsOfFile: InkFiles.fixture("channels.inkml"), encoding: .utf8)
        try stipple(["render", InkFiles.fixture("channels.inkml"), "-o", path("inkml.png")])
        let doctype = #"<!DOCTYPE ink [ <!ENTITY x "]>"> <!ENTITY y ']>'> ]>"#
        let office = inkML.replacingOccurrences(of: "<inkml:ink ", with: doctype + "\n<!-- written by Word -->\n<inkml:ink ")
        try office.write(toFile: path("word_output.xml"), atomically: true, encoding: .utf8)
        try stipple(["render", path("word_output.xml"), "-o", path("xml.png")])
        XCTAssertEqual(try bytes(path("inkml.png")), try bytes(path("xml.png")))
        try stipple(["convert", path("word_output.xml"), "-o", path("word.json")])
        // Any name: by content; --format says it outright.
        try inkML.write(toFile: path("pen.data"), atomically: true, encoding: .utf8)
        try stipple(["render", path("pen.data"), "-o", path("data.png")])
        XCTAssertEqual(try bytes(path("inkml.png")), try bytes(path("data.png")))
        try stipple(["render", path("pen.data"), "--format", "inkml", "-o", path("forced.png")])
        XCTAssertEqual(try bytes(path("inkml.png")), try bytes(path("forced.png")))
        // Another XML: named for what it is, not a JSON error at its first '<'.
        try #"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>"#.write(toFile: path("logo.xml"), atomically: true, encoding: .utf8)
        var run = try stipple(["render", path("logo.xml"), "-o", path("logo.png")], status: 2)
        XCTAssertTrue(run.stderr.contains("logo.xml: is XML whose root element is <svg>, not InkML's <ink>"), run.stderr)
        run = try stipple(["describe", path("logo.xml")], status: 2)
        XCTAssertTrue(run.stderr.contains("is XML whose root element is <svg>"), run.stderr)
        // UTF-16 is named, not met as a stray byte.
        try Data([0xFF, 0xFE] + Array(inkML.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).write(to: URL(fileURLWithPath: path("utf16.inkml")))
        run = try stipple(["render", path("utf16.inkml"), "-o", path("u.png")], status: 2)
        XCTAssertTrue(run.stderr.contains("the file is UTF-16; InkML is read in UTF-8"), run.stderr)
        // --format script reads it as a script, whatever it holds.
        run = try stipple(["render", path("word_output.xml"), "--format", "script", "-o", path("s.png")], status: 2)
        XCTAssertTrue(run.stderr.contains("word_output.xml:1:1: "), run.stderr)
    }
}
