import XCTest
@testable import Stipple

/// docs/reference.md §12 in scripts: `undo`, `redo` and `clear` entries in `draw`.
final class SessionScriptTests: XCTestCase {
    static let head = """
        { "canvas": { "width": 40, "height": 30, "background": "#101014" }, "fps": 10, "seed": 3,
          "brushes": { "soft": { "builtin": "soft-round", "size": 16 } },
          "draw": [
        """
    static func stroke(_ x: Int, _ color: String, t: Double = 0) -> String {
        """
        { "brush": "soft", "color": "\(color)", "radius": 5, "points": [ { "x": \(x), "y": 8, "t": \(t) }, { "x": \(x + 4), "y": 22, "t": \(t) } ] }
        """
    }
    static func script(_ entries: [String]) -> String { head + entries.joined(separator: ",\n") + "] }" }

    let a = stroke(8, "#ff0000"), b = stroke(18, "#00ff00"), c = stroke(28, "#0000ff")

    func testSessionEntriesAreDecodedInDrawOrder() throws {
        let fx = try ScriptFixture()
        let s = try fx.parse(Self.script([a, #"{ "undo": 1, "t": 0.25 }"#, b, #"{ "clear": true, "t": 1 }"#,
                                          #"{ "redo": 1, "t": 2 }"#.replacingOccurrences(of: "redo", with: "undo")]))
        XCTAssertEqual(s.draw.count, 2)
        XCTAssertEqual(s.session.ops.map(\.kind), [.undo(1), .clear, .undo(1)])
        XCTAssertEqual(s.session.ops.map(\.position), [1, 2, 2])
        XCTAssertEqual(s.session.ops.map(\.frame), [2, 10, 20])
        XCTAssertEqual(s.session.shownEntries(count: 2, atFrame: 0), [0, 1])
        XCTAssertEqual(s.session.shownEntries(count: 2, atFrame: 2), [1])
        XCTAssertEqual(s.session.shownEntries(count: 2, atFrame: 10), [])
        XCTAssertEqual(s.session.shownEntries(count: 2, atFrame: 20), [1])
    }

    func testBadSessionEntriesAreRefusedAtTheirPlace() throws {
        let fx = try ScriptFixture()
        var text = Self.script([#"{ "undo": 1, "t": 0 }"#])
        fx.assertError(text, at: #"{ "undo""#, "undo 1 at t = 0.0 s (frame 0) has nothing to undo there; expected a stroke or clear before it in draw")
        text = Self.script([a, #"{ "undo": 2, "t": 0 }"#])
        fx.assertError(text, at: #"{ "undo""#, "undo 2 at t = 0.0 s (frame 0) has only 1 step to undo there; expected a stroke or clear before it in draw")
        text = Self.script([a, #"{ "undo": 1, "t": 1 }"#, #"{ "redo": 1, "t": 0.5 }"#])
        fx.assertError(text, at: #"{ "redo""#, "redo 1 at t = 0.5 s (frame 5) has nothing to redo there; expected a stroke or clear before it in draw that an undo took back, with no new stroke or clear since")
        text = Self.script([a, #"{ "undo": 1, "t": 0 }"#, b, #"{ "redo": 1, "t": 0 }"#])
        fx.assertError(text, at: #"{ "redo""#, "redo 1 at t = 0.0 s (frame 0) has nothing to redo there; expected a stroke or clear before it in draw that an undo took back, with no new stroke or clear since")
        text = Self.script([a, #"{ "undo": 0, "t": 0 }"#])
        fx.assertError(text, at: "0, \"t\"", "undo in draw entry 2 (how many steps, 1 or more) must be a whole number from 1 to 1000000, found 0")
        text = Self.script([a, #"{ "clear": false, "t": 0 }"#])
        fx.assertError(text, at: "false", "clear must be true (leave the entry out for no clear)")
        text = Self.script([a, #"{ "undo": 1 }"#])
        fx.assertError(text, at: #"{ "undo""#, "missing key \"t\" in draw entry 2 (undo): the time it acts from, seconds")
        text = Self.script([a, #"{ "undo": 1, "t": 0, "brush": "soft" }"#])
        fx.assertError(text, at: #""brush": "soft" }"#, "unknown key \"brush\" in draw entry 2 (undo); expected one of: undo, t")
        text = Self.script([a, #"{ "undo": 1, "clear": true, "t": 0 }"#])
        fx.assertError(text, at: #""clear""#, "draw entry 2 has both \"undo\" and \"clear\"; a session entry is exactly one of undo, redo or clear")
    }

    /// Each frame of a script with session entries renders bit-identical to the script
    /// without the strokes hidden at that frame; before an entry's frame it is as if absent.
    func testRenderingHonoursTheEntriesFromTheirFrame() async throws {
        let fx = try ScriptFixture()
        let renderer = try Renderer()
        func render(_ entries: [String], frame: Int) async throws -> Image {
            let path = fx.write(Self.script(entries), to: "s\(UUID().uuidString.prefix(6)).json")
            return try await renderer.render(try Scene.load(path: path), frame: frame)
        }
        let session = [a, b, #"{ "undo": 1, "t": 1 }"#, #"{ "redo": 1, "t": 2 }"#, #"{ "clear": true, "t": 3 }"#,
                       #"{ "undo": 1, "t": 4 }"#, c, #"{ "undo": 2, "t": 5 }"#]
        let expected: [(Int, [String])] = [(0, [a, b, c]), (9, [a, b, c]), (10, [a, c]), (20, [a, b, c]), (30, [c]),
                                          (40, [a, b, c]), (50, [a])]
        for (frame, entries) in expected {
            let got = try await render(session, frame: frame)
            let want = try await render(entries, frame: frame)
            XCTAssertEqual(got, want, "frame \(frame)")
        }
        let scene = try Scene.load(path: fx.write(Self.script(session), to: "session.json"))
        XCTAssertEqual(scene.batches(atFrame: 50).count, 1)
    }

    /// `stipple render --frames` draws resident layers: it honours the entries too.
    func testRenderFramesHonoursTheEntries() throws {
        let dir = try TestSupport.temporaryDirectory(self)
        let script = dir.appendingPathComponent("s.json").path
        try Self.script([a, b, #"{ "undo": 1, "t": 0.1 }"#]).write(toFile: script, atomically: true, encoding: .utf8)
        let run = try TestSupport.stipple(["render", script, "-o", dir.appendingPathComponent("f").path, "--frames", "0...1"])
        XCTAssertEqual(run.status, 0, run.stderr)
        for n in 0...1 {
            let single = dir.appendingPathComponent("single-\(n).png").path
            XCTAssertEqual(try TestSupport.stipple(["render", script, "-o", single, "--frame", "\(n)"]).status, 0)
            let framed = try PNGFile.read(path: dir.appendingPathComponent(String(format: "f/frame-%04d.png", n)).path).image
            XCTAssertEqual(framed, try PNGFile.read(path: single).image, "frame \(n)")
        }
        let f0 = try PNGFile.read(path: dir.appendingPathComponent("f/frame-0000.png").path).image
        let f1 = try PNGFile.read(path: dir.appendingPathComponent("f/frame-0001.png").path).image
        XCTAssertNotEqual(f0, f1, "the undo at frame 1 shows")
    }
}
