import ArgumentParser
import Foundation
import Stipple

/// Whether `render --frames` writes a video (y4m file, a pipe, or a container through
/// ffmpeg) rather than a folder of PNGs.
func isVideoOutput(_ path: String) -> Bool {
    path == "-" || (path as NSString).pathExtension.lowercased() == "y4m" || FFmpegProcess.isContainer(path)
}

/// Renders `range` as a video: each frame (the canvas with its background, docs/reference.md §5) is
/// converted to Y'CbCr 4:2:0 by compositing it over black, so a transparent canvas shows
/// the sketch on black. The rate is the script's fps; the matrix the default for the height.
func renderVideo(_ scene: Scene, _ range: FrameRange, output path: String, renderer: Renderer,
                 settings: RenderSettings) async throws {
    signal(SIGPIPE, SIG_IGN)
    if path != "-" { try checkOutput(path, notAnyOf: scene.inputFiles) }
    let (num, den) = rate(scene.fps)
    let header = Y4MHeader(width: scene.canvas.width, height: scene.canvas.height,
                           rateNumerator: num, rateDenominator: den, chroma: .yuv420(tag: "420jpeg"))
    let conversion = YCbCrConversion(matrix: .default(forHeight: header.height), range: .limited)
    let output = try VideoOutput(path: path, header: header, conversion: conversion, audioFrom: nil)
    let progress = BakeProgress(total: range.count, label: "rendered")
    do {
        let layers = try await scene.makeLayers(on: renderer)
        let canvas = scene.canvas
        func image(_ n: Int) -> Task<Image, Error> {
            Task { try await renderer.renderLayers(layers, canvas: canvas, frame: n, settings: settings) }
        }
        var black = Y4MFrame(header: header)
        black.fill(y: UInt8(conversion.y(0, 0, 0)), cb: 128, cr: 128)
        var next = image(range.lower)
        do {
            for n in range.lower...range.upper {
                let sketch = try await next.value
                if n < range.upper { next = image(n + 1) }
                var frame = black
                PlaneCompositor.composite(sketch, over: &frame, conversion: conversion)
                try output.writer.write(frame)
                progress.update(n - range.lower + 1)
            }
        } catch {
            _ = try? await next.value  // never exit while the renderer is drawing
            throw error
        }
        try output.finish()
    } catch {
        output.abandon()
        throw output.explain(error)
    }
    progress.finish(frames: range.count, detail: "\(header.width)×\(header.height) 4:2:0 "
                    + "\(conversion.matrix.rawValue) \(conversion.range.rawValue) → \(path == "-" ? "stdout" : path)")
}

/// A frame rate as the fraction y4m writes: 30 → 30:1, 29.97 → 30000:1001.
func rate(_ fps: Double) -> (Int, Int) {
    if fps == fps.rounded() { return (Int(fps), 1) }
    let ntsc = fps * 1001 / 1000
    if abs(ntsc - ntsc.rounded()) < 1e-3 { return (Int(ntsc.rounded()) * 1000, 1001) }
    return (Int((fps * 1000).rounded()), 1000)
}
