import Foundation
import Stipple
import XCTest

/// Bounded memory and silent wrong input: limits refused before allocating, unseen
/// stamps culled, and every echoed value escaped onto one line.
final class BoundedInputTests: XCTestCase {
    private func strokeScript(radius: Double, _ points: String) -> String {
        #"{"canvas":{"width":64,"height":64},"brushes":{"s":{"builtin":"soft-round"}},"draw":[{"brush":"s","radius":\#(radius),"points":[\#(points)]}]}"#
    }

    func testAStrokeWithAFarSampleIsCulledNotAllocated() throws {
        let f = try CLIFolder(self, "far-stroke")
        try f.write("far.json", strokeScript(radius: 4, #"{"x":10,"y":10,"t":0},{"x":100000,"y":10,"t":0.1},{"x":30,"y":30,"t":0.2}"#))
        let run = try f.run(["stamps", "far.json", "-o", "far.sketchpoints"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let points = try SketchPointsFile.read(path: f.path("far.sketchpoints"))
        XCTAssertLessThan(points.count, 2_000, "only stamps that can touch the canvas are made")
        XCTAssertTrue(points.allSatisfy { $0.x < 64 + 20 }, "no stamp far off the canvas")
    }

    func testAStrokeTooLongForItsRadiusIsRefusedNamingTheEntry() throws {
        let f = try CLIFolder(self, "long-stroke")
        try f.write("long.json", strokeScript(radius: 0.01, #"{"x":-1e7,"y":10,"t":0},{"x":1e7,"y":10,"t":0.1}"#))
        try f.assertRefused(["render", "long.json", "-o", "out.png"], saysAll: ["long.json:1:", "draw entry 1", "stamp places"])
    }

    func testAStrokeOutToTenMillionPixelsAndBackIsCulledInAMoment() throws {
        let f = try CLIFolder(self, "far-excursion")
        try f.write("far.json", strokeScript(radius: 4, #"{"x":10,"y":10,"t":0},{"x":1e7,"y":10,"t":0.1},{"x":30,"y":30,"t":0.2}"#))
        let started = Date()
        let run = try f.run(["stamps", "far.json", "-o", "far.sketchpoints"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let points = try SketchPointsFile.read(path: f.path("far.sketchpoints"))
        XCTAssertGreaterThan(points.count, 20, "the stamps on the canvas, going out and coming back")
        XCTAssertLessThan(points.count, 200)
        XCTAssertTrue(points.allSatisfy { $0.x < 64 + 20 && $0.y < 64 + 20 }, "no stamp far off the canvas")
        // Not a timing test: 16 million places walked one by one in a debug build took minutes.
        XCTAssertLessThan(Date().timeIntervalSince(started), 60)
    }

    func testCullingKeepsEveryStampThatCanTouchTheCanvas() throws {
        var style = StrokeStyle(color: .black, radius: 3)
        // In and out of a 64×64 canvas: past x = -50 and x = 200 a stamp cannot reach it.
        let samples = [TouchSample(x: 10, y: 10, t: 0), TouchSample(x: 30, y: 30, t: 0.1),
                       TouchSample(x: 200, y: 40, t: 0.2), TouchSample(x: 20, y: 50, t: 0.3),
                       TouchSample(x: -50, y: 20, t: 0.4)]
        let all = StrokeBuilder.stamps(for: samples, style: style, fps: 30, seed: 7, strokeIndex: 0)
        style.cull = StrokeCull(width: 64, height: 64, pointScale: 1, drift: 6)
        let kept = StrokeBuilder.stamps(for: samples, style: style, fps: 30, seed: 7, strokeIndex: 0)
        let cull = style.cull!
        let touching = all.filter { cull.mayTouch(SIMD2(Double($0.point.x), Double($0.point.y)), radius: Double($0.point.radius)) }
        XCTAssertLessThan(kept.count, all.count)
        XCTAssertTrue(kept.allSatisfy { cull.mayTouch(SIMD2(Double($0.point.x), Double($0.point.y)), radius: Double($0.point.radius)) })
        // Until the stroke first leaves the canvas's reach, the same stamps bit for bit,
        // dissolve angles included; after a far piece (measured coarsely) the rhythm may shift
        // by a fraction of a step, so the same count within one stamp, each within a step.
        let firstOut = all.firstIndex { !cull.mayTouch(SIMD2(Double($0.point.x), Double($0.point.y)), radius: Double($0.point.radius)) }!
        XCTAssertEqual(Array(kept.prefix(firstOut)), Array(all.prefix(firstOut)))
        XCTAssertLessThanOrEqual(abs(kept.count - touching.count), 1)
        for (k, t) in zip(kept, touching) {
            XCTAssertLessThan(hypot(k.point.x - t.point.x, k.point.y - t.point.y), 2 * 0.15 * 2 * 3 + 0.01)
        }
        // The budget's walk, which makes the stamps as it counts them: the same stamps, and their count.
        let (count, made) = StrokeBuilder.stamps(for: samples, style: style, fps: 30, seed: 7, strokeIndex: 0,
                                                 madeLimit: .max, walkLimit: .max)
        XCTAssertEqual(count.made, kept.count)
        XCTAssertEqual(made, kept)
    }

    func testAFarPieceOfACurveIsMeasuredWithinAThousandth() {
        // A segment that leaves a 64×64 canvas for x = 5000 and comes back.
        let curve = CubicBezier(SIMD2(10, 10), SIMD2(4000, -3000), SIMD2(6000, 3000), SIMD2(30, 40))
        let exact = ArcLengthTable(curve)
        let region = StrokeCull.Region(cull: StrokeCull(width: 64, height: 64, pointScale: 1, drift: 0), radius: 4)
        let coarse = ArcLengthTable(curve, unseen: region)
        XCTAssertEqual(coarse.totalLength, exact.totalLength, accuracy: exact.totalLength * 1e-3)
        XCTAssertEqual(ArcLengthTable.totalLength(of: curve, unseen: region), coarse.totalLength, "bit for bit")
        XCTAssertFalse(coarse.unseenRuns.isEmpty)
        XCTAssertTrue(exact.unseenRuns.isEmpty)
        // Every run is far out: the curve at its ends cannot touch the canvas.
        for run in coarse.unseenRuns {
            for s in [run.lowerBound, run.upperBound] {
                XCTAssertFalse(region.cull.mayTouch(curve.point(at: coarse.parameter(atLength: s)), radius: 4))
            }
        }
    }

    func testASketchPointsFileOverTheStampBudgetIsNamedByItsEntry() throws {
        let f = try CLIFolder(self, "sketchpoints-budget")
        // One stamp more than a script may have, as a sparse file: refused at open, never read.
        let big = f.path("big.sketchpoints")
        XCTAssertTrue(FileManager.default.createFile(atPath: big, contents: nil))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: big))
        try handle.truncate(atOffset: UInt64((Limits.maxStampsPerScript + 1) * SketchPoint.byteSize))
        try handle.close()
        try f.write("b.json", #"{"canvas":{"width":8,"height":8},"brushes":{"b":{"builtin":"hard-round"}},"draw":[{"brush":"b","stamps":"big.sketchpoints"}]}"#)
        try f.assertRefused(["render", "b.json", "-o", "out.png"],
                            saysAll: ["b.json:1:", #"stamps file "big.sketchpoints""#, "holds 4194305 stamps", "at most 4194304"])
    }

    func testAStrokeWhoseStampsReachEverywhereIsRefusedInBoundedMemory() throws {
        let f = try CLIFolder(self, "far-reach")
        // dissolveDistance −3e38: every stamp may drift onto the canvas, so nothing is culled;
        // the segment to x = 1e7 took 82 s and 1 GB before it was refused.
        try f.write("r.json", #"{"canvas":{"width":64,"height":64},"dissolveDistance":-3e38,"maxAge":10,"brushes":{"s":{"builtin":"soft-round"}},"draw":[{"brush":"s","radius":4,"points":[{"x":10,"y":10,"t":0},{"x":1e7,"y":10,"t":0.1}]}]}"#)
        try f.assertRefused(["render", "r.json", "-o", "out.png"], saysAll: ["r.json:1:", "draw entry 1", "for over a million px"])
    }

    func testAMaxAgeThatRoundsToZeroIsRefused() throws {
        let f = try CLIFolder(self, "tiny-max-age")
        try f.write("a.json", #"{"canvas":{"width":8,"height":8},"maxAge":1e-46,"brushes":{},"draw":[]}"#)
        try f.assertRefused(["render", "a.json", "-o", "out.png"], saysAll: ["a.json:1:", "maxAge 1e-46 rounds to 0"])
        try f.write("z.json", #"{"canvas":{"width":8,"height":8},"maxAge":0.0,"brushes":{},"draw":[]}"#)
        XCTAssertEqual(try f.run(["render", "z.json", "-o", "out.png"]).status, 0)
    }

    func testATouchTimeFarFromFrameZeroIsRefused() throws {
        let f = try CLIFolder(self, "touch-time")
        try f.write("t.json", strokeScript(radius: 4, #"{"x":10,"y":10,"t":-1e38}"#))
        try f.assertRefused(["render", "t.json", "-o", "out.png"], saysAll: ["t.json:1:", "touch sample 1", "16777216 frames"])
    }

    func testAPathWithANulIsRefused() throws {
        let f = try CLIFolder(self, "nul-path")
        try f.write("brush.png", "x")
        try f.write("n.json", #"{"canvas":{"width":8,"height":8},"brushes":{"s":"brush.png\u0000junk"},"draw":[]}"#)
        try f.assertRefused(["render", "n.json", "-o", "out.png"], saysAll: [#"brush.png\u0000junk"#, "NUL"])
    }

    func testControlCharactersInEchoedValuesAreEscaped() throws {
        let f = try CLIFolder(self, "escape")
        try f.write("e.json", #"{"canvas":{"width":8,"height":8},"brushes":{"s":{"builtin":"x\u001b[2J\nz\r"}},"draw":[]}"#)
        try f.assertRefused(["render", "e.json", "-o", "out.png"], saysAll: [#""x\u001b[2J\nz\r""#])
        try f.assertRefused(["render", "a\u{1B}[2J\nb.json", "-o", "out.png"], saysAll: [#"a\u001b[2J\nb.json"#])
    }

    func testAnEmptyPathIsNamed() throws {
        let f = try CLIFolder(self, "empty-path")
        try f.assertRefused(["render", "", "-o", "out.png"], saysAll: [#""": the path is empty"#])
    }

    func testAPNGDeclaringAHugeSizeIsRefusedBeforeDecoding() throws {
        let f = try CLIFolder(self, "huge-png")
        // A valid header for 65536×65536 RGBA, then an IDAT of a few bytes.
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func chunk(_ type: String, _ data: [UInt8]) {
            let t = Array(type.utf8)
            png += withUnsafeBytes(of: UInt32(data.count).bigEndian, Array.init) + t + data
            png += withUnsafeBytes(of: crc32(t + data).bigEndian, Array.init)
        }
        chunk("IHDR", [0, 1, 0, 0, 0, 1, 0, 0, 8, 6, 0, 0, 0])
        chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        chunk("IEND", [])
        try Data(png).write(to: f.dir.appendingPathComponent("huge.png"))
        try f.assertRefused(["compare", "huge.png", "huge.png"], saysAll: ["huge.png:byte 16:", "65536x65536"])
        try f.write("b.json", #"{"canvas":{"width":8,"height":8},"brushes":{"b":"huge.png"},"draw":[]}"#)
        try f.assertRefused(["render", "b.json", "-o", "out.png"], saysAll: ["huge.png", "65536x65536"])
    }

    func testAPNGChunkDeclaringTwoGigabytesIsNotAllocated() throws {
        let f = try CLIFolder(self, "huge-chunk")
        // A 4×4 header, then a tEXt chunk declaring 2^31 − 1 bytes in a file of 68.
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr: [UInt8] = Array("IHDR".utf8) + [0, 0, 0, 4, 0, 0, 0, 4, 8, 6, 0, 0, 0]
        png += [0, 0, 0, 13] + ihdr + withUnsafeBytes(of: crc32(ihdr).bigEndian, Array.init)
        png += [0x7F, 0xFF, 0xFF, 0xFF] + Array("tEXt".utf8) + Array("abc".utf8) + [UInt8](repeating: 0, count: 24)
        try Data(png).write(to: f.dir.appendingPathComponent("chunk.png"))
        // Under a 1.5 GB address-space limit (not under a sanitizer, which reserves more):
        // libpng used to allocate the declared 2 GiB first and fail on that.
        let limited = TestSupport.sanitizerFlags.isEmpty && FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit")
        let run = limited
            ? try TestSupport.run("/usr/bin/prlimit", ["--as=1500000000", TestSupport.stippleBinary.path, "compare", "chunk.png", "chunk.png"], in: f.dir)
            : try f.run(["compare", "chunk.png", "chunk.png"])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("chunk.png:byte 68: not a readable PNG: the file ends early"), run.stderr)
    }

    func testNegativeOptionValuesGetAClearMessage() throws {
        let f = try CLIFolder(self, "negative")
        try f.write("one.json", #"{"canvas":{"width":8,"height":8},"draw":[]}"#)
        try f.assertRefused(["test", ".", "--jobs", "-1"], status: 64, saysAll: ["--jobs of 1 or more"])
        try f.assertRefused(["bench", "--stamps", "-5"], status: 64, saysAll: ["--stamps of 1 or more"])
        try f.assertRefused(["render", "one.json", "-o", "o.png", "--compression", "-1"], status: 64, saysAll: ["compression level from 0 to 9"])
    }

    func testBadReportsAndScenariosAreOneLine() throws {
        let f = try CLIFolder(self, "one-line")
        try f.write("r.json", "{\n  \"cases\": [,]\n}")
        try f.assertRefused(["test", "--merge-reports", "r.json"], saysAll: ["r.json:2:"])
        try f.write("s.json", #"{"cases": []}"#)
        try f.assertRefused(["test", "--merge-reports", "s.json"], saysAll: ["s.json:1:1: not a stipple test report"])
        try f.assertRefused(["bench", "--scenario", "nope"], status: 64, saysAll: ["nope"])
    }

    private func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = (c >> 1) ^ (0xEDB8_8320 & (0 &- (c & 1))) }
        }
        return ~c
    }
}
