import Foundation
import XCTest
@testable import StippleBench
@testable import Stipple
@testable import StippleServe

/// The page `serve` gives, in headless Chromium: what it shows is the drawing's views at
/// every zoom and pan, a stroke drawn with the mouse (pointer events) lands where it was
/// drawn, a second browser sees it, and undo takes it away in both.
final class ServePageTests: XCTestCase {
    private let (width, height) = (800, 600)

    private func script(_ dir: URL) throws -> String {
        let path = dir.appendingPathComponent("page.json").path
        let colours = ["b03a2e", "1e8449", "7d3c98", "d4ac0d", "2e86c1"]
        let strokes = (0..<10).map { i in
            let points = [(60 + i * 130, 80 + i * 61 % 500, 0.0), (260 + i * 110, 300 + i * 47 % 480, 0.3), (120 + i * 125, 820 - i * 37, 0.6)]
                .map { #"{ "x": \#($0.0), "y": \#($0.1), "t": \#($0.2) }"# }.joined(separator: ", ")
            return ##"{ "brush": "b", "color": "#\##(colours[i % 5])", "radius": \##(5 + i % 4 * 3), "points": [\##(points)] }"##
        }
        try ##"{ "canvas": { "width": 1500, "height": 900, "background": "#fdfaf2" }, "brushes": { "b": { "builtin": "soft-round", "size": 64 } }, "draw": [\##(strokes.joined(separator: ","))] }"##
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Where the canvas's (0, 0) is on the page, and the page's zoom.
    private func placement(_ page: DevTools) throws -> (x: Int, y: Int, zoom: Int) {
        let v = try page.eval("(() => { const p = map.latLngToContainerPoint([0, 0]); return [Math.round(p.x), Math.round(p.y), map.getZoom()]; })()") as! [Any]
        return ((v[0] as! NSNumber).intValue, (v[1] as! NSNumber).intValue, (v[2] as! NSNumber).intValue)
    }

    private func settled(_ page: DevTools, version: Int) throws {
        do { try wait(page, version) } catch {
            let state = (try? page.eval("JSON.stringify([document.getElementById('status').textContent, document.body.dataset])")) ?? "?"
            throw LoopbackSocket.Failure("\(error): the page says \(state)")
        }
        try page.waitForTiles()
    }

    private func wait(_ page: DevTools, _ version: Int) throws {
        try page.wait("typeof map !== 'undefined' && document.body.dataset.version === '\(version)' && document.body.dataset.loading === '0' && document.body.dataset.strokes === '0'",
                      "the page to show version \(version)")
    }

    /// Compares the page's screenshot with the drawing at the page's zoom, away from the
    /// page's controls; returns the largest difference.
    private func compare(_ page: DevTools, _ drawing: ServedDrawing, renderer: Renderer, top: Int, _ label: String) async throws -> Int {
        let (ox, oy, zoom) = try placement(page)
        let (scene, frame, _) = await drawing.snapshot()
        let view = try View(canvasWidth: scene.canvas.width, canvasHeight: scene.canvas.height, scale: 1 / Double(1 << (top - zoom)))
        let expected = try await renderer.render(scene, frame: frame, view: view)
        let dir = try TestSupport.temporaryDirectory(self, "serve-page-shots")
        let path = dir.appendingPathComponent("\(label).png").path
        try Data(try page.screenshot()).write(to: URL(fileURLWithPath: path))
        let shot = try PNGFile.read(path: path).image
        try expected.writePNG(to: dir.appendingPathComponent("\(label)-expected.png").path)
        var worst = 0, compared = 0, at = (0, 0)
        // Away from the zoom buttons (top left), the tools (top right) and the status line.
        for sy in 60..<(shot.height - 30) {
            for sx in 60..<(shot.width - 300) {
                let (x, y) = (sx - ox, sy - oy)
                guard x >= 0, y >= 0, x < expected.width, y < expected.height else { continue }
                let a = expected.pixel(x, y), b = shot.pixel(sx, sy)
                let d = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
                if d > worst { (worst, at) = (d, (sx, sy)) }
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 100_000, "\(label): the drawing fills the page")
        if worst > 1 { print("\(label): worst \(worst) at page pixel \(at), canvas origin (\(ox), \(oy)), zoom \(zoom), shots in \(dir.path)") }
        return worst
    }

    func testThePageShowsTheViewsAndDrawsLive() async throws {
        let dir = try TestSupport.temporaryDirectory(self, "serve-page")
        guard FileManager.default.fileExists(atPath: "/usr/share/javascript/leaflet/leaflet.js") else {
            throw XCTSkip("Leaflet not installed: apt-get install libjs-leaflet (make test-deps installs it)")
        }
        let path = try script(dir)
        let journal = dir.appendingPathComponent("page.live.jsonl").path
        // Every zoomed-out tile not up to date is answered stale at once: the page must ask
        // again until it is exact.
        let server = try ServeChild([path, "--journal", journal, "--stale-after", "0"])
        let renderer = try Renderer()
        let top = ServedTiles(width: 1500, height: 900).topZoom
        let drawer = try DevTools(url: "http://127.0.0.1:\(server.port)/?token=\(server.token)", width: width, height: height, dir: dir)
        let viewer = try DevTools(url: "http://127.0.0.1:\(server.port)/", width: width, height: height, dir: dir)
        try settled(drawer, version: 0)
        try settled(viewer, version: 0)
        let original = try ServedDrawing(script: try Script.load(path: path), journal: nil)
        let d1 = try await compare(viewer, original, renderer: renderer, top: top, "fitted")
        XCTAssertLessThanOrEqual(d1, 1, "the fitted page is the view")
        XCTAssertEqual(try drawer.eval("document.getElementById('bar').hidden") as? Bool, false, "the token holder may draw")
        XCTAssertEqual(try viewer.eval("document.getElementById('bar').hidden") as? Bool, true, "a viewer may not")

        // Pan and zoom the viewer to the canvas's own pixels.
        _ = try viewer.eval("map.setView(map.containerPointToLatLng([330, 260]), \(top), { animate: false }); true")
        try settled(viewer, version: 0)
        XCTAssertEqual(try placement(viewer).zoom, top)
        let d2 = try await compare(viewer, original, renderer: renderer, top: top, "zoomed")
        XCTAssertLessThanOrEqual(d2, 1, "the zoomed page is the view")

        // A stroke drawn with the mouse on the drawer's page.
        _ = try drawer.eval("document.getElementById('draw').click(); true")
        let points = [(300.0, 250.0), (330, 262), (360, 280), (395, 300), (430, 330), (470, 350)]
        try drawer.mouse("mouseMoved", points[0].0, points[0].1)
        try drawer.mouse("mousePressed", points[0].0, points[0].1)
        for p in points.dropFirst() { try drawer.mouse("mouseMoved", p.0, p.1) }
        try drawer.mouse("mouseReleased", points.last!.0, points.last!.1)
        try settled(drawer, version: 1)
        try settled(viewer, version: 1)
        // The drawer's zoomed-out tiles came stale; the server said when each was made, and
        // the page asked again then.
        let told = try drawer.eval("Number(document.body.dataset.told || 0)") as? Int ?? 0
        XCTAssertGreaterThan(told, 0, "tiles asked for again when the server said they were made")
        let drawn = try ServedDrawing(script: try Script.load(path: path), journal: journal)
        // It landed where the mouse went down: the page's pixel, in canvas pixels.
        let first = try JSONSerialization.jsonObject(with: Data(try String(contentsOfFile: journal, encoding: .utf8)
            .split(separator: "\n")[0].utf8)) as! [String: Any]
        let (ox, oy, zoom) = try placement(drawer)
        let unit = Double(1 << (top - zoom))
        XCTAssertEqual(first["x"] as! Double, (points[0].0 - Double(ox)) * unit, accuracy: unit + 0.5)
        XCTAssertEqual(first["y"] as! Double, (points[0].1 - Double(oy)) * unit, accuracy: unit + 0.5)
        let d3 = try await compare(drawer, drawn, renderer: renderer, top: top, "drawn-drawer")
        XCTAssertLessThanOrEqual(d3, 1)
        let d4 = try await compare(viewer, drawn, renderer: renderer, top: top, "drawn-viewer")
        XCTAssertLessThanOrEqual(d4, 1,
                                 "the second browser sees the stroke")

        // Undo, from the drawer's page: gone from both.
        _ = try drawer.eval("document.getElementById('undo').click(); true")
        try settled(drawer, version: 2)
        try settled(viewer, version: 2)
        let d5 = try await compare(drawer, original, renderer: renderer, top: top, "undone-drawer")
        XCTAssertLessThanOrEqual(d5, 1)
        let d6 = try await compare(viewer, original, renderer: renderer, top: top, "undone-viewer")
        XCTAssertLessThanOrEqual(d6, 1)
    }
}
