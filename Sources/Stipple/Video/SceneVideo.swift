import Foundation

/// A script's frames as a video (`stipple render --frames … -o OUT.y4m`): each frame's state
/// (`FrameState`: stroke entries shown after undo, redo and clear, ages at its clock frame)
/// is drawn with the canvas and its background, then converted to Y'CbCr 4:2:0 by
/// compositing it over black, so a transparent canvas shows the sketch on black. The rate
/// is the script's fps; the matrix the default for the height, limited range.
///
/// The renderer draws frame n + 1 while frame n is converted and written.
public struct SceneVideo: Sendable {
    /// The scene whose frames are written.
    public let scene: Scene
    /// Age effects and primitive the frames are drawn with.
    public let settings: RenderSettings
    /// The video's header: the canvas's size, the script's frame rate, 4:2:0.
    public let header: Y4MHeader
    /// The colour conversion the frames are written with.
    public let conversion: YCbCrConversion

    /// A video of `scene` drawn with `settings`.
    public init(scene: Scene, settings: RenderSettings) {
        self.scene = scene
        self.settings = settings
        let (num, den) = SceneVideo.rate(scene.fps)
        header = Y4MHeader(width: scene.canvas.width, height: scene.canvas.height,
                           rateNumerator: num, rateDenominator: den, chroma: .yuv420(tag: "420jpeg"))
        conversion = YCbCrConversion(matrix: .default(forHeight: header.height), range: .limited)
    }

    /// Writes `frames` to `writer` (not finished: the caller finishes or abandons it).
    /// `progress` gets the number of frames written so far. The scene's layers are made on
    /// `renderer` for the run and freed when it ends.
    public func run(frames: ClosedRange<Int>, renderer: Renderer, writer: Y4MWriter,
                    progress: (Int) -> Void = { _ in }) async throws {
        // The scene's layers are this run's: made for it, and freed when it ends.
        try await scene.withLayers(on: renderer) {
            try await run(layers: $0, frames: frames, renderer: renderer, writer: writer, progress: progress)
        }
    }

    private func run(layers: [LayerID], frames: ClosedRange<Int>, renderer: Renderer, writer: Y4MWriter,
                     progress: (Int) -> Void) async throws {
        // "Detect edges" strokes take the scene's references: a part starting after a
        // stroke's birth draws it as the whole video does.
        try await renderer.presetEdgeReferences(scene, layers: layers, primitive: settings.primitive)
        let (scene, settings, canvas) = (self.scene, self.settings, self.scene.canvas)
        func image(_ n: Int) -> Task<Image, Error> {
            Task { try await renderer.render(scene.state(atFrame: n), layers: layers, canvas: canvas, settings: settings) }
        }
        var black = Y4MFrame(header: header)
        black.fill(y: UInt8(conversion.y(0, 0, 0)), cb: 128, cr: 128)
        var next = image(frames.lowerBound)
        do {
            for n in frames {
                let sketch = try await next.value
                if n < frames.upperBound { next = image(n + 1) }
                var frame = black
                PlaneCompositor.composite(sketch, over: &frame, conversion: conversion)
                try writer.write(frame)
                progress(n - frames.lowerBound + 1)
            }
        } catch {
            _ = try? await next.value  // never exit while the renderer is drawing
            throw error
        }
    }

    /// A frame rate as the fraction y4m writes: 30 → 30:1, 29.97 → 30000:1001.
    public static func rate(_ fps: Double) -> (Int, Int) {
        if fps == fps.rounded() { return (Int(fps), 1) }
        let ntsc = fps * 1001 / 1000
        if abs(ntsc - ntsc.rounded()) < 1e-3 { return (Int(ntsc.rounded()) * 1000, 1001) }
        return (Int((fps * 1000).rounded()), 1000)
    }
}
