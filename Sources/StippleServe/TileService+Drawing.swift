import Foundation
import Stipple

/// Drawing a tile from the canvas: a preview; an exact tile whole; or a top tile that only
/// had strokes added since it was drawn, drawn over its pixels as they were.
extension TileService {
    /// Tile `key` drawn now (its PNG, and its pixels when exact), once it holds a render slot.
    nonisolated func draw(_ key: ServedTiles.Key) async throws -> (png: [UInt8], image: Image?) {
        let began = ContinuousClock.now
        let view = tiles.view(key)!
        if key.preview {
            let (scene, frame, _) = await drawing.snapshot(touching: tiles.box(key))
            let image = ServedTiles.padded(try await renderer.renderPreview(scene, frame: frame, view: view))
            return (try image.pngData(), nil)
        }
        // A top tile drawn before, while strokes were only added since: those strokes drawn
        // over its pixels (a stroke or two, not every stroke under the tile).
        let top = key.z == tiles.topZoom
        let base = top ? await self.base(key) : nil
        let (scene, frame, mark, added) = await drawing.snapshot(touching: tiles.box(key), over: base?.mark)
        let pixels = added ? base.flatMap { b in
            (b.pixels ?? b.png.flatMap { try? PNGFile.decode($0, name: "tile \(key)").image })
                .map { ServedTiles.unpadded($0, width: view.outputWidth, height: view.outputHeight) }
        } : nil
        let drawing = ContinuousClock.now
        let drawn: Image
        if let pixels {
            drawn = scene.batches.isEmpty ? pixels : try await renderer.render(scene, frame: frame, view: view, over: pixels)
        } else {
            drawn = try await renderer.render(scene, frame: frame, view: view)
        }
        let drawnIn = ContinuousClock.now - drawing
        let image = ServedTiles.padded(drawn)
        let png = try image.pngData()
        await self.drew(key, image, png, mark: top ? mark : nil, over: pixels != nil, began: began, drawing: drawnIn)
        return (png, image)
    }

    /// A top tile's pixels drawn before, to be drawn over, and what they show: kept in memory,
    /// or its pyramid file's PNG.
    func base(_ key: ServedTiles.Key) -> (pixels: Image?, png: [UInt8]?, mark: ServedDrawing.Mark)? {
        if let kept = previews.base(key) { return (kept.image, nil, kept.mark) }
        return pyramid.topFile(key).map { (nil, $0.png, $0.mark) }
    }

    /// An exact tile drawn from the canvas (`over`: its pixels drawn before, drawn over): its
    /// times counted, a top tile's pixels kept and written as its file, with the mark they show.
    func drew(_ key: ServedTiles.Key, _ image: Image, _ png: [UInt8], mark: ServedDrawing.Mark?, over: Bool,
              began: ContinuousClock.Instant, drawing: Duration) {
        renderTimes.append(ContinuousClock.now - began)
        if renderTimes.count > 256 { renderTimes.removeFirst(renderTimes.count - 256) }
        if over {
            figures.drawnOver += 1
            drawTimes.over.append(drawing)
        } else {
            drawTimes.whole.append(drawing)
        }
        for k in [\DrawTimes.over, \DrawTimes.whole] where drawTimes[keyPath: k].count > 256 { drawTimes[keyPath: k].removeFirst() }
        guard let mark else { return }
        previews.drew(key, image, mark: mark)
        pyramid.drew(key, png, mark: mark)
    }
}
