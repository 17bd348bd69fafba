import Foundation
import SnapshotTesting
import Stipple
import StippleGolden
import StippleSnapshotTesting
import Testing

/// `.stippleScript`: a script file rendered on the process's renderer, then snapshotted.
struct ScriptSnapshottingTests {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("stipple-script-snapshots-\(UUID().uuidString)")

    /// One soft red dot at `x` on a dark 48×32 canvas.
    func script(dotAt x: Double) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("dot-\(x).json")
        let text = """
            {"canvas": {"width": 48, "height": 32, "background": "#101014"},
             "brushes": {"soft": {"builtin": "soft-round"}},
             "draw": [{"brush": "soft", "color": "#ff3b30", "radius": 8,
                       "points": [{"x": \(x), "y": 16, "t": 0, "pressure": 0.9}]}]}
            """
        try Data(text.utf8).write(to: url)
        return url
    }

    func verify(_ url: URL, record: SnapshotTestingConfiguration.Record,
                tolerance: GoldenTolerance = .exact) -> String? {
        verifySnapshot(of: url, as: .stippleScript(frame: 0, tolerance: tolerance),
                       named: "dot", record: record,
                       snapshotDirectory: folder.appendingPathComponent("__Snapshots__").path, testName: "script")
    }

    @Test func recordsMatchesAndFailsAScript() throws {
        let here = try script(dotAt: 20)
        let recorded = try #require(verify(here, record: .missing))
        #expect(recorded.contains("Automatically recorded snapshot"), "\(recorded)")
        let png = folder.appendingPathComponent("__Snapshots__/script.dot.png").path
        let image = try Image(contentsOfPNG: png)
        #expect(image.width == 48 && image.height == 32)
        #expect(verify(here, record: .never) == nil, "a second render matches the first")
        let moved = try #require(verify(try script(dotAt: 26), record: .never))
        #expect(moved.contains("max channel diff"), "\(moved)")
        #expect(moved.contains("diff image: "), "\(moved)")
    }
}
