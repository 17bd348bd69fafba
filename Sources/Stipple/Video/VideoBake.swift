import Foundation

/// A script baked into a video (docs/reference.md §11): frame n of the video is the background of the
/// script's frame n. The sketch is drawn alone on a transparent canvas by the renderer and
/// kept there between frames: a frame draws again, and reads back, only the boxes where it
/// changed (`KeptSketch`). Those boxes are converted to premultiplied Y′CbCr in the output's
/// matrix and range (`SketchPlanes`), and only the 16×16 tiles the sketch covers are blended
/// onto the frame's planes: samples no stamp touches are written exactly as read. A sketch
/// whose stamps age changes everywhere every frame: only the boxes it covers are read back,
/// and blended as they are (`PlaneCompositor`).
///
/// Frames stream: one frame is composited and written while the next is read on a thread of
/// its own (`FrameReadAhead`) and the renderer draws the next sketches on its own
/// (`sketchesAhead`), so memory stays a few frames however long the video.
///
/// Not `Sendable`: its settings and timings are unlocked state, so a bake stays with the
/// task that made it (the compiler holds every use to that).
public final class VideoBake {
    /// The script drawn over the video.
    public let scene: Scene
    /// The input video's header; the output has the same.
    public let header: Y4MHeader
    /// The colour conversion the sketch is composited with (matrix and range).
    public let conversion: YCbCrConversion
    /// Age effects and primitive the sketch is drawn with.
    public let settings: RenderSettings
    /// The renderer that draws the sketch.
    public let renderer: Renderer
    /// The render frames that may show a stamp.
    let timeline: SceneTimeline
    /// Where the last `run`'s time went, on the thread that reads, composites and writes.
    package private(set) var timings = BakeTimings()

    /// Loads `scriptPath` for a video with `header` (docs/reference.md §11): a script without a canvas
    /// takes the video's size; a canvas of another size, a canvas background, or an `fps`
    /// other than the video's rate is bad input naming both. `video` names the video.
    public static func loadScene(script scriptPath: String, header: Y4MHeader, video: String) throws -> Scene {
        try Scene(script: loadScript(script: scriptPath, header: header, video: video))
    }

    /// The script of `loadScene`, checked against the video, its fps the video's rate.
    public static func loadScript(script scriptPath: String, header: Y4MHeader, video: String) throws -> Script {
        var script = try Script.load(path: scriptPath,
                                     defaultCanvas: CanvasSpec(width: header.width, height: header.height))
        if script.canvasLocation != nil,
           script.canvas.width != header.width || script.canvas.height != header.height {
            throw InputError(file: scriptPath, location: script.canvas.sizeLocation,
                             "the canvas is \(script.canvas.width)×\(script.canvas.height) but the video \(video) is "
                             + "\(header.width)×\(header.height); leave \"canvas\" out to take the video's size")
        }
        if let at = script.canvas.backgroundLocation {
            throw InputError(file: scriptPath, location: at,
                             "a baked script has no canvas background: the video \(video) is the background")
        }
        if let at = script.fpsLocation {
            if abs(script.fps - header.fps) > header.fps * 1e-4 {
                throw InputError(file: scriptPath, location: at,
                                 "fps \(formatRate(script.fps)) differs from the video's rate "
                                 + "\(formatRate(header.fps)) (F\(header.rateNumerator):\(header.rateDenominator) in "
                                 + "\(video)); leave \"fps\" out to take the video's")
            }
        }
        // Touch times and session entries convert to frames at the video's exact rate.
        script.fps = header.fps
        script.retimeSession()
        try script.checkSession()
        return script
    }

    static func formatRate(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(format: "%.3f", v)
    }

    /// A bake of `scene` over frames described by `header`, drawn by `renderer`. `matrix`
    /// and `range` default to what players assume (BT.709 from 720 rows, else BT.601; the
    /// header's range, else limited). Throws when the scene does not fit the video or the driver.
    public init(scene: Scene, header: Y4MHeader, renderer: Renderer, matrix: ColorMatrix? = nil,
                range: ColorRange? = nil, primitive: Primitive = .points) throws {
        precondition(scene.canvas.width == header.width && scene.canvas.height == header.height)
        self.scene = scene
        self.header = header
        self.renderer = renderer
        conversion = YCbCrConversion(matrix: matrix ?? .default(forHeight: header.height),
                                     range: range ?? header.colorRange ?? .limited)
        settings = RenderSettings(effects: scene.effects, primitive: primitive)
        timeline = scene.timeline
        try scene.checkFits(renderer.info)
    }

