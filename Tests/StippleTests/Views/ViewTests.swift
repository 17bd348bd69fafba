import Foundation
import XCTest
@testable import Stipple

/// Views and pyramids: the streaming reduction equals the obvious one; a view at scale 1 is
/// the crop of the full render, at 1/2^k the crop of level k; every pyramid tile is its
/// level's pixels; names and sizes are those of `vips dzsave`; bad input is refused.
final class ViewTests: XCTestCase {
    /// Row by row, every level equals the level computed whole (odd sizes, slivers, 1×1).
    func testStreamedLevelsEqualTheWholeLevels() {
        var rng = SplitMix64(seed: 5)
        for (w, h) in [(1, 1), (1, 7), (7, 1), (2, 2), (13, 9), (64, 33), (101, 3), (5, 130)] {
            let pixels = (0..<(w * h * 4)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let top = View.topLevel(w, h)
            var got = [[UInt8]](repeating: [], count: top + 1)
            var chain = PyramidRows(width: w, levels: top)
            pixels.withUnsafeBytes { all in
                for y in 0..<h {
                    chain.push(UnsafeRawBufferPointer(rebasing: all[(y * w * 4)..<((y + 1) * w * 4)])) { k, row in got[k] += row }
                }
            }
            chain.finish { k, row in got[k] += row }
            let reference = PyramidReference(width: w, height: h, pixels: pixels)
            for k in 0...top {
                let level = reference.level(k)
                XCTAssertEqual(got[k], level.pixels, "level \(k) of \(w)×\(h)")
                XCTAssertEqual(View.levelSize(w, h, level: k).width, level.width)
            }
            XCTAssertEqual(reference.level(top).width * reference.level(top).height, 1, "the top level is 1×1")
        }
    }

    /// A fitted view is never larger than asked, and a pixel short of it at most, even where
    /// a level's last pixel (an odd edge) would round the image up.
    func testFittedViewsFit() throws {
        for (w, h, fw, fh) in [(1001, 999, 500, 500), (1001, 3, 500, 1), (640, 360, 64, 64), (7, 5, 3, 3), (16385, 9, 1024, 1)] {
            let view = try View(x: 0, y: 0, width: w, height: h, fitting: fw, fh, canvasWidth: w, canvasHeight: h)
            XCTAssertLessThanOrEqual(view.outputWidth, fw, "\(w)×\(h) in \(fw)×\(fh)")
            XCTAssertLessThanOrEqual(view.outputHeight, fh, "\(w)×\(h) in \(fw)×\(fh)")
            XCTAssertTrue(view.outputWidth >= fw - 1 || view.outputHeight >= fh - 1, "\(w)×\(h) in \(fw)×\(fh): \(view)")
        }
    }

    /// The premultiplied canvas as the view engine draws it (level 0 of the whole canvas).
    static func canvas(_ scene: Scene, frame: Int, _ renderer: Renderer) async throws -> PyramidReference {
        var rows: [UInt8] = []
        let (w, h) = (scene.canvas.width, scene.canvas.height)
        try await renderer.levelRows(scene, frame: frame, area: PixelBox(x0: 0, y0: 0, x1: w, y1: h), levels: 0,
                                     primitive: .points) { _, row in rows += row }
        return PyramidReference(width: w, height: h, pixels: rows)
    }

    /// Views of `scene` against the full render and the reference pyramid; nil when all agree.
    static func checkViews(_ scene: Scene, frame: Int, _ renderer: Renderer, seed: UInt64) async throws -> String? {
        let (w, h) = (scene.canvas.width, scene.canvas.height)
        let full = try await renderer.render(scene, frame: frame)
        let canvas = try await canvas(scene, frame: frame, renderer)
        if Image(width: w, height: h, premultiplied: canvas.pixels).pixels != full.pixels {
            return "the view engine's canvas is not the one-pass render"
        }
        var rng = SplitMix64(seed: seed)
        func int(_ r: ClosedRange<Int>) -> Int { r.lowerBound + Int(rng.next() % UInt64(r.count)) }
        for _ in 0..<4 {
            // Scale 1, anywhere: the crop.
            let (x, y) = (int(0...(w - 1)), int(0...(h - 1)))
            let (rw, rh) = (int(1...(w - x)), int(1...(h - y)))
            let view = try View(x: x, y: y, width: rw, height: rh, canvasWidth: w, canvasHeight: h)
            let image = try await renderer.render(scene, frame: frame, view: view)
            if image.pixels != canvas.straightCrop(x, y, x + rw, y + rh) { return "view \(view) is not the crop" }
            // 1/2^k on whole blocks: level k's pixels.
            let k = int(1...max(1, View.topLevel(w, h)))
            let level = canvas.level(k)
            let (lx, ly) = (int(0...(level.width - 1)), int(0...(level.height - 1)))
            let (lw, lh) = (int(1...(level.width - lx)), int(1...(level.height - ly)))
            let unit = 1 << k
            let cw = min(w, (lx + lw) * unit) - lx * unit, ch = min(h, (ly + lh) * unit) - ly * unit
            let levelView = try View(x: lx * unit, y: ly * unit, width: cw, height: ch, scale: 1 / Double(unit),
                                     canvasWidth: w, canvasHeight: h)
            let reduced = try await renderer.render(scene, frame: frame, view: levelView)
            if reduced.width != lw || reduced.height != lh || reduced.pixels != level.straightCrop(lx, ly, lx + lw, ly + lh) {
                return "view \(levelView) is not level \(k)'s pixels \(lx),\(ly),\(lw),\(lh)"
            }
        }
        return nil
    }

    /// Every tile of a pyramid on disk against the reference levels.
    static func checkPyramid(_ scene: Scene, frame: Int, _ renderer: Renderer, layout: PyramidOptions.Layout,
                             tileSize: Int? = nil, in dir: URL) async throws -> String? {
        let (w, h) = (scene.canvas.width, scene.canvas.height)
        let canvas = try await canvas(scene, frame: frame, renderer)
        let path = dir.appendingPathComponent("p-\(layout.rawValue)-\(UUID().uuidString.prefix(6))").path
        let options = PyramidOptions(layout: layout, tileSize: tileSize)
        let summary = try await renderer.writePyramid(scene, frame: frame, to: path, options: options)
        guard FileSystem.entry(at: summary.descriptor) == .file else { return "no descriptor at \(summary.descriptor)" }
        let top = summary.levels - 1
        var tiles = 0
        for k in 0...top {
            let level = canvas.level(k)
            let (t, o) = (options.tileSize, options.overlap)
            for r in 0..<((level.height + t - 1) / t) {
                for c in 0..<((level.width + t - 1) / t) {
                    let x0 = max(0, c * t - o), x1 = min(level.width, (c + 1) * t + o)
                    let y0 = max(0, r * t - o), y1 = min(level.height, (r + 1) * t + o)
                    let file = layout == .deepZoom ? "\(summary.tiles)/\(top - k)/\(c)_\(r).png" : "\(summary.tiles)/\(top - k)/\(c)/\(r).png"
                    let png = try PNGFile.read(path: file)
                    var expected = level.straightCrop(x0, y0, x1, y1)
                    if layout == .xyz {
                        // Full tiles, transparent past the level's edge.
                        var padded = [UInt8](repeating: 0, count: t * t * 4)
                        for y in 0..<(y1 - y0) {
                            padded.replaceSubrange((y * t * 4)..<((y * t + x1 - x0) * 4),
                                                   with: expected[(y * (x1 - x0) * 4)..<((y + 1) * (x1 - x0) * 4)])
                        }
                        expected = padded
                    }
                    if png.image.pixels != expected { return "tile \(file) is not level \(k)'s pixels" }
                    tiles += 1
                }
            }
        }
        if tiles != summary.tileCount { return "\(summary.tileCount) tiles written, \(tiles) expected" }
        _ = (w, h)
        return nil
    }

    /// Any other scale: level ⌊log₂(1/F)⌋ reduced by an area-weighted box, computed here
    /// pixel by pixel in two dimensions from the reference level.
    static func checkBoxedViews(_ scene: Scene, frame: Int, _ renderer: Renderer, seed: UInt64) async throws -> String? {
        let (w, h) = (scene.canvas.width, scene.canvas.height)
        let canvas = try await canvas(scene, frame: frame, renderer)
        var rng = SplitMix64(seed: seed)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        for _ in 0..<4 {
            let x = Int(unit() * Double(w - 1)), y = Int(unit() * Double(h - 1))
            let rw = 1 + Int(unit() * Double(w - x - 1)), rh = 1 + Int(unit() * Double(h - y - 1))
            let scale = 0.02 + 0.98 * unit()
            let view = try View(x: x, y: y, width: rw, height: rh, scale: scale, canvasWidth: w, canvasHeight: h)
            let k = view.level
            let level = canvas.level(k)
            let unitK = Double(1 << k)
            let x0 = Double(x) / unitK, y0 = Double(y) / unitK
            let x1 = x + rw == w ? Double(level.width) : Double(x + rw) / unitK
            let y1 = y + rh == h ? Double(level.height) : Double(y + rh) / unitK
            let (ow, oh) = (view.outputWidth, view.outputHeight)
            var expected = [UInt8](repeating: 0, count: ow * oh * 4)
            for j in 0..<oh {
                let a = y0 + Double(j) * (y1 - y0) / Double(oh), b = j == oh - 1 ? y1 : y0 + Double(j + 1) * (y1 - y0) / Double(oh)
                for i in 0..<ow {
                    let c = x0 + Double(i) * (x1 - x0) / Double(ow), d = i == ow - 1 ? x1 : x0 + Double(i + 1) * (x1 - x0) / Double(ow)
                    var sum = [Double](repeating: 0, count: 4), area = 0.0
                    for q in Int(a.rounded(.down))..<min(level.height, Int(b.rounded(.up))) {
                        let wy = min(b, Double(q + 1)) - max(a, Double(q))
                        for p in Int(c.rounded(.down))..<min(level.width, Int(d.rounded(.up))) {
                            let wx = min(d, Double(p + 1)) - max(c, Double(p))
                            guard wx > 0, wy > 0 else { continue }
                            area += wx * wy
                            for ch in 0..<4 { sum[ch] += wx * wy * Double(level.pixels[(q * level.width + p) * 4 + ch]) }
                        }
                    }
                    for ch in 0..<4 { expected[(j * ow + i) * 4 + ch] = UInt8((sum[ch] / area + 0.5 + 1e-9).rounded(.down)) }
                }
            }
            let image = try await renderer.render(scene, frame: frame, view: view)
            let straight = Image(width: ow, height: oh, premultiplied: expected).pixels
            if image.width != ow || image.height != oh { return "view \(view) is \(image.width)×\(image.height)" }
            if let d = zip(image.pixels, straight).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
                return "view \(view): byte \(d.offset) is \(d.element.0), the box gives \(d.element.1)"
            }
        }
        return nil
    }

