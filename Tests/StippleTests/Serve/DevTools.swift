import Foundation
import XCTest
@testable import StippleBench

/// Headless Chromium driven over the DevTools protocol (its WebSocket): open a page, run
/// JavaScript, send the mouse (Chromium turns it into pointer events), take screenshots.
final class DevTools {
    private let process = Process()
    private let socket: LoopbackWebSocket
    private var nextID = 0

    /// Starts a browser `width` × `height` on `url`, with any further `arguments`; skips the
    /// test without Chromium.
    init(url: String, width: Int, height: Int, dir: URL, arguments: [String] = []) throws {
        guard let binary = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("Chromium not installed: apt-get install chromium (make test-deps installs it)")
        }
        let profile = dir.appendingPathComponent("chromium-\(UUID().uuidString.prefix(8))")
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                             "--user-data-dir=\(profile.path)", "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
                             "--window-size=\(width),\(height)", "--force-device-scale-factor=1", "--hide-scrollbars"] + arguments + [url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Chromium writes its port to DevToolsActivePort in the profile once it listens.
        let portFile = profile.appendingPathComponent("DevToolsActivePort")
        let deadline = Date().addingTimeInterval(30)
        var port = 0
        while Date() < deadline {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), let p = Int(text.split(separator: "\n").first ?? "") {
                port = p
                break
            }
            usleep(50_000)
        }
        guard port > 0 else { process.terminate(); throw LoopbackSocket.Failure("Chromium did not start its DevTools") }
        // The page's own socket, from the list of targets.
        var page: String?
        while page == nil, Date() < deadline {
            let list = try LoopbackHTTP(port: port).get("/json/list", keepAlive: false).body
            let targets = (try? JSONSerialization.jsonObject(with: Data(list))) as? [[String: Any]] ?? []
            page = targets.first { $0["type"] as? String == "page" }?["webSocketDebuggerUrl"] as? String
            if page == nil { usleep(50_000) }
        }
        guard let page, let path = URL(string: page)?.path else { throw LoopbackSocket.Failure("no page in Chromium") }
        socket = try LoopbackWebSocket(port: port, path: path)
    }

    deinit { process.end() }

    /// Runs a DevTools command; its result.
    @discardableResult
    func call(_ method: String, _ params: [String: Any] = [:]) throws -> [String: Any] {
        nextID += 1
        let id = nextID
        let data = try JSONSerialization.data(withJSONObject: ["id": id, "method": method, "params": params])
        try socket.send(String(decoding: data, as: UTF8.self))
        while let text = socket.next() {
            guard let m = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], m["id"] as? Int == id else { continue }
            if let error = m["error"] { throw LoopbackSocket.Failure("\(method): \(error)") }
            return m["result"] as? [String: Any] ?? [:]
        }
        throw LoopbackSocket.Failure("\(method): no answer")
    }

    /// The value of a JavaScript expression (awaited when it is a promise).
    func eval(_ expression: String) throws -> Any? {
        let r = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
        if let e = r["exceptionDetails"] { throw LoopbackSocket.Failure("\(expression): \(e)") }
        return (r["result"] as? [String: Any])?["value"]
    }

    /// Waits until `condition` (JavaScript) is true.
    func wait(_ condition: String, timeout: Double = 30, _ what: String) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if (try? eval(condition)) as? Bool == true { return }
            usleep(50_000)
        }
        throw LoopbackSocket.Failure("waited \(Int(timeout)) s for \(what)")
    }

    /// Waits until every Leaflet tile on the page has finished loading (a tile past the
    /// drawing's edge may have no image) and shows fully (a tile fades in over 0.2 s, and a
    /// busy machine stretches that), and one at least has loaded: a screenshot then shows
    /// the tiles and nothing half drawn.
    func waitForTiles(timeout: Double = 30) throws {
        try wait("""
            (() => { const tiles = [...document.querySelectorAll('.leaflet-tile')];
                     return tiles.some(t => t.classList.contains('leaflet-tile-loaded'))
                         && tiles.every(t => t.complete && getComputedStyle(t).opacity === '1'); })()
            """, timeout: timeout, "every tile loaded and fully shown")
    }

    func mouse(_ type: String, _ x: Double, _ y: Double) throws {
        try call("Input.dispatchMouseEvent", ["type": type, "x": x, "y": y, "button": "left",
                                              "buttons": type == "mouseReleased" ? 0 : 1, "clickCount": 1, "pointerType": "mouse"])
    }

    func screenshot() throws -> [UInt8] {
        let r = try call("Page.captureScreenshot", ["format": "png"])
        guard let b64 = r["data"] as? String, let data = Data(base64Encoded: b64) else { throw LoopbackSocket.Failure("no screenshot") }
        return [UInt8](data)
    }
}
