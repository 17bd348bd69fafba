import Foundation
import Stipple
import Testing

/// Views, previews and pyramids from a user's package: a region at scale 1 is the crop of the
/// full render; a fitted overview and its preview have the size asked for; a Deep Zoom
/// pyramid written in two parts and joined has its descriptor and every level.
@Test func viewsFromSwift() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("consumer-views-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("s.json")
    try #"""
        {"canvas": {"width": 300, "height": 200, "background": "#203040"},
         "brushes": {"soft": {"builtin": "soft-round", "size": 64}},
         "draw": [{"brush": "soft", "color": "#ffcc00", "radius": 9,
                   "points": [{"x": 20, "y": 30, "t": 0}, {"x": 150, "y": 170, "t": 0.2}, {"x": 280, "y": 20, "t": 0.4}]}]}
        """#.write(to: script, atomically: true, encoding: .utf8)
    let scene = try Scene(script: Script.load(path: script.path))
    let renderer = try Renderer()
    let full = try await renderer.render(scene, frame: 20)

    let region = try View(x: 100, y: 50, width: 120, height: 90, canvasWidth: 300, canvasHeight: 200)
    let crop = try await renderer.render(scene, frame: 20, view: region)
    #expect(crop.width == 120 && crop.height == 90)
    func rgba(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] { let p = image.pixel(x, y); return [p.r, p.g, p.b, p.a] }
    #expect(rgba(crop, 0, 0) == rgba(full, 100, 50) && rgba(crop, 119, 89) == rgba(full, 219, 139))

    let overview = try View(x: 0, y: 0, width: 300, height: 200, fitting: 64, 64, canvasWidth: 300, canvasHeight: 200)
    let exact = try await renderer.render(scene, frame: 20, view: overview)
    let preview = try await renderer.renderPreview(scene, frame: 20, view: overview)
    #expect(exact.width <= 64 && exact.height <= 64 && preview.width == exact.width && preview.height == exact.height)

    let path = folder.appendingPathComponent("p").path
    for k in 1...2 { _ = try await renderer.writePyramidPart(scene, frame: 20, to: path, part: k, of: 2) }
    let summary = try Pyramid.join(path)
    #expect(summary.levels == 10 && FileManager.default.fileExists(atPath: path + ".dzi"))
}