    private static let renderer = Result { try Renderer() }

    private func scene(_ name: String) throws -> Scene {
        try Scene(script: Script.load(path: TestSupport.fixtures.appendingPathComponent("scripts/\(name)").path))
    }

    func testViewsAndPyramidsOfTheDemo() async throws {
        let r = try Self.renderer.get()
        try TileTestSupport.requireTranslationInvariantDriver(r)
        let dir = try TestSupport.temporaryDirectory(self, "views")
        for name in ["demo.json", "background-png.json", "ages.json"] {
            let s = try scene(name)
            if let failure = try await Self.checkViews(s, frame: 3, r, seed: 9) { XCTFail("\(name): \(failure)") }
            if let failure = try await Self.checkBoxedViews(s, frame: 3, r, seed: 4) { XCTFail("\(name): \(failure)") }
            for layout in PyramidOptions.Layout.allCases {
                if let failure = try await Self.checkPyramid(s, frame: 3, r, layout: layout, in: dir) { XCTFail("\(name): \(failure)") }
            }
        }
        // Small tiles: many rows of tiles a level, overlap on every side.
        if let failure = try await Self.checkPyramid(try scene("demo.json"), frame: 0, r, layout: .deepZoom, tileSize: 37, in: dir) {
            XCTFail(failure)
        }
    }
}
