import Foundation
import XCTest
@testable import Stipple

/// Datasets as ML pipelines take them: several files and folders in a run, labels and skipped
/// lines beside the output, loaded with numpy; a fixed stroke width; progress in logs.
extension InkCLITests {
    /// A Quick, Draw! file of `words` drawings each, one of every `bad` lines broken.
    func wordFile(_ word: String, count: Int, bad: Int? = nil, key: Int) throws -> String {
        var lines: [String] = []
        for i in 0..<count {
            if let bad, i % bad == bad - 1 { lines.append("{\"word\":\"\(word)\",\"key_id\":\"\(key + i)\",\"drawing\":[[[1,2],[3]]]}"); continue }
            lines.append("{\"word\":\"\(word)\",\"key_id\":\"\(key + i)\",\"drawing\":[[[0,\(10 + 3 * i % 240),255],[0,200,\(20 + 7 * i % 230)]]]}")
        }
        let file = path("\(word).ndjson")
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Several files and a folder in one run; a labels row for every array row (class from
    /// `word`, key_id, source and line); every skipped line in the skipped file, not only the
    /// first 20; the array and labels read with numpy as Quick, Draw!'s numpy_bitmap files are.
    func testSeveralInputsMakeOneArrayWithLabelsAndEverySkippedLine() throws {
        let cats = try wordFile("cat", count: 100, bad: 3, key: 1000)
        try FileManager.default.createDirectory(atPath: path("more"), withIntermediateDirectories: true)
        let dogs = try wordFile("dog", count: 5, key: 2000)
        try FileManager.default.moveItem(atPath: dogs, toPath: path("more/dog.ndjson"))
        let run = try stipple(["render", cats, path("more"), "-o", path("pets.npy"), "--skip-bad-lines"])
        XCTAssertTrue(run.stderr.contains("a 72×28×28 uint8 array from 72 drawings of 2 files"), run.stderr)
        XCTAssertTrue(run.stderr.contains("skipped 33 bad lines (the first 20 shown), listed in \(path("pets.skipped.txt"))"), run.stderr)
        let skipped = try String(contentsOfFile: path("pets.skipped.txt"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(skipped.count, 33)
        XCTAssertEqual(skipped.last, "\(cats):99:49: stroke 1 has 2 x values but 1 y values")
        let labels = try String(contentsOfFile: path("pets.labels.csv"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(labels.count, 73)
        XCTAssertEqual(labels[0], "row,word,key_id,source,line")
        XCTAssertEqual(labels[1], "0,cat,1000,\(cats),1")
        XCTAssertEqual(labels[3], "2,cat,1003,\(cats),4")
        XCTAssertEqual(labels[72], "71,dog,2004,\(path("more/dog.ndjson")),5")

        guard let python = ConsumerPackageTests.onPath("python3"),
              (try? TestSupport.run(python, ["-c", "import numpy"]).status) == 0 else {
            throw XCTSkip("python3 with numpy is not installed: the array was not loaded with numpy")
        }
        let check = """
            import csv, sys, numpy as np
            a = np.load(sys.argv[1])
            rows = list(csv.DictReader(open(sys.argv[2])))
            assert a.dtype == np.uint8 and a.shape == (72, 28, 28), (a.dtype, a.shape)
            assert len(rows) == a.shape[0] and [int(r['row']) for r in rows] == list(range(72))
            assert a[:, 0, 0].max() == 0 and a.max() == 255, 'ink white on black'
            flat = a.reshape(a.shape[0], 784)
            assert (flat.reshape(72, 28, 28) == a).all(), 'row-major 784'
            print(sorted(set(r['word'] for r in rows)), int((flat > 0).sum(axis=1).min()))
            """
        let loaded = try TestSupport.run(python, ["-c", check, path("pets.npy"), path("pets.labels.csv")])
        XCTAssertEqual(loaded.status, 0, loaded.stderr)
        XCTAssertTrue(loaded.stdout.hasPrefix("['cat', 'dog']"), loaded.stdout)
    }

    /// `-o NAME` without a slash or an extension is a folder, as it is for --frames; a folder
    /// of drawings has its labels; several inputs refuse a single image.
    func testAnOutputWithoutAnExtensionIsAFolder() throws {
        let cats = try wordFile("cat", count: 4, key: 10)
        try stipple(["render", cats, "--size", "32x32", "-o", path("cats")])
        XCTAssertEqual(try pngs(in: path("cats")), ["10.png", "11.png", "12.png", "13.png"])
        XCTAssertEqual(try String(contentsOfFile: path("cats/labels.csv"), encoding: .utf8).split(separator: "\n")[1],
                       "10.png,cat,10,\(cats),1")
        let one = try stipple(["render", cats, cats, "-o", path("x.png")], status: 64)
        XCTAssertTrue(one.stderr.contains("several inputs render as a dataset"), one.stderr)
        let many = try stipple(["render", cats, "-o", path("x.png")], status: 2)
        XCTAssertTrue(many.stderr.contains("a name that ends in / or has no extension"), many.stderr)
    }

    /// Raw drawings (player's screen pixels) get lines as wide whatever size they were drawn
    /// at; --width fixes the width in output pixels.
    func testStrokeWidthFollowsTheOutputNotTheDrawingsSize() throws {
        func raw(_ scale: Double) -> String {
            let xs = [0, 50, 100, 100].map { String(Int(Double($0) * scale)) }, ys = [0, 100, 0, 100].map { String(Int(Double($0) * scale)) }
            let ts = [0, 100, 200, 300].map(String.init)
            return "{\"key_id\":\"\(Int(scale * 10))\",\"drawing\":[[[\(xs.joined(separator: ","))],[\(ys.joined(separator: ","))],[\(ts.joined(separator: ","))]]]}"
        }
        try ([raw(1.19), raw(9.48)].joined(separator: "\n") + "\n").write(toFile: path("raw.ndjson"), atomically: true, encoding: .utf8)
        func inked(_ args: [String]) throws -> [Int] {
            try? FileManager.default.removeItem(atPath: path("w"))
            try stipple(["render", path("raw.ndjson"), "--size", "256x256", "-o", path("w/")] + args)
            return try ["11.png", "94.png"].map { name in
                let image = try PNGFile.read(path: path("w/" + name)).image
                return stride(from: 0, to: image.pixels.count, by: 4).filter { image.pixels[$0] < 128 }.count
            }
        }
        let natural = try inked([])
        XCTAssertEqual(Double(natural[0]) / Double(natural[1]), 1, accuracy: 0.05, "\(natural)")
        let thin = try inked(["--width", "2"])
        XCTAssertEqual(Double(thin[0]) / Double(thin[1]), 1, accuracy: 0.05, "\(thin)")
        XCTAssertLessThan(thin[0] * 5, natural[0], "2 pixels against 16 in 256")
        let both = try stipple(["render", path("raw.ndjson"), "--width", "2", "--radius", "1", "-o", path("z/")], status: 64)
        XCTAssertTrue(both.stderr.contains("--radius or --width"), both.stderr)
    }

    /// InkML whose numbers have no unit (CROHME: a formula in units near 1) is sized as
    /// handwriting, not to 64 pixels.
    func testUnitlessInkMLIsSizedAsHandwriting() throws {
        var traces = ""
        for c in 0..<8 {  // eight "characters" 0.1 units tall, side by side
            let x = 0.15 * Double(c)
            traces += "<trace>\(x) 0, \(x + 0.05) 0.1, \(x + 0.1) 0</trace>"
        }
        try "<ink xmlns=\"http://www.w3.org/2003/InkML\">\(traces)</ink>".write(toFile: path("formula.inkml"), atomically: true, encoding: .utf8)
        let run = try stipple(["render", path("formula.inkml"), "-o", path("f.png")])
        let image = try PNGFile.read(path: path("f.png")).image
        // 1.15 units wide, strokes 0.1: about 32 pixels a stroke, 370 for the line, plus margins.
        XCTAssertTrue((360...400).contains(image.width), "\(image.width)×\(image.height): \(run.stderr)")
        XCTAssertTrue((30...50).contains(image.height), "\(image.width)×\(image.height)")
    }

    /// A translucent InkML brush (a highlighter) stays translucent where its stroke crosses itself.
    func testATranslucentBrushStaysTranslucentWhereItOverlaps() throws {
        let ink = """
            <ink xmlns="http://www.w3.org/2003/InkML"><definitions><brush xml:id="hl">
            <brushProperty name="color" value="#FFFF00"/><brushProperty name="width" value="12" units="px"/>
            <brushProperty name="transparency" value="127"/></brush></definitions>
            <traceFormat><channel name="X" units="px"/><channel name="Y" units="px"/></traceFormat>
            <trace brushRef="#hl">10 50, 90 50, 90 10, 50 10, 50 90</trace></ink>
            """
        try ink.write(toFile: path("hl.inkml"), atomically: true, encoding: .utf8)
        try stipple(["render", path("hl.inkml"), "--margin", "0", "--size", "100x100", "--fit", "frame", "-o", path("hl.png")])
        let image = try PNGFile.read(path: path("hl.png")).image
        // On white, yellow at 128/255 opacity leaves blue at 255 × 127/255 = 127, crossing or not.
        let once = image.pixel(20, 50).b, crossing = image.pixel(50, 50).b
        XCTAssertEqual(Double(once), 127, accuracy: 2)
        XCTAssertEqual(crossing, once, "where the stroke crosses itself")
        XCTAssertEqual(image.pixel(20, 50).r, 255)
    }

    /// Progress reaches a log (stderr not a terminal): a line every interval, with the rate and time left.
    func testProgressReachesALog() throws {
        // Progress moves a page of drawings at a time: pages of 256×256 cells hold a few hundred.
        let input = try drawings(1200)
        let run = try TestSupport.run(TestSupport.stippleBinary.path, ["render", input, "--size", "256x256", "--lines", "-o", path("p/")],
                                      environment: ["STIPPLE_PROGRESS_INTERVAL": "0.3"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stderr.split(separator: "\n").filter { $0.hasPrefix("rendering drawings ") }
        XCTAssertFalse(lines.isEmpty, run.stderr)
        XCTAssertFalse(run.stderr.contains("\r"), "no carriage returns in a log")
        if let line = lines.first(where: { $0.contains("/s") }) {
            XCTAssertNotNil(line.range(of: #"^rendering drawings \d+/1200, \d+%, [\d.]+/s, about \d+ (s|min) left$"#, options: .regularExpression), String(line))
        }
    }

    /// A line cut short says where: the end of the line, not of the file.
    func testATruncatedLineSaysTheEndOfTheLine() throws {
        try "{\"key_id\":\"1\",\"drawing\":[[[0,1],[0,1]]]}\n{\"key_id\":\"2\",\"drawing\":[[[0,1],[0,\n".write(
            toFile: path("cut.ndjson"), atomically: true, encoding: .utf8)
        let run = try stipple(["render", path("cut.ndjson"), "--index", "1", "-o", path("c.png")], status: 2)
        XCTAssertTrue(run.stderr.contains("cut.ndjson:2:") && run.stderr.contains("the end of the line"), run.stderr)
    }

    /// `convert` writes over a file only when told.
    func testConvertReplacesAFileOnlyWithOverwrite() throws {
        let input = InkFiles.fixture("raw.ndjson")
        try stipple(["convert", input, "-o", path("s.json")])
        let before = try bytes(path("s.json"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: path("s.json")))
        let refused = try stipple(["convert", input, "-o", path("s.json")], status: 2)
        XCTAssertTrue(refused.stderr.contains("exists; add --overwrite"), refused.stderr)
        XCTAssertEqual(try bytes(path("s.json")), Data("{}".utf8))
        try stipple(["convert", input, "-o", path("s.json"), "--overwrite"])
        XCTAssertEqual(try bytes(path("s.json")), before)
    }
}

/// Quick, Draw! files read a piece at a time.
final class QuickDrawChunksTests: XCTestCase {
    /// Pieces hold whole lines, numbered as in the whole file, whatever the file's size.
    func testPiecesNumberLinesAsTheWholeFile() throws {
        let folder = try TestSupport.temporaryDirectory(self)
        var text = ""
        for i in 0..<60_000 { text += i % 7 == 3 ? "\n" : "{\"key_id\":\"\(i)\",\"drawing\":[[[0,\(i % 256)],[0,1]]],\"pad\":\"\(String(repeating: "x", count: i % 300))\"}\n" }
        let file = folder.appendingPathComponent("big.ndjson").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertGreaterThan(text.utf8.count, 2 * QuickDrawChunks.pieceBytes)
        let bytes = Array(text.utf8)
        let whole = QuickDrawReader.lines(bytes).map { ($0.number, QuickDrawReader.keyID(bytes, line: $0)) }
        var pieces: [(Int, String?)] = []
        let chunks = try QuickDrawChunks(path: file)
        var count = 0
        while let piece = try chunks.next() {
            count += 1
            pieces += piece.lines.map { ($0.number, QuickDrawReader.keyID(piece.bytes, line: $0)) }
        }
        XCTAssertGreaterThan(count, 2)
        XCTAssertEqual(pieces.map(\.0), whole.map(\.0))
        XCTAssertEqual(pieces.map(\.1), whole.map(\.1))
        XCTAssertEqual(try QuickDrawChunks.count(path: file), whole.count)
        // The public sequence gives the same drawings with their lines.
        let entries = QuickDrawFile(path: file).map { try? $0.get() }
        XCTAssertEqual(entries.compactMap { $0?.line }, whole.map(\.0))
        XCTAssertEqual(try InkDrawing(contentsOf: file, key: "59999").name, "59999")
    }
}
