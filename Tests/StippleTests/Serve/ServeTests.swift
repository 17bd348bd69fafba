import Foundation
import XCTest
@testable import StippleBench
@testable import Stipple
@testable import StippleServe

/// `stipple serve` as a browser uses it, over real HTTP and WebSocket connections: tiles are
/// the exact views of the drawing (and previews are marked), nothing outside the drawing is
/// served, drawing needs the token, strokes reach other clients and the journal, undo takes
/// them back, malformed events are refused one by one, and a killed server comes back with
/// its drawing.
final class ServeTests: XCTestCase {
    private func script(_ dir: URL) throws -> String {
        let path = dir.appendingPathComponent("drawing.json").path
        var draw: [String] = []
        for i in 0..<12 {
            let (x0, y0) = (40 + i * 110, 60 + (i * 173) % 700)
            let colour = String(format: "#%02x%02x%02x", 30 + i * 17, 200 - i * 9, 90 + i * 11)
            draw.append(#"{ "brush": "\#(i % 2 == 0 ? "soft" : "hard")", "color": "\#(colour)", "radius": \#(4 + i), "#
                        + #""points": [{ "x": \#(x0), "y": \#(y0), "t": 0 }, { "x": \#(x0 + 300), "y": \#(y0 + 120), "t": 0.2, "pressure": 0.4 }, { "x": \#(x0 + 150), "y": \#(y0 + 260), "t": 0.4 }] }"#)
        }
        try """
            { "canvas": { "width": 1500, "height": 900, "background": "#f4f1e8" },
              "brushes": { "soft": { "builtin": "soft-round", "size": 64 }, "hard": { "builtin": "hard-round", "size": 64 } },
              "draw": [ \(draw.joined(separator: ",\n")) ] }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Process `pid`'s threads: name and nice value (none where /proc is not there).
    static func niceValues(of pid: Int32) -> [(name: String, nice: Int)] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { tid in
            guard let comm = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/comm", encoding: .utf8),
                  let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // After "(name)": the state is field 3 and the nice value field 19.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 16, let nice = Int(fields[16]) else { return nil }
            return (comm.trimmingCharacters(in: .whitespacesAndNewlines), nice)
        }
    }

    private func decode(_ png: [UInt8], _ dir: URL) throws -> Image {
        let path = dir.appendingPathComponent("tile-\(UUID().uuidString).png").path
        try Data(png).write(to: URL(fileURLWithPath: path))
        return try PNGFile.read(path: path).image
    }

    /// The tile as the drawing's view renders it (what the server must send), from `journal`.
    private func expected(_ key: ServedTiles.Key, script: String, journal: String?, renderer: Renderer) async throws -> Image {
        let drawing = try ServedDrawing(script: try Script.load(path: script), journal: journal)
        let (scene, frame, _) = await drawing.snapshot()
        let tiles = ServedTiles(width: scene.canvas.width, height: scene.canvas.height)
        return ServedTiles.padded(try await renderer.render(scene, frame: frame, view: tiles.view(key)!))
    }

    func testTilesAreTheDrawingsViewsAndPreviewsAreMarked() async throws {
        let dir = try TestSupport.temporaryDirectory(self, "serve-tiles")
        let path = try script(dir)
        let server = try ServeChild([path, "--journal", dir.appendingPathComponent("j.jsonl").path])
        let renderer = try Renderer()
        let info = try server.get("/drawing.json")
        XCTAssertEqual(info.status, 200)
        let json = try JSONSerialization.jsonObject(with: Data(info.body)) as! [String: Any]
        XCTAssertEqual(json["topZoom"] as? Int, 3)
        XCTAssertEqual(json["canDraw"] as? Bool, false, "no token given")
        // Every zoom, corners and edges (a level's last column and row are padded): drawn on
        // demand, then read from the pyramid the server writes in the background.
        var fromPyramid = false
        for pass in 0..<2 {
            if pass == 1 {
                for _ in 0..<300 where !fromPyramid {
                    let stats = try JSONSerialization.jsonObject(with: Data(try server.get("/stats.json?token=\(server.token)").body)) as! [String: Any]
                    fromPyramid = stats["pyramidReady"] as? Bool ?? false
                    if !fromPyramid { try await Task.sleep(for: .milliseconds(100)) }
                }
                XCTAssertTrue(fromPyramid, "the pyramid is written")
            }
            for (z, x, y) in [(0, 0, 0), (1, 1, 0), (2, 2, 1), (3, 0, 0), (3, 5, 3), (3, 2, 2), (3, 4, 1)] {
                let key = ServedTiles.Key(z: z, x: x, y: y, preview: false)
                let exact = try server.get("/tiles/\(z)/\(x)/\(y).png")
                XCTAssertEqual(exact.status, 200, "\(key)")
                if pass == 0 { XCTAssertEqual(exact.headers["x-stipple-tile"], "exact") }
                let image = try decode(exact.body, dir)
                XCTAssertEqual(image.width, 256)
                let want = try await expected(key, script: path, journal: nil, renderer: renderer)
                XCTAssertEqual(image.pixels, want.pixels, "tile \(key) is the drawing's view (pass \(pass))")
                let preview = try server.get("/tiles/\(z)/\(x)/\(y).png?preview=1")
                XCTAssertEqual(preview.status, 200)
                XCTAssertNotNil(preview.headers["x-stipple-tile"])
                XCTAssertEqual(try decode(preview.body, dir).width, 256)
            }
        }
        let stats = try JSONSerialization.jsonObject(with: Data(try server.get("/stats.json?token=\(server.token)").body)) as! [String: Any]
        XCTAssertGreaterThanOrEqual(stats["fromPyramid"] as? Int ?? 0, 7, "\(stats)")
        // Tiles yield the cores to the live channel: llvmpipe's rasterisers run at the tiles'
        // nice value, the threads that serve connections at the process's own.
        let threads = Self.niceValues(of: server.process.processIdentifier)
        let rasterisers = threads.filter { $0.name.hasPrefix("llvmpipe") }, network = threads.filter { $0.name.hasPrefix("NIO") }
        if !rasterisers.isEmpty {
            XCTAssertTrue(rasterisers.allSatisfy { $0.nice == Int(StippleServer.tileNiceness) }, "\(threads)")
            XCTAssertTrue(!network.isEmpty && network.allSatisfy { $0.nice < Int(StippleServer.tileNiceness) }, "\(threads)")
        }
        for missing in ["/tiles/3/6/0.png", "/tiles/4/0/0.png", "/tiles/-1/0/0.png", "/tiles/0/0/0.jpg"] {
            XCTAssertEqual(try server.get(missing).status, 404, missing)
        }
    }

    func testNothingOutsideTheDrawingIsServed() async throws {
        let dir = try TestSupport.temporaryDirectory(self, "serve-outside")
        let path = try script(dir)
        let server = try ServeChild([path, "--journal", dir.appendingPathComponent("j.jsonl").path])
        for p in ["/etc/passwd", "/../../etc/passwd", "/leaflet/../../../../etc/passwd", "/leaflet/..%2f..%2f..%2fetc%2fpasswd",
                  "/leaflet/%2e%2e/%2e%2e/etc/passwd", "/leaflet/leaflet.js.map", "/leaflet/images/../../../../etc/passwd",
                  "/drawing.json/../../etc/passwd", "/tiles/0/0/..%2f..%2f..%2fetc%2fpasswd", "/\(path)", "/j.jsonl", "/drawing.json%00"] {
            let r = try server.get(p)
            XCTAssertTrue([400, 404].contains(r.status), "\(p): \(r.status)")
            XCTAssertFalse(String(decoding: r.body, as: UTF8.self).contains("root:"), p)
        }
        if FileManager.default.fileExists(atPath: "/usr/share/javascript/leaflet/leaflet.js") {
            XCTAssertEqual(try server.get("/leaflet/leaflet.js").status, 200)
        }
        XCTAssertEqual(try server.get("/").status, 200, "viewing needs no token")
        // A body is refused before any route sees it.
        let s = try LoopbackSocket(port: server.port)
        try s.send(Array("GET /drawing.json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n".utf8)
                   + [UInt8](repeating: 0x41, count: 100_000))
        var answer: [UInt8] = []
        while let chunk = s.receive(), !chunk.isEmpty { answer += chunk }
        XCTAssertTrue(String(decoding: answer.prefix(20), as: UTF8.self).contains("413"), String(decoding: answer.prefix(60), as: UTF8.self))

        let hidden = try ServeChild([path, "--private", "--journal", dir.appendingPathComponent("k.jsonl").path])
        for p in ["/", "/drawing.json", "/tiles/0/0/0.png"] {
            XCTAssertEqual(try hidden.get(p).status, 401, p)
            XCTAssertEqual(try hidden.get(p + (p.contains("?") ? "&" : "?") + "token=\(hidden.token)").status, 200, p)
        }
        XCTAssertEqual(try hidden.get("/?token=wrong").status, 401)
        XCTAssertThrowsError(try LoopbackWebSocket(port: hidden.port, path: "/live"), "a private drawing's socket needs the token")
    }

    func testStrokesReachEveryClientTheJournalAndUndo() async throws {
        let dir = try TestSupport.temporaryDirectory(self, "serve-live")
        let path = try script(dir)
        let journal = dir.appendingPathComponent("drawing.live.jsonl").path
        // Tiles below the top zoom not made within 1 ms come stale.
        var server = try ServeChild([path, "--journal", journal, "--stale-after", "1"])
        let renderer = try Renderer()
        let key = ServedTiles.Key(z: 3, x: 1, y: 1, preview: false)
        let before = try decode(try server.get("/tiles/3/1/1.png").body, dir)

        let drawer = try LoopbackWebSocket(port: server.port, path: "/live?token=\(server.token)")
        let viewer = try LoopbackWebSocket(port: server.port, path: "/live")
        XCTAssertNotNil(drawer.next(containing: #""canDraw":true"#))
        let hello = viewer.next(containing: #""canDraw":false"#)
        XCTAssertNotNil(hello)
        let viewerID = hello.flatMap { h in h.range(of: #""client":\d+"#, options: .regularExpression).map { Int(h[$0].dropFirst(9))! } } ?? 0

        // The viewer may not draw; malformed events are refused one by one, with a reason.
        try viewer.send(#"{"t": 1, "stroke": 1, "x": 300, "y": 300, "brush": "soft"}"#)
        XCTAssertNotNil(viewer.next(containing: "needs the token"))
        for (bad, reason) in [(#"{"t": 1, "stroke": 7, "x": 300, "y": 300}"#, "brush"),
                              (#"{"t": 1, "stroke": 7, "x": 300, "y": 300, "brush": "nope"}"#, "unknown brush"),
                              (#"{"t": 1, "stroke": 7, "x": "a", "y": 300, "brush": "soft"}"#, "x"),
                              (#"{"t": 1, "stroke": 7, "x": 3, "y": 3, "brush": "soft", "pressure": 4}"#, "pressure"),
                              (#"{"t": 1, "stroke": 7, "x": 3"#, "end"),
                              (#"[1, 2]"#, "object"),
                              (#"{"redo": 1}"#, "nothing to redo"), (#"{"undo": 0}"#, "undo")] {
            try drawer.send(bad)
            let m = drawer.next(containing: "error")
            XCTAssertNotNil(m, bad)
            XCTAssertTrue(m?.contains(reason) ?? false, "\(bad): \(m ?? "nothing")")
        }
        // A stroke across tile 3/1/1 (canvas 256…512): the viewer sees it drawn, then the change.
        let points = [(300.0, 300.0, 0.2), (340.0, 330.0, 0.5), (390.0, 345.0, 0.9), (450.0, 420.0, 0.7)]
        for (i, (x, y, p)) in points.enumerated() {
            let style = i == 0 ? ##", "brush": "hard", "color": "#102080", "radius": 9"## : ""
            try drawer.send(#"{"t": \#(10 + Double(i) * 0.03), "stroke": 1, "x": \#(x), "y": \#(y), "pressure": \#(p)\#(style)}"#)
            // A bad line in the middle is refused and the stroke goes on.
            if i == 1 {
                try drawer.send(##"{"t": 10.04, "stroke": 1, "x": 345, "y": 331, "color": "#ff0000"}"##)
                XCTAssertNotNil(drawer.next(containing: "first event"))
            }
        }
        XCTAssertNotNil(viewer.next(containing: #""live""#))
        try drawer.send(#"{"end": 1}"#)
        let changed = viewer.next(containing: #""changed""#)
        XCTAssertNotNil(changed)
        XCTAssertTrue(changed?.contains(#""version":1"#) ?? false, changed ?? "")
        let after = try decode(try server.get("/tiles/3/1/1.png").body, dir)
        XCTAssertNotEqual(after.pixels, before.pixels, "the stroke is in the tile")
        // The journal is the drawing: a bake's events file, replayed to the same pixels.
        let lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 5, "4 samples and the end")
        XCTAssertTrue(lines.last!.contains(#""end":0"#))
        let replayed = try await expected(key, script: path, journal: journal, renderer: renderer)
        XCTAssertEqual(after.pixels, replayed.pixels)
        // Every zoom above it too: once the pyramid is whole, the tiles a stroke touches are
        // made again from their children, to the views' pixels.
        for _ in 0..<300 {
            let stats = try JSONSerialization.jsonObject(with: Data(try server.get("/stats.json?token=\(server.token)").body)) as! [String: Any]
            if stats["pyramidReady"] as? Bool == true { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        try drawer.send(#"{"t": 20, "stroke": 2, "x": 600, "y": 500, "pressure": 0.8, "brush": "soft", "radius": 12}"#)
        try drawer.send(#"{"t": 20.1, "stroke": 2, "x": 700, "y": 520, "pressure": 0.6}"#)
        try drawer.send(#"{"end": 2}"#)
        // The change itself, not the stroke's "ended" (which names the version too, and comes
        // before the tiles are told).
        XCTAssertNotNil(viewer.next(containing: #"{"changed":{"version":2"#))
        for (i, (z, x, y)) in [(0, 0, 0), (1, 0, 0), (2, 1, 0), (3, 2, 1)].enumerated() {
            let k = ServedTiles.Key(z: z, x: x, y: y, preview: false)
            // The viewer shows the tile. A zoomed-out tile not made within the server's time
            // comes stale (its last exact pixels); the tile is made meanwhile and the viewer
            // told when, as the page is: asked for again then, it is exact.
            try viewer.send(#"{"view":{"seq":\#(i + 1),"z":\#(z),"x0":\#(x),"x1":\#(x),"y0":\#(y),"y1":\#(y)}}"#)
            let url = "/tiles/\(z)/\(x)/\(y).png?c=\(viewerID)&w=\(i + 1)"
            var answer = try server.get(url)
            for _ in 0..<10 where answer.headers["x-stipple-tile"] == "stale" {
                XCTAssertNotNil(viewer.next(containing: #"{"ready":{"z":\#(z),"x":\#(x),"y":\#(y)}}"#), "told tile \(k) is made")
                answer = try server.get(url)
            }
            XCTAssertEqual(answer.headers["x-stipple-tile"], "exact", "tile \(k)")
            let got = try decode(answer.body, dir)
            let want = try await expected(k, script: path, journal: journal, renderer: renderer)
            XCTAssertEqual(got.pixels, want.pixels, "tile \(k) after the second stroke")
        }
        let made = try JSONSerialization.jsonObject(with: Data(try server.get("/stats.json?token=\(server.token)").body)) as! [String: Any]
        XCTAssertGreaterThanOrEqual(made["fromChildren"] as? Int ?? 0, 3, "zooms 0 to 2 made from their children: \(made)")
        try drawer.send(#"{"undo": 1}"#)
        XCTAssertNotNil(viewer.next(containing: #""version":3"#))

        // A drawer who leaves mid-stroke leaves nothing behind.
        let leaving = try LoopbackWebSocket(port: server.port, path: "/live?token=\(server.token)")
        XCTAssertNotNil(leaving.next(containing: "hello"))
        try leaving.send(#"{"t": 1, "stroke": 5, "x": 700, "y": 700, "brush": "soft"}"#)
        try leaving.send(#"{"t": 1.1, "stroke": 5, "x": 720, "y": 710}"#)
        XCTAssertNotNil(viewer.next(containing: #""live""#))
        close(leaving.socket.fd)
        XCTAssertNotNil(viewer.next(containing: #""aborted""#))
        XCTAssertEqual(try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n").count, 9, "the second stroke (3 lines) and its undo")

        // Undo takes the stroke back, for everyone; redo brings it again.
        try drawer.send(#"{"undo": 1}"#)
        XCTAssertNotNil(viewer.next(containing: #""changed""#))
        XCTAssertEqual(try decode(try server.get("/tiles/3/1/1.png").body, dir).pixels, before.pixels)
        try drawer.send(#"{"redo": 1}"#)
        XCTAssertNotNil(viewer.next(containing: #""changed""#))
        XCTAssertEqual(try decode(try server.get("/tiles/3/1/1.png").body, dir).pixels, after.pixels)

        // Killed after the save interval, started again: the drawing is back.
        try await Task.sleep(for: .milliseconds(1300))
        server.kill9()
        server = try ServeChild([path, "--journal", journal])
        XCTAssertEqual(try decode(try server.get("/tiles/3/1/1.png").body, dir).pixels, after.pixels)
        let info = try JSONSerialization.jsonObject(with: Data(try server.get("/drawing.json").body)) as! [String: Any]
        XCTAssertEqual(info["version"] as? Int, 1)
    }

    func testWatchRefreshesOnlyTheTilesWhosePixelsChanged() async throws {
        let dir = try TestSupport.temporaryDirectory(self, "serve-watch")
        let path = try script(dir)
        let server = try ServeChild([path, "--watch", "--journal", dir.appendingPathComponent("j.jsonl").path])
        let renderer = try Renderer()
        let viewer = try LoopbackWebSocket(port: server.port, path: "/live")
        XCTAssertNotNil(viewer.next(containing: "hello"))
        let far = try server.get("/tiles/3/5/3.png").body
        // The first stroke (40,60 → 340,180 → 190,320) turns red.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let first = text.range(of: ##""color": "#[0-9a-f]{6}""##, options: .regularExpression)!
        try text.replacingCharacters(in: first, with: ##""color": "#ff0000""##).write(toFile: path, atomically: true, encoding: .utf8)
        let changed = viewer.next(containing: #""changed""#)
        XCTAssertNotNil(changed)
        let box = changed.flatMap { m in m.range(of: #"\[(-?\d+),(-?\d+),(-?\d+),(-?\d+)\]"#, options: .regularExpression).map { String(m[$0]) } }
        XCTAssertNotNil(box, "only a box changed, not the whole canvas: \(changed ?? "")")
        let near = try decode(try server.get("/tiles/3/0/0.png").body, dir)
        let want = try await expected(ServedTiles.Key(z: 3, x: 0, y: 0, preview: false), script: path, journal: nil, renderer: renderer)
        XCTAssertEqual(near.pixels, want.pixels, "the tile shows the script as it is now")
        XCTAssertEqual(try server.get("/tiles/3/5/3.png").body, far, "a tile away from the change is as it was")
        // A script that cannot be served is reported, and the drawing stays.
        try "{ not json".write(toFile: path, atomically: true, encoding: .utf8)
        try await Task.sleep(for: .milliseconds(1500))
        XCTAssertEqual(try decode(try server.get("/tiles/3/0/0.png").body, dir).pixels, want.pixels)
    }

    func testATileDroppedByTheBrowserIsNotDrawn() async throws {
        let dir = try TestSupport.temporaryDirectory(self, "serve-dropped")
        let path = try script(dir)
        let server = try ServeChild([path, "--renders", "1", "--journal", dir.appendingPathComponent("j.jsonl").path])
        // 24 tiles asked for, their connections closed at once (a browser dropping them).
        var sockets: [LoopbackSocket] = []
        for i in 0..<24 {
            let s = try LoopbackSocket(port: server.port)
            try s.send(Array("GET /tiles/3/\(i % 6)/\(i / 6).png?c=4 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            sockets.append(s)
        }
        sockets.removeAll()
        // Two seconds, and then until no render runs or waits (a render that had begun
        // finishes: seconds more on a busy machine).
        try await Task.sleep(for: .seconds(2))
        var stats: [String: Any] = [:]
        for _ in 0..<200 {
            stats = try JSONSerialization.jsonObject(with: Data(try server.get("/stats.json?token=\(server.token)").body)) as! [String: Any]
            if stats["running"] as? Int == 0 && stats["queued"] as? Int == 0 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let (rendered, cancelled) = (stats["rendered"] as? Int ?? -1, stats["cancelled"] as? Int ?? -1)
        XCTAssertEqual(rendered + cancelled, 24, "\(stats)")
        XCTAssertGreaterThanOrEqual(cancelled, 16, "renders nobody waited for were dropped: \(stats)")
        XCTAssertEqual(try server.get("/stats.json").status, 401)
    }

    func testLimitsCloseOnlyTheConnectionThatBreaksThem() async throws {
        let dir = try TestSupport.temporaryDirectory(self, "serve-limits")
        let path = try script(dir)
        let server = try ServeChild([path, "--journal", dir.appendingPathComponent("j.jsonl").path])
        let big = try LoopbackWebSocket(port: server.port, path: "/live?token=\(server.token)")
        XCTAssertNotNil(big.next(containing: "hello"))
        try big.send(#"{"t": 1, "stroke": 1, "x": 3, "y": 3, "brush": "soft", "pad": ""# + String(repeating: "x", count: 40_000) + #""}"#)
        XCTAssertNil(big.next(), "a message past the limit closes the connection")
        let fast = try LoopbackWebSocket(port: server.port, path: "/live?token=\(server.token)")
        XCTAssertNotNil(fast.next(containing: "hello"))
        for _ in 0..<1500 { try? fast.send(#"{"view": {"z": 0, "x0": 0, "x1": 0, "y0": 0, "y1": 0}}"#) }
        XCTAssertNil(fast.next(containing: "never"), "flooding closes the connection")
        XCTAssertEqual(fast.closeCode, 1008)
        // The server and the drawing are as they were.
        XCTAssertEqual(try server.get("/tiles/0/0/0.png").status, 200)
        let info = try JSONSerialization.jsonObject(with: Data(try server.get("/drawing.json").body)) as! [String: Any]
        XCTAssertEqual(info["version"] as? Int, 0)
    }
}
