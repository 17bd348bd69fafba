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

    var snapshots: URL { folder.appendingPathComponent("__Snapshots__") }

    func snapshotFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: snapshots.path)) ?? []).sorted()
    }

    /// Scripts that cannot be drawn, each with a piece of the error it must fail with.
    func brokenScripts() throws -> [(URL, String)] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let cases = [
            ("unknown-brush.json", #"{"canvas": {"width": 48, "height": 32}, "draw": [{"brush": "nope", "stamps": []}]}"#, "nope"),
            ("not-json.json", #"{"canvas": {"width": 48,"#, "not-json.json:1:"),
            ("bad-blur.json", #"{"canvas": {"width": 8, "height": 8}, "brushes": {"s": {"builtin": "soft-round"}}, "draw": [{"brush": "s", "stamps": [], "shadow": {"blur": -1e-300}}]}"#, "shadow blur"),
        ]
        var out: [(URL, String)] = []
        for (name, text, says) in cases {
            let url = folder.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            out.append((url, says))
        }
        out.append((folder.appendingPathComponent("missing.json"), "missing.json"))
        return out
    }

    @Test(arguments: [SnapshotTestingConfiguration.Record.missing, .all, .never, .failed])
    func aScriptThatCannotBeDrawnFailsEveryTimeWithItsErrorAndRecordsNothing(
        record: SnapshotTestingConfiguration.Record) throws {
        for (url, says) in try brokenScripts() {
            for _ in 0..<2 {
                var message: String?
                withKnownIssue {
                    message = verifySnapshot(of: url, as: .stippleScript(frame: 0), named: "broken", record: record,
                                             snapshotDirectory: snapshots.path, timeout: 0.5, testName: "script")
                } matching: { issue in
                    "\(issue)".contains(url.lastPathComponent) && "\(issue)".contains(says)
                }
                #expect(message != nil, "\(url.lastPathComponent): the assertion fails too")
                #expect(snapshotFiles().isEmpty, "\(url.lastPathComponent): nothing recorded: \(snapshotFiles())")
            }
        }
    }

    @Test func aMaskThatCannotBeLoadedFailsTheComparison() throws {
        let here = try script(dotAt: 20)
        _ = verify(here, record: .missing)
        let missing = folder.appendingPathComponent("no-such-mask.png").path
        let message = try #require(verify(here, record: .never, tolerance: GoldenTolerance(maskPath: missing)))
        #expect(message.contains("mask cannot be used") && message.contains("no-such-mask.png"), "\(message)")
    }

    @Test func anEmptyOrDamagedReferenceNeverMatches() throws {
        let here = try script(dotAt: 20)
        try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
        for bytes in [Data(), Data("not a png".utf8)] {
            try bytes.write(to: snapshots.appendingPathComponent("script.dot.png"))
            let message = try #require(verify(here, record: .never))
            #expect(message.contains("not a PNG Stipple reads"), "\(message)")
        }
    }

    /// Seeded byte mutations of a good script with brush modes: each either renders (and is
    /// recorded as a PNG of its canvas) or fails with the script's error and records nothing.
    @Test func mangledScriptsRenderOrFailWithoutARecord() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let good = Array(#"""
            {"canvas": {"width": 24, "height": 16, "background": "#101014"},
             "brushes": {"soft": {"builtin": "soft-round"}},
             "draw": [{"brush": "soft", "color": "#ff3b30", "radius": 5, "blend": "screen", "strokeOpacity": 0.5,
                       "shadow": {"offset": [2, 2], "blur": 1, "color": [0, 0, 0, 0.5]},
                       "points": [{"x": 4, "y": 8, "t": 0}, {"x": 20, "y": 8, "t": 0.1}]},
                      {"undo": 1, "t": 0.5}]}
            """#.utf8)
        var state: UInt64 = 20_261_125
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        for i in 0..<24 {
            var bytes = good
            for _ in 0...(next() % 3) {
                let at = next() % bytes.count
                switch next() % 3 {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: next())
                case 1: bytes.removeSubrange(at...)
                default: bytes[at] = Array("{}[],:\"0-e.".utf8)[next() % 12]
                }
                if bytes.isEmpty { bytes = [UInt8(ascii: "{")] }
            }
            let url = folder.appendingPathComponent("mangled-\(i).json")
            try Data(bytes).write(to: url)
            let name = "mangled-\(i)"
            let png = snapshots.appendingPathComponent("script.\(name).png").path
            var message: String?
            withKnownIssue(isIntermittent: true) {
                message = verifySnapshot(of: url, as: .stippleScript(frame: 0), named: name, record: .missing,
                                         snapshotDirectory: snapshots.path, timeout: 0.5, testName: "script")
            } matching: { issue in
                "\(issue)".contains(url.lastPathComponent)
            }
            let text = try #require(message, "\(name): a first run always fails (recorded, or refused)")
            if text.contains("Automatically recorded snapshot") {
                let image = try Image(contentsOfPNG: png)
                #expect(image.width >= 1 && image.height >= 1, "\(name): a PNG of its canvas")
            } else {
                #expect(!FileManager.default.fileExists(atPath: png), "\(name): a refused script records nothing")
            }
        }
    }
}
