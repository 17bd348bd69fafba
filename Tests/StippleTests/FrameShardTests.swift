import Foundation
import XCTest
@testable import Stipple

/// Shards never show: N parts of a render or a bake, joined, are the whole run byte for byte,
/// with ages, session entries and live events in play where a part starts.
final class FrameShardTests: XCTestCase {
    static let script = """
        {"canvas": {"width": 48, "height": 32}, "fps": 10, "maxAge": 9, "dissolveDistance": 3,
         "brushes": {"dot": {"builtin": "hard-round"}},
         "draw": [{"brush": "dot", "color": "#ffffff", "radius": 4,
                   "points": [{"x": 5, "y": 5, "t": 0}, {"x": 40, "y": 30, "t": 0.3}]},
                  {"brush": "dot", "color": "#ff3b30", "radius": 3,
                   "points": [{"x": 40, "y": 5, "t": 0.2}, {"x": 8, "y": 28, "t": 0.6}]},
                  {"undo": 1, "t": 0.7}, {"redo": 1, "t": 0.9}, {"clear": true, "t": 1.3}]}
        """
    static let events = """
        {"t": 0.35, "stroke": 1, "x": 10, "y": 20, "brush": "dot", "color": "#30ff60", "radius": 3}
        {"t": 0.55, "stroke": 1, "x": 30, "y": 12}
        {"t": 0.75, "end": 1}

        """

    func testPartsOfAPartitionCoverTheRangeInOrder() {
        for n in 1...7 {
            let parts = (1...n).compactMap { FrameShard(index: $0, count: n).part(of: 3...8) }
            XCTAssertEqual(parts.flatMap { Array($0) }, Array(3...8), "\(n) parts")
        }
        XCTAssertNil(FrameShard("0/2")); XCTAssertNil(FrameShard("3/2")); XCTAssertNil(FrameShard("1/0"))
    }

