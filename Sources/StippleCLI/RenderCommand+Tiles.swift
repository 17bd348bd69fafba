import ArgumentParser
import Foundation
import Stipple

/// `render` for canvases drawn in tiles (larger than the driver's limit, larger than
/// Renderer.onePassPixels, or --tile): each frame is drawn one band of tiles at a time and
/// its rows go to the PNG as each band is done, so memory holds one band, never the image.
extension RenderCommand {
    /// True when this run draws `scene` in tiles.
    func drawsInTiles(_ scene: Scene, _ renderer: Renderer) -> Bool {
        renderer.needsTiles(scene.canvas, batches: scene.batches, tile: tile)
    }

    /// Draws frame `n` in tiles and streams it to `path`, whole or not at all; with
    /// `showBands`, a progress line counts the bands.
    func renderTiledPNG(_ scene: Scene, frame n: Int, to path: String, renderer: Renderer,
                        settings: RenderSettings, exclusive: Bool, showBands: Bool) async throws {
        var progress: ProgressLine?
        try await renderer.writePNG(scene, frame: n, to: path, primitive: settings.primitive, tile: tile,
                                    compression: compression, exclusive: exclusive, durable: frames == nil) { done, count in
            guard showBands else { return }
            if progress == nil { progress = ProgressLine(total: count, label: "rendering bands of tiles") }
            progress?.update(done)
        }
    }

    /// `--tile N` is at most what the driver holds (`stipple info`'s largest canvas side).
    func checkTile(_ renderer: Renderer) throws {
        guard let tile else { return }
        let side = renderer.info.maxCanvasSide, most = min(side.width, side.height)
        guard tile <= most else {
            throw ValidationError("--tile \(tile) is larger than this driver holds: a tile is at most \(most) pixels a side here "
                                  + "(see 'stipple info').")
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
