import Foundation
import XCTest
@testable import Stipple

/// An xyz pyramid in the browser: a page of Leaflet (Debian's libjs-leaflet) over the tiles,
/// opened in headless Chromium at two zooms; each screenshot, taken once every tile has
/// loaded, shows the view of the same level, pixel for pixel.
final class LeafletPageTests: XCTestCase {
    func testLeafletShowsTheViewsAtTwoZooms() async throws {
        let leaflet = URL(fileURLWithPath: "/usr/share/javascript/leaflet")
        guard FileManager.default.fileExists(atPath: leaflet.appendingPathComponent("leaflet.js").path) else {
            throw XCTSkip("Leaflet not installed: apt-get install libjs-leaflet (make test-deps installs it)")
        }
        let renderer = try Renderer()
        let scene = try Scene(script: Script.load(path: TestSupport.fixtures.appendingPathComponent("scripts/demo.json").path))
        let (w, h) = (scene.canvas.width, scene.canvas.height)
        let dir = try TestSupport.temporaryDirectory(self, "leaflet")
        let tiles = dir.appendingPathComponent("tiles")
        let summary = try await renderer.writePyramid(scene, frame: 40, to: tiles.path, options: PyramidOptions(layout: .xyz))
        let top = summary.levels - 1
        for file in ["leaflet.js", "leaflet.css"] {
            try FileManager.default.copyItem(at: leaflet.appendingPathComponent(file), to: tiles.appendingPathComponent(file))
        }
        for zoom in [top, top - 1] {
            // At zoom z a map unit is 2^z pixels of that zoom's level: centred so that the page's
            // top-left pixel is the level's.
            let scale = Double(1 << zoom)
            let page = tiles.appendingPathComponent("zoom-\(zoom).html")
            try """
                <!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="leaflet.css">
                <style>html, body, #map { margin: 0; width: \(w)px; height: \(h)px; background: #00ff00; }</style>
                <script>window.errors = []; addEventListener('error', e => { if (!(e.target instanceof HTMLImageElement)) errors.push(String(e.message)); }, true);</script>
                </head><body><div id="map"></div><script src="leaflet.js"></script><script>
                const map = L.map('map', {crs: L.CRS.Simple, zoomControl: false, attributionControl: false,
                                          fadeAnimation: false, zoomAnimation: false, inertia: false});
                L.tileLayer('{z}/{x}/{y}.png', {tileSize: 256, minZoom: 0, maxZoom: \(top), noWrap: true}).addTo(map);
                map.setView([\(-Double(h) / 2 / scale), \(Double(w) / 2 / scale)], \(zoom), {animate: false});
                </script></body></html>
                """.write(to: page, atomically: true, encoding: .utf8)
            let shot = dir.appendingPathComponent("zoom-\(zoom).png")
            let browser = try DevTools(url: page.absoluteString, width: w, height: h, dir: dir,
                                       arguments: ["--allow-file-access-from-files"])
            // The viewport exactly the page's size (a headless window may keep some for itself).
            try browser.call("Emulation.setDeviceMetricsOverride", ["width": w, "height": h, "deviceScaleFactor": 1, "mobile": false])
            try browser.waitForTiles()
            XCTAssertEqual(try browser.eval("errors") as? [String], [], "the page runs without errors")
            try Data(try browser.screenshot()).write(to: shot)
            let screenshot = try PNGFile.read(path: shot.path).image
            // The level's pixels from the view engine: the whole canvas at 1/2^(top − zoom).
            let view = try View(canvasWidth: w, canvasHeight: h, scale: 1 / Double(1 << (top - zoom)))
            let expected = try await renderer.render(scene, frame: 40, view: view)
            guard screenshot.width >= expected.width, screenshot.height >= expected.height else {
                return XCTFail("the screenshot is \(screenshot.width)×\(screenshot.height), the level \(expected.width)×\(expected.height)")
            }
            var worst = 0, differing = 0
            for y in 0..<expected.height {
                for x in 0..<expected.width {
                    let a = expected.pixel(x, y), b = screenshot.pixel(x, y)
                    let d = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
                    worst = max(worst, d)
                    if d > 0 { differing += 1 }
                }
            }
            XCTAssertLessThanOrEqual(worst, 1, "zoom \(zoom): the screenshot is the view (\(differing) pixels differ, by up to \(worst))")
            if expected.width < w {
                let outside = screenshot.pixel(expected.width + 2, 2)
                XCTAssertEqual([outside.r, outside.g, outside.b], [0, 255, 0], "past the level the page shows its own background")
            }
        }
    }
}
