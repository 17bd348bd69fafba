import Foundation
@testable import Stipple
import XCTest

/// Every number a user types is checked before any arithmetic on it: frame ranges and
/// shards at the ends of Int, speeds that would put a touch past the last frame, session
/// entries past 2^24 frames, one bound for every command's frames, and spaces refused in
/// every frame range and shard alike.
final class NumberInputTests: XCTestCase {
    /// A stroke of three samples over 2 s, an undo-able second stroke, on a 32×32 canvas.
    static let strokes = #"""
        {"canvas": {"width": 32, "height": 32},
         "brushes": {"s": {"builtin": "soft-round"}},
         "draw": [{"brush": "s", "radius": 4, "color": "#ff3b30",
                   "points": [{"x": 4, "y": 4, "t": 0}, {"x": 16, "y": 16, "t": 1}, {"x": 28, "y": 8, "t": 2}]}]}
        """#

    /// A `side`×`side` 4:2:0 y4m of `frames` grey frames.
    static func video(frames: Int, side: Int = 32) -> Data {
        var bytes = Array("YUV4MPEG2 W\(side) H\(side) F30:1 Ip A1:1 C420jpeg\n".utf8)
        let planes = side * side + 2 * (side / 2) * (side / 2)
        for _ in 0..<frames { bytes += Array("FRAME\n".utf8) + [UInt8](repeating: 128, count: planes) }
        return Data(bytes)
    }

    private func folder(_ name: String) throws -> CLIFolder {
        let f = try CLIFolder(self, name)
        try f.write("s.json", Self.strokes)
        try Self.video(frames: 30).write(to: URL(fileURLWithPath: f.path("in.y4m")))
        return f
    }

    func testFrameRangesAtTheEndsOfIntAreRefusedBeforeAnyCount() throws {
        let f = try folder("int-ends")
        for range in ["0...9223372036854775807", "9223372036854775806...9223372036854775807", "0...16777216"] {
            try f.assertRefused(["render", "s.json", "-o", "frames", "--frames", range], status: 64,
                                saysAll: ["goes past frame 16777215"])
            try f.assertRefused(["render", "s.json", "-o", "frames", "--frames", range, "--shard", "2/2"], status: 64,
                                saysAll: ["goes past frame 16777215"])
            try f.assertRefused(["bake", "s.json", "--video", "in.y4m", "-o", "out.y4m", "--frames", range, "--shard", "2/2"],
                                status: 64, saysAll: ["goes past frame 16777215"])
        }
    }

    func testShardsOfHugeCountsSplitWithoutOverflow() throws {
        let f = try folder("huge-shards")
        let n = "4611686018427387904"
        let run = try f.run(["render", "s.json", "-o", "frames", "--frames", "0...10", "--shard", "\(n)/\(n)"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("1 frame (frame-0010.png)"), run.stderr)
        let empty = try f.run(["render", "s.json", "-o", "empty", "--frames", "0...10", "--shard", "3/\(n)"])
        XCTAssertEqual(empty.status, 0, empty.stderr)
        XCTAssertTrue(empty.stderr.contains("is empty; nothing written"), empty.stderr)
        let bake = try f.run(["bake", "s.json", "--video", "in.y4m", "-o", "last.y4m", "--shard", "\(n)/\(n)"])
        XCTAssertEqual(bake.status, 0, bake.stderr)
        XCTAssertTrue(bake.stderr.contains("baked 1 frame "), bake.stderr)
    }

    func testAnEmptyShardChecksItsOutputAsEveryShardDoes() throws {
        let f = try folder("empty-shard-output")
        try f.assertRefused(["render", "s.json", "-o", "s.json", "--frames", "20...20", "--shard", "3/4"],
                            saysAll: ["s.json: --frames writes a folder of PNGs, and this is a file"])
        let run = try f.run(["render", "s.json", "-o", "parts", "--frames", "20...20", "--shard", "3/4"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: f.path("parts")), "an empty part makes no folder")
    }

    func testShardPartsCoverAnyRangeInOrderWithoutOverflow() {
        let ranges = [0...Int.max, (Int.max - 1)...Int.max, 0...10, 5...5, Int.max...Int.max]
        let counts = [1, 2, 3, 7, Int.max, Int.max - 1, 1 << 62]
        for range in ranges {
            for count in counts {
                // The first two and the last two parts, and one in the middle: in order, touching.
                let indices = Set([1, 2, count / 2, count - 1, count].filter { (1...count).contains($0) }).sorted()
                for k in indices {
                    guard let part = FrameShard(index: k, count: count).part(of: range) else { continue }
                    XCTAssertTrue(range.contains(part.lowerBound) && range.contains(part.upperBound), "\(k)/\(count) of \(range)")
                }
                let last = FrameShard(index: count, count: count).part(of: range)
                XCTAssertEqual(last?.upperBound, range.upperBound, "the last part ends the range: \(count) of \(range)")
                if let first = FrameShard(index: 1, count: count).part(of: range) {
                    XCTAssertEqual(first.lowerBound, range.lowerBound)
                }
            }
        }
        XCTAssertEqual(FrameShard(index: 2, count: 3).part(of: 0...8), 3...5)
        XCTAssertEqual(FrameShard(index: 3, count: 3).part(of: 0...9), 6...9)
        XCTAssertNil(FrameShard(index: 3, count: 4).part(of: 0...1))
    }

    func testSpeedsThatOverflowTheClockAreRefusedWithTheSlowestThatWorks() throws {
        let f = try folder("speeds")
        for speed in ["5e-324", "1e-308", "1e-300", "1e-06"] {
            try f.assertRefused(["render", "s.json", "-o", "frames", "--frames", "0...2", "--speed", speed],
                                saysAll: ["s.json: --speed \(speed)", "the speed must be at least"])
            try f.assertRefused(["bake", "s.json", "--video", "in.y4m", "-o", "out.y4m", "--speed", speed],
                                saysAll: ["s.json: --speed \(speed)", "the speed must be at least"])
        }
        // Slow enough to keep the rate in range, but the sample at t = 2 s lands past 2^24.
        try f.assertRefused(["render", "s.json", "-o", "frames", "--frames", "0...2", "--speed", "2e-6"],
                            saysAll: ["draw entry 1's touch sample at t = 2.0 s", "16777216 frames"])
        for speed in ["1e308", "4e-6", "20"] {
            let run = try f.run(["render", "s.json", "-o", "out-\(speed)", "--frames", "0...2", "--speed", speed])
            XCTAssertEqual(run.status, 0, "\(speed): \(run.stderr)")
        }
    }

    func testSessionEntriesPastTheLastTouchFrameAreRefusedEverywhere() throws {
        let f = try folder("late-undo")
        try f.write("late.json", #"""
            {"canvas": {"width": 32, "height": 32},
             "brushes": {"s": {"builtin": "soft-round"}},
             "draw": [{"brush": "s", "stamps": [[4, 4, 2, 0, 0, 1, 0, 0, 1]]},
                      {"undo": 1, "t": 600000}]}
            """#)
        let says = ["late.json:4:", "t of draw entry 2", "frame 18000000", "16777216 frames"]
        try f.assertRefused(["render", "late.json", "-o", "out.png"], saysAll: says)
        try f.assertRefused(["stamps", "late.json", "-o", "out.sketchpoints"], saysAll: says)
        try f.assertRefused(["bake", "late.json", "--video", "in.y4m", "-o", "out.y4m"], saysAll: says)
        // At --speed, an undo's time is bounded as a touch's.
        try f.write("undo.json", #"""
            {"canvas": {"width": 32, "height": 32},
             "brushes": {"s": {"builtin": "soft-round"}},
             "draw": [{"brush": "s", "stamps": [[4, 4, 2, 0, 0, 1, 0, 0, 1]]},
                      {"undo": 1, "t": 500000}]}
            """#)
        try f.assertRefused(["render", "undo.json", "-o", "frames", "--frames", "0...1", "--speed", "0.5"],
                            saysAll: ["undo.json:4:", "a session entry at t = 500000.0 s", "--speed 0.5"])
    }

    func testBisectHoldsItsFrameToTheBoundRenderDoes() throws {
        let f = try folder("bisect-frame")
        let render = try f.run(["render", "s.json", "-o", "golden.png"])
        XCTAssertEqual(render.status, 0, render.stderr)
        for frame in ["99999999999", "16777216"] {
            try f.assertRefused(["bisect", "s.json", "--golden", "golden.png", "--frame", frame], status: 64,
                                saysAll: ["Please give a frame from 0 to 16777215 (got \(frame))"])
            try f.assertRefused(["render", "s.json", "-o", "x.png", "--frame", frame], status: 64,
                                saysAll: ["Please give a frame from 0 to 16777215 (got \(frame))"])
        }
    }

    func testSpacesAroundFrameRangesAndShardsAreRefusedAlike() throws {
        let f = try folder("spaces")
        for frames in ["0...3 ", " 0...3", "0 ...3", "0...\t3"] {
            try f.assertRefused(["render", "s.json", "-o", "frames", "--frames", frames], status: 64, saysAll: ["without spaces"])
            try f.assertRefused(["bake", "s.json", "--video", "in.y4m", "-o", "out.y4m", "--frames", frames], status: 64,
                                saysAll: ["without spaces"])
        }
        for shard in [" 1/2", "1/2 ", "1 /2"] {
            try f.assertRefused(["render", "s.json", "-o", "frames", "--frames", "0...3", "--shard", shard], status: 64,
                                saysAll: ["--shard is K/N"])
            try f.assertRefused(["bake", "s.json", "--video", "in.y4m", "-o", "out.y4m", "--shard", shard], status: 64,
                                saysAll: ["--shard is K/N"])
        }
    }
}