    /// Hooks called before the sketch of frame n is drawn (live events); may add layers and
    /// session entries.
    /// Draw each frame's sketch again only where it changed, and a script with stroke layers
    /// only where they reach (the default); off, every frame is drawn whole (the two give
    /// the same bytes).
    package var keepsSketch = true
    /// Compose a frame whose stroke layers all act pixel by pixel on the CPU (the default);
    /// off, its passes run on the GPU. The two agree within the modes' 2 units.
    package var composesOnCPU = true
    /// The most bytes of stroke layers' drawings kept from frame to frame for the CPU; a
    /// frame whose layers need more is composed a tile at a time, to the same bytes.
    package var pixelLayerBudget = PixelLayerCache.defaultBudget
    /// How many frames of the last `run` were composed on the CPU that way.
    package private(set) var framesComposedOnCPU = 0
    /// The last `run`'s kept sketch: how much it drew again (the benchmark reports it).
    package private(set) var lastKept: KeptSketch?

    package typealias BeforeFrame = @Sendable (Int) async throws -> LiveFrame

    /// How many frames' sketches are drawn ahead of the frame being composited (at least 1):
    /// with 2, the renderer starts a sketch as soon as it finishes the one before, instead
    /// of when this thread takes that one. The same bytes either way.
    package var sketchesAhead = 2

    /// Reads every frame from `reader`, composites the sketch and writes it to `writer`. The
    /// scene's layers are made on the renderer for the run and freed when it ends.
    /// `extraLayers`, called before each frame's sketch is drawn, returns layers drawn after
    /// the script's (live strokes). `progress` gets the frames written so far. Returns the
    /// number of frames. The writer is not finished: the caller does that, or abandons it.
    ///
    /// `frames` bakes only those frames of the video: the reader's next frame is frame
    /// `readerAt` (a y4m reader is moved on to the first by `Y4MReader.skip`), and the first
    /// frame's state is built directly from the script and events, as the whole bake has it.
    ///
    /// The reader is read on a thread of its own, one frame ahead, and never past the last
    /// frame baked: once `run` returns it stands just after that frame. After `run` throws,
    /// that thread may still finish the read it was in: leave the reader alone.
    public func run(reader: Y4MReader, writer: Y4MWriter, frames: ClosedRange<Int>? = nil, readerAt: Int = 0,
                    progress: (Int) -> Void = { _ in }) async throws -> Int {
        try await run(reader: reader, writer: writer, extraLayers: nil, frames: frames, readerAt: readerAt,
                      progress: progress)
    }

    /// As `run(reader:writer:frames:readerAt:progress:)`, with live events' strokes and
    /// session entries (`stipple bake --events`) added before each frame.
    package func run(reader: Y4MReader, writer: Y4MWriter, extraLayers: BeforeFrame?,
                     frames: ClosedRange<Int>? = nil, readerAt: Int = 0,
                     progress: (Int) -> Void = { _ in }) async throws -> Int {
        // The script's layers are this run's: made for it, and freed when it ends.
        try await scene.withLayers(on: renderer) {
            try await run(layers: $0, reader: reader, writer: writer, extraLayers: extraLayers, frames: frames,
                          readerAt: readerAt, progress: progress)
        }
    }

