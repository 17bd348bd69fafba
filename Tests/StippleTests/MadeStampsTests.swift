import XCTest
@testable import Stipple

/// The decoder makes each stroke's stamps while counting them against the budget, and a
/// scene takes those: the same stamps a scene stamps itself, and never stale ones when the
/// script changed after it was read (its rate, seed, speed, a stroke's samples or style).
final class MadeStampsTests: XCTestCase {
    private let text = """
        { "canvas": { "width": 96, "height": 64 }, "fps": 30, "seed": 9, "maxAge": 40, "dissolveDistance": 5,
          "brushes": { "soft": { "builtin": "soft-round", "size": 32 } },
          "draw": [
            { "brush": "soft", "color": "#3080ff", "radius": 6,
              "points": [ { "x": 4, "y": 5, "t": 0 }, { "x": 40, "y": 30, "t": 0.1, "pressure": 0.4 },
                          { "x": 90, "y": 10, "t": 0.25 }, { "x": 150, "y": 60, "t": 0.4 } ] },
            { "brush": "soft", "stamps": [[10, 10, 4, 0, 0, 1, 0, 0, 1]] },
            { "brush": "soft", "color": "#ff4020", "radius": 3, "rotation": "follow",
              "points": [ { "x": 80, "y": 60, "t": 0.2 }, { "x": 20, "y": 50, "t": 0.3 }, { "x": 30, "y": 8, "t": 0.5 } ] }
          ] }
        """

    /// The scene of `script`, and the one a script without the decoder's stamps makes.
    private func scenes(_ script: Script) throws -> (kept: Scene, stamped: Scene) {
        var bare = script
        for i in bare.draw.indices { bare.draw[i].made = nil }
        return (try Scene(script: script), try Scene(script: bare))
    }

    func testTheDecodersStampsAreTheScenesAndGiveWayWhenTheScriptChanges() throws {
        let folder = try TestSupport.temporaryDirectory(self, "made-stamps").path
        let read = try Script.parse(bytes: Array(text.utf8), path: "s.json", directory: folder)
        XCTAssertNotNil(read.draw[0].made, "the decoder kept the stroke's stamps")
        XCTAssertNil(read.draw[1].made, "a stamps entry has none")
        let (asRead, stamped) = try scenes(read)
        XCTAssertTrue(asRead.batches == stamped.batches, "the decoder's stamps are the ones the scene makes")
        XCTAssertGreaterThan(asRead.batches[0].stamps.count, 10)
        XCTAssertNotNil(asRead.batches[2].rotations, "the turning stroke keeps its turns")

        // Each change makes other stamps: the scene stamps the stroke again rather than take
        // the decoder's.
        var changes: [(String, (inout Script) throws -> Void)] = [
            ("fps", { $0.fps = 24 }),
            ("seed", { $0.seed = 10 }),
            ("speed", { try $0.play(atSpeed: 2) }),
            ("a sample", { $0.draw[0].stroke!.samples[1].x += 3 }),
            ("the radius", { $0.draw[2].stroke!.style.radius = 5 }),
            ("the stroke's index", { $0.draw[0].stroke!.index = 7 }),
        ]
        changes.append(("nothing", { _ in }))
        for (what, change) in changes {
            var script = read
            try change(&script)
            let (kept, fresh) = try scenes(script)
            XCTAssertTrue(kept.batches == fresh.batches, "after a change of \(what), not the stamps the scene makes itself")
            if what != "nothing" {
                XCTAssertTrue(kept.batches != asRead.batches, "a change of \(what) changes the stamps")
            }
        }
    }
}