    func testRenderShardsWriteTheWholeRunsFrames() throws {
        let dir = try TestSupport.temporaryDirectory(self, "render-shards")
        try Self.script.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        var run = try TestSupport.stipple(["render", "s.json", "--frames", "2...16", "-o", "whole"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        for k in 1...4 {
            run = try TestSupport.stipple(["render", "s.json", "--frames", "2...16", "--shard", "\(k)/4", "-o", "parts"], in: dir)
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        let fm = FileManager.default
        let whole = try fm.contentsOfDirectory(atPath: dir.appendingPathComponent("whole").path).sorted()
        XCTAssertEqual(whole.count, 15)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: dir.appendingPathComponent("parts").path).sorted(), whole)
        for name in whole {
            XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("parts/" + name)),
                           try Data(contentsOf: dir.appendingPathComponent("whole/" + name)), name)
        }
    }

    func testRenderVideoShardsJoinedAreTheWholeVideo() throws {
        let dir = try TestSupport.temporaryDirectory(self, "render-video-shards")
        try Self.script.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        var run = try TestSupport.stipple(["render", "s.json", "--frames", "0...15", "-o", "whole.y4m"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        for k in 1...3 {
            run = try TestSupport.stipple(["render", "s.json", "--frames", "0...15", "--shard", "\(k)/3", "-o", "p\(k).y4m"], in: dir)
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        XCTAssertEqual(try Self.join(dir, ["p1.y4m", "p2.y4m", "p3.y4m"]), try Data(contentsOf: dir.appendingPathComponent("whole.y4m")))
        // More parts than frames: an empty part is a header alone, and the join still holds.
        for k in 1...3 {
            run = try TestSupport.stipple(["render", "s.json", "--frames", "4...5", "--shard", "\(k)/3", "-o", "q\(k).y4m"], in: dir)
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        run = try TestSupport.stipple(["render", "s.json", "--frames", "4...5", "-o", "two.y4m"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try Self.join(dir, ["q1.y4m", "q2.y4m", "q3.y4m"]), try Data(contentsOf: dir.appendingPathComponent("two.y4m")))
    }

    func testBakeShardsWithSessionEntriesAndEventsJoinedAreTheWholeBake() throws {
        _ = try VideoTestSupport.requireFFmpeg()
        let dir = try TestSupport.temporaryDirectory(self, "bake-shards")
        var script = Self.script.replacingOccurrences(of: "\"canvas\": {\"width\": 48, \"height\": 32}, ", with: "")
        script = script.replacingOccurrences(of: "\"fps\": 10, ", with: "")
        try script.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        try Self.events.write(to: dir.appendingPathComponent("e.jsonl"), atomically: true, encoding: .utf8)
        try VideoTestSupport.makeVideo(dir.appendingPathComponent("in.y4m").path, width: 48, height: 32, frames: 17, rate: 10)
        let common = ["bake", "s.json", "--video", "in.y4m", "--events", "e.jsonl"]
        var run = try TestSupport.stipple(common + ["-o", "whole.y4m"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        for k in 1...3 {
            run = try TestSupport.stipple(common + ["--shard", "\(k)/3", "-o", "p\(k).y4m"], in: dir)
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        let whole = try Data(contentsOf: dir.appendingPathComponent("whole.y4m"))
        XCTAssertEqual(try Self.join(dir, ["p1.y4m", "p2.y4m", "p3.y4m"]), whole)
        run = try TestSupport.stipple(common + ["--frames", "6...9", "-o", "mid.y4m"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        let mid = try VideoTestSupport.read(dir.appendingPathComponent("mid.y4m").path)
        let all = try VideoTestSupport.read(dir.appendingPathComponent("whole.y4m").path)
        XCTAssertEqual(mid.frames, Array(all.frames[6...9]))
        XCTAssertEqual(mid.header.line, all.header.line)
        let input = try VideoTestSupport.read(dir.appendingPathComponent("in.y4m").path)
        XCTAssertNotEqual(all.frames[5], input.frames[5], "the sketch shows")
        XCTAssertNotEqual(all.frames[8], input.frames[8], "the live stroke shows")
        XCTAssertEqual(all.frames[16], input.frames[16], "cleared, nothing shows")
    }

    func testBakeFramesOfAFileWithTaggedFrameLinesAreReadNotSeeked() throws {
        _ = try VideoTestSupport.requireFFmpeg()
        let dir = try TestSupport.temporaryDirectory(self, "bake-frames-tagged")
        try "{\"brushes\": {\"dot\": {\"builtin\": \"hard-round\"}}, \"draw\": [{\"brush\": \"dot\", \"stamps\": [[20, 16, 6, -2, 0, 1, 1, 1, 1]]}]}"
            .write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        let plain = dir.appendingPathComponent("in.y4m").path
        try VideoTestSupport.makeVideo(plain, width: 48, height: 32, frames: 8, rate: 10)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: plain))
        let tagged = Self.tagFrames(bytes)
        try tagged.write(to: dir.appendingPathComponent("tagged.y4m"))
        for input in ["in.y4m", "tagged.y4m"] {
            let run = try TestSupport.stipple(["bake", "s.json", "--video", input, "--frames", "3...6", "-o", "out-\(input)"], in: dir)
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        let whole = try VideoTestSupport.read(plain).frames
        XCTAssertEqual(try VideoTestSupport.read(dir.appendingPathComponent("out-tagged.y4m").path).frames.count, 4)
        XCTAssertTrue(try VideoTestSupport.read(dir.appendingPathComponent("out-in.y4m").path).frames
                      == VideoTestSupport.read(dir.appendingPathComponent("out-tagged.y4m").path).frames)
        XCTAssertTrue(try VideoTestSupport.read(dir.appendingPathComponent("out-in.y4m").path).frames[2] != whole[5], "drawn")
    }

    /// Every `FRAME` line given a tag (`FRAME Xa=1`): the frames no longer sit at a fixed stride.
    static func tagFrames(_ data: Data) -> Data {
        let header = data.firstIndex(of: 0x0A)! + 1
        var out = Data(data[..<header])
        var rest = data[header...]
        let marker = Data("FRAME\n".utf8)
        while let r = rest.range(of: marker) {
            out.append(rest[rest.startIndex..<r.lowerBound]); out.append(Data("FRAME Xa=1\n".utf8))
            rest = rest[r.upperBound...]
        }
        out.append(rest)
        return out
    }

    /// The first part whole, then each later part's frames without its header line.
    static func join(_ dir: URL, _ names: [String]) throws -> Data {
        var joined = Data()
        for (i, name) in names.enumerated() {
            let data = try Data(contentsOf: dir.appendingPathComponent(name))
            joined.append(i == 0 ? data : data[(data.firstIndex(of: 0x0A)! + 1)...])
        }
        return joined
    }
}