    private func run(layers: [LayerID], reader: Y4MReader, writer: Y4MWriter, extraLayers: BeforeFrame?,
                     frames: ClosedRange<Int>?, readerAt: Int, progress: (Int) -> Void) async throws -> Int {
        let first = frames?.lowerBound ?? 0, last = frames?.upperBound ?? Int.max
        let canvas = Canvas(width: header.width, height: header.height)
        let (renderer, settings, timeline, scene) = (self.renderer, self.settings, self.timeline, self.scene)
        // Stroke layers read the frame: such a script is drawn over each frame by ModeBake instead.
        let modes = scene.hasStrokeLayers
            ? ModeBake(renderer: renderer, conversion: conversion, settings: settings, wholeFrames: !keepsSketch,
                       composesOnCPU: composesOnCPU, pixelLayers: PixelLayerCache(budget: pixelLayerBudget)) : nil
        if first > readerAt {
            // A "detect edges" stroke born before the first frame baked takes its reference from
            // the frame it is born on (or first drawn on, when an undo hides it then), as the
            // whole bake does: those frames are drawn, unwritten.
            let births = Set(scene.edgeBirthFrames.filter { $0 >= readerAt && $0 < first })
            var skipped = Y4MFrame(header: reader.header)
            var at = readerAt
            for birth in births.sorted() {
                try reader.skip(birth - at)
                guard try reader.read(into: &skipped) else { break }
                let live = try await extraLayers?(birth) ?? LiveFrame()
                let state = scene.state(atFrame: birth, live: live)
                try await modes?.apply(frame: state.clockFrame, layers: state.shown(layers + live.layers), to: &skipped)
                at = birth + 1
            }
            if first > at { try reader.skip(first - at) }
        }
        // The sketch stays on the GPU between frames: each frame draws and reads back only what
        // changed, and the sketch's Y′CbCr form here takes only those boxes.
        let kept = keepsSketch ? KeptSketch() : nil
        lastKept = kept
        var planes = kept.map { _ in SketchPlanes(header: header, conversion: conversion) }
        // A frame's sketch: what changed in the kept one, or the whole frame drawn again.
        enum Sketch: Sendable { case changed(SketchUpdate), whole([UInt8]?) }
        // Frame n's sketch is drawn once frame n − 1's is done (the kept sketch changes in
        // order, and live events are asked for in order), however far ahead of the frames
        // being composited it runs.
        func sketch(_ n: Int, after previous: Task<Sketch, Error>?) -> Task<Sketch, Error> {
            Task {
                _ = try? await previous?.value
                guard modes == nil else { return .whole(nil) }
                let live = try await extraLayers?(n) ?? LiveFrame()
                // The undo, redo and clear entries (the script's, then live ones) choose the
                // layers shown at frame n.
                let state = scene.state(atFrame: n, live: live)
                let shown = state.entries.isEmpty ? [] : state.shown(layers + live.layers)
                if let kept {
                    return .changed(try await renderer.renderKept(kept, layers: shown, canvas: canvas,
                                                                  frame: state.clockFrame, settings: settings))
                }
                guard !shown.isEmpty, timeline.mayShow(frame: n) || !live.layers.isEmpty else { return .whole(nil) }
                return .whole(try await renderer.renderPremultiplied(state, layers: layers + live.layers, canvas: canvas,
                                                                     settings: settings))
            }
        }
        var frame = Y4MFrame(header: reader.header)
        var n = first
        // Frame n + 1 is read on a thread of its own while frame n is composited and written.
        let input = FrameReadAhead(reader: reader, limit: last == Int.max ? Int.max : last - first + 1)
        timings = BakeTimings()
        // The sketches drawn ahead, oldest first: the renderer draws the next one while this
        // thread composites and writes (its work between two frames is more than one sketch's
        // wait on the driver).
        let depth = max(1, sketchesAhead)
        var sketches = [sketch(first, after: nil)]
        for k in 1..<depth where first <= last - k { sketches.append(sketch(first + k, after: sketches.last)) }
        func finishAhead() async { for task in sketches { _ = try? await task.value } }
        var clock = DispatchTime.now().uptimeNanoseconds
        func lap(_ phase: WritableKeyPath<BakeTimings, Double>) {
            let t = DispatchTime.now().uptimeNanoseconds
            timings[keyPath: phase] += Double(t - clock) / 1e9
            clock = t
        }
        do {
            while n <= last, try input.next(into: &frame) {
                lap(\.read)
                let sketched = try await sketches.removeFirst().value
                lap(\.waitingForRenderer)
                // Frames n + 1 … n + depth − 1 are drawing, or drawn: the next one after them.
                if n <= last - depth { sketches.append(sketch(n + depth, after: sketches.last)) }
                if let modes {
                    // Stroke layers read the frame: the shown entries and live strokes drawn over it.
                    let live = try await extraLayers?(n) ?? LiveFrame()
                    let state = scene.state(atFrame: n, live: live)
                    // Without live events, the next frame's layers are known now.
                    let ahead = extraLayers == nil && n < last ? scene.state(atFrame: n + 1) : nil
                    let next = ahead.map { ($0.clockFrame, $0.shown(layers)) }
                    try await modes.apply(frame: state.clockFrame, layers: state.shown(layers + live.layers), to: &frame,
                                          next: next)
                }
                switch sketched {
                case let .changed(update) where update.direct:
                    // Every pixel with ink is in the patches: each is blended as it was read.
                    for patch in update.patches {
                        PlaneCompositor.composite(patch.pixels, box: patch.box, premultiplied: true,
                                                  bottomUp: patch.bottomUp, over: &frame, conversion: conversion)
                    }
                case let .changed(update):
                    planes?.apply(update)
                    planes?.composite(over: &frame)
                case let .whole(pixels?):
                    PlaneCompositor.composite(pixels, width: canvas.width, height: canvas.height, premultiplied: true,
                                              over: &frame, conversion: conversion)
                case .whole(nil): break
                }
                lap(\.composite)
                try writer.write(frame)
                lap(\.write)
                n += 1
                timings.frames = n - first
                progress(n - first)
            }
        } catch {
            // The next sketches may be drawing: let them finish before the error ends the process
            // (exiting while the render thread is inside the driver can crash in its teardown).
            input.cancel()
            await finishAhead()
            if let kept { await renderer.endKept(kept) }
            await modes?.finish()
            throw error
        }
        input.finish()
        await finishAhead()
        if let kept { await renderer.endKept(kept) }
        await modes?.finish()
        framesComposedOnCPU = modes?.compositor.frames ?? 0
        return n - first
    }
}
