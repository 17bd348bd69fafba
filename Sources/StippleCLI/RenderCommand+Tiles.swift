import Foundation
import Stipple

/// `render` for canvases drawn in tiles (larger than the driver's limit, larger than
/// Renderer.onePassPixels, or --tile): each frame is drawn one band of tiles at a time and
/// its rows go to the PNG as each band is done, so memory holds one band, never the image.
extension RenderCommand {
    /// True when this run draws `scene` in tiles.
    func drawsInTiles(_ scene: Scene, _ renderer: Renderer) -> Bool {
        renderer.needsTiles(scene.canvas, tile: tile)
    }

    /// Draws frame `n` in tiles and streams it to `path`, whole or not at all; with
    /// `showBands`, a progress line counts the bands.
    func renderTiledPNG(_ scene: Scene, frame n: Int, to path: String, renderer: Renderer,
                        settings: RenderSettings, exclusive: Bool, showBands: Bool) async throws {
        let tiled = try await renderer.planTiles(scene, frame: n, primitive: settings.primitive, tile: tile)
        let progress = showBands ? ProgressLine(total: tiled.bandCount, label: "rendering bands of tiles") : nil
        let writer = try PNGBandWriter(path: path, width: scene.canvas.width, height: scene.canvas.height,
                                       compression: Int32(compression), exclusive: exclusive)
        // The next band is drawn on the render thread while this one is encoded here: two
        // bands in memory at most.
        var next: Task<[UInt8], Error>? = Task { try await renderer.renderBand(tiled, 0) }
        do {
            for band in 0..<tiled.bandCount {
                var rows = try await next!.value
                next = band + 1 < tiled.bandCount ? Task { try await renderer.renderBand(tiled, band + 1) } : nil
                try writer.write(premultiplied: &rows)
                progress?.update(band + 1)
            }
            try writer.finish(durable: frames == nil)
        } catch {
            if let next { _ = try? await next.value }
            writer.abandon()
            throw error
        }
    }

    /// One frame to -o, in tiles, with a progress line on stderr for the bands.
    func renderTiledFrame(_ scene: Scene, frame n: Int, renderer: Renderer, settings: RenderSettings) async throws {
        try await renderTiledPNG(scene, frame: n, to: output, renderer: renderer, settings: settings,
                                 exclusive: false, showBands: true)
    }

    /// `--frames` in tiles: frame after frame, each streamed to its file. A run that fails
    /// removes the frames it wrote.
    func renderTiledFrames(_ scene: Scene, _ sequence: FrameSequence, renderer: Renderer,
                           settings: RenderSettings) async throws {
        let progress = ProgressLine(total: sequence.frames.count, label: "rendering frames in tiles")
        var written: [String] = []
        do {
            for (i, n) in sequence.frames.enumerated() {
                let path = sequence.path(of: n)
                try await renderTiledPNG(scene, frame: n, to: path, renderer: renderer, settings: settings,
                                         exclusive: !overwrite, showBands: false)
                written.append(path)
                progress.update(i + 1)
            }
        } catch {
            for path in written { unlink(path) }
            throw error
        }
    }
}
