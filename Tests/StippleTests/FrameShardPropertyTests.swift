import Foundation
import XCTest
@testable import Stipple

/// Shards never show, over random scripts: random strokes, ages and session entries, a random
/// range cut into a random number of parts; the parts of a render video and of a bake, joined,
/// are the whole run's bytes.
final class FrameShardPropertyTests: XCTestCase {
    struct Random {
        var mixer: SplitMix64
        mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(mixer.next() % UInt64(range.count)) }
        mutating func unit() -> Double { mixer.nextUnitDouble() }
    }

    /// A script's `draw` with strokes and valid session entries (each checked as it is added).
    static func draw(_ r: inout Random) -> String {
        var entries: [String] = []
        var timeline = SessionTimeline()
        var strokes = 0
        for _ in 0..<r.int(2...5) {
            let t0 = r.unit() * 1.8
            let points = (0..<r.int(2...4)).map { i in
                "{\"x\": \(r.int(0...40)), \"y\": \(r.int(0...30)), \"t\": \(String(format: "%.3f", t0 + Double(i) * 0.07))}"
            }
            entries.append("{\"brush\": \"dot\", \"color\": \"#\(["ffffff", "ff3b30", "30a0ff"][r.int(0...2)])\", "
                           + "\"radius\": \(r.int(2...5)), \"points\": [\(points.joined(separator: ", "))]}")
            strokes += 1
            for _ in 0..<r.int(0...2) {
                let t = r.unit() * 2.4
                let kinds: [(SessionOp.Kind, String)] = [(.undo(1), "\"undo\": 1"), (.redo(1), "\"redo\": 1"), (.clear, "\"clear\": true")]
                let (kind, text) = kinds[r.int(0...2)]
                var next = timeline
                next.ops.append(SessionOp(kind: kind, time: t, frame: SessionOp.clockFrame(of: t, fps: 10), position: strokes))
                guard next.firstProblem(count: strokes) == nil else { continue }
                timeline = next
                entries.append("{\(text), \"t\": \(t)}")
            }
        }
        return entries.joined(separator: ",\n")
    }

    func testRandomScriptsShardedEqualTheWholeRun() throws {
        _ = try VideoTestSupport.requireFFmpeg()
        let dir = try TestSupport.temporaryDirectory(self, "shard-property")
        try VideoTestSupport.makeVideo(dir.appendingPathComponent("in.y4m").path, width: 40, height: 30, frames: 30, rate: 10)
        for seed in 1...4 as ClosedRange<UInt64> {
            var r = Random(mixer: SplitMix64(seed: seed))
            let maxAge = [0, 6, 15][r.int(0...2)]
            let body = "\"maxAge\": \(maxAge), \"brushes\": {\"dot\": {\"builtin\": \"hard-round\"}}, \"draw\": [\(Self.draw(&r))]}"
            try ("{\"canvas\": {\"width\": 40, \"height\": 30}, \"fps\": 10, " + body)
                .write(to: dir.appendingPathComponent("r.json"), atomically: true, encoding: .utf8)
            try ("{" + body).write(to: dir.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
            let a = r.int(0...12), b = a + r.int(1...16), n = r.int(2...5)
            let what = "seed \(seed): frames \(a)...\(b) in \(n) parts, maxAge \(maxAge)"
            let renders = [["render", "r.json", "--frames", "\(a)...\(b)"], ["bake", "b.json", "--video", "in.y4m"]]
            for command in renders {
                var run = try TestSupport.stipple(command + ["-o", "whole.y4m"], in: dir)
                XCTAssertEqual(run.status, 0, "\(what): \(run.stderr)")
                for k in 1...n {
                    run = try TestSupport.stipple(command + ["--shard", "\(k)/\(n)", "-o", "part-\(k).y4m"], in: dir)
                    XCTAssertEqual(run.status, 0, "\(what): \(run.stderr)")
                }
                let joined = try FrameShardTests.join(dir, (1...n).map { "part-\($0).y4m" })
                XCTAssertTrue(joined == (try Data(contentsOf: dir.appendingPathComponent("whole.y4m"))), "\(command[0]) \(what)")
            }
        }
    }
}
