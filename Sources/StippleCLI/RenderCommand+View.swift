import ArgumentParser
import Foundation
import Stipple

/// `render --region/--scale/--size` and `render --pyramid` (docs/views.md).
extension RenderCommand {
    func renderView(_ scene: Scene) async throws {
        let n = frame ?? 0
        let (w, h) = (scene.canvas.width, scene.canvas.height)
        if let path = views.pyramid {
            let renderer = try makeRenderer()
            try checkTile(renderer)
            let layout = views.layout ?? .deepZoom
            let options = PyramidOptions(layout: layout, tileSize: views.tileSize, format: views.tileFormat ?? .png,
                                         quality: views.quality ?? 90, compression: compression, overwrite: overwrite)
            var progress: ProgressLine?
            if let shard, let part = FrameShardText.parse(shard) {
                let record = try await renderer.writePyramidPart(scene, frame: n, to: path, part: part.k, of: part.n, options: options,
                                                                 primitive: primitive, tile: tile) { done, count in
                    if progress == nil { progress = ProgressLine(total: count, label: "rendering bands of the pyramid's part") }
                    progress?.update(done)
                }
                return note("\(path): part \(part.k) of \(part.n) of frame \(n) of \(script), canvas rows \(record.rows[0])..<\(record.rows[1]), "
                            + "\(record.tiles) tiles; stipple pyramid-join \(path)\(layout == .xyz ? " --layout xyz" : "") finishes it once every part is written")
            }
            let summary = try await renderer.writePyramid(scene, frame: n, to: path, options: options, primitive: primitive,
                                                          tile: tile) { done, count in
                if progress == nil { progress = ProgressLine(total: count, label: "rendering bands of the pyramid") }
                progress?.update(done)
            }
            return note("\(summary.descriptor): frame \(n) of \(script), \(w)×\(h), \(summary.levels) levels, "
                        + "\(summary.tileCount) tiles (\(summary.bytes / 1024) KiB) in \(summary.tiles)/")
        }
        let r = try views.parsedRegion() ?? (0, 0, w, h)
        let view: View
        if let size = ink.size {
            let fit = try InkArguments.parseSize(size)
            view = try View(x: r.x, y: r.y, width: r.width, height: r.height, fitting: fit.width, fit.height,
                            canvasWidth: w, canvasHeight: h)
        } else {
            view = try View(x: r.x, y: r.y, width: r.width, height: r.height, scale: views.scale ?? 1,
                            canvasWidth: w, canvasHeight: h)
        }
        try checkOutput(output, notAnyOf: scene.inputFiles)
        guard OutputKind.pathExtension(output) == "png" else {
            throw ValidationError("a view is one PNG; -o names a .png file (got \(output)).")
        }
        let renderer = try makeRenderer()
        try checkTile(renderer)
        if views.preview {
            let image = try await renderer.renderPreview(scene, frame: n, view: view, primitive: primitive)
            try PNGFile.write(image, to: output, compression: Int32(compression))
        } else {
            try await renderer.writePNG(scene, frame: n, view: view, to: output, primitive: primitive, compression: compression)
        }
        note("\(output): frame \(n) of \(script), \(views.preview ? "preview" : "view") \(view.x),\(view.y),\(view.width),\(view.height) of \(w)×\(h) "
             + "at scale \(formatScale(view.scale)), \(view.outputWidth)×\(view.outputHeight), \(primitive.rawValue)")
    }

    /// `K/N`, checked in validate().
    private enum FrameShardText {
        static func parse(_ text: String) -> (k: Int, n: Int)? {
            let p = text.split(separator: "/").compactMap { Int($0) }
            return p.count == 2 ? (p[0], p[1]) : nil
        }
    }

    private func formatScale(_ s: Double) -> String {
        s == 1 ? "1" : String(format: "%.6g", s)
    }
}
