/// A bake's frames when the script has stroke layers (docs/brush-modes.md, "Baking"): the
/// frame's colour is the canvas's background, the script is drawn over it as `render`
/// draws it (plain entries composited first, each stroke layer reading what is below it),
/// and the result is laid over the frame as read and written back to the planes.
///
/// Only the boxes the frame's layers can change are converted, drawn and written
/// (`Renderer.modeBakeBoxes`): each is converted from the planes to R′G′B′ in fixed point,
/// filled into a target the renderer keeps from frame to frame, drawn over and read back.
/// A pixel the drawing leaves exactly as it was keeps its samples exactly as read (for
/// 4:2:0 chroma: a sample whose 2×2 block is unchanged). An erase stroke removes sketch
/// paint and reveals the video under it: what is drawn is composited over the frame, so an
/// eraser cannot make the video itself transparent.
struct ModeBake {
    let renderer: Renderer
    let conversion: YCbCrConversion
    let settings: RenderSettings
    /// Every frame drawn and converted whole instead of only where its layers reach (the
    /// two give the same bytes).
    var wholeFrames = false
    /// Frames whose layers all act pixel by pixel are composed on the CPU from each layer's
    /// drawing (`PixelLayerCompositor`), whatever their size: the frame's layers alone choose
    /// the executor. Off (tests and the benchmark compare the two), every frame's passes run
    /// on the GPU; the two agree within the 2 units of the modes' accuracy, not to the byte.
    var composesOnCPU = true
    let kept = ModeBakeTarget()
    var pixelLayers = PixelLayerCache()
    let compositor = PixelLayerCompositor()
    /// The next frame's layers for the CPU, drawn while this frame is composed.
    private let ahead = Ahead()

    // Unchecked: the bake's loop alone reads and replaces it, a frame at a time; the task it holds is awaited
    // before it is replaced.
    private final class Ahead: @unchecked Sendable {
        var frame = 0, layers: [LayerID] = []
        var task: Task<PixelLayerFrame?, Error>?
    }

    /// Draws `layers` (the script's shown at clock frame `n`, then any live strokes) over
    /// `frame` (decoded planes), in place. A "detect edges" layer keeps the reference it
    /// reads the first time its first stamp is drawn: from the frame it is born on.
    ///
    /// `next`, when the caller knows it, is the next frame drawn and its layers: a frame
    /// composed on the CPU has the GPU draw those layers meanwhile. (Never after a frame
    /// drawn on the GPU: that frame's layers must not move on to the next frame before it.)
    func apply(frame n: Int, layers: [LayerID], to frame: inout Y4MFrame, next: (Int, [LayerID])? = nil) async throws {
        let (w, h) = (frame.header.width, frame.header.height)
        if composesOnCPU {
            let drawn: PixelLayerFrame?
            if let task = ahead.task, ahead.frame == n, ahead.layers == layers {
                ahead.task = nil
                drawn = try await task.value
            } else {
                try await finishAhead()
                drawn = try await renderer.pixelLayers(layers, frame: n, settings: settings, width: w, height: h,
                                                       cache: pixelLayers)
            }
            switch drawn {
            case .whole(let drawn):
                if let (f, ids) = next {
                    let (renderer, settings, cache) = (self.renderer, self.settings, self.pixelLayers)
                    (ahead.frame, ahead.layers) = (f, ids)
                    ahead.task = Task {
                        try await renderer.pixelLayers(ids, frame: f, settings: settings, width: w, height: h, cache: cache)
                    }
                }
                compositor.apply(drawn, to: &frame, conversion)
                return
            case .tiles(let tiles):
                for (i, tile) in tiles.enumerated() {
                    let drawn = try await renderer.pixelLayers(layers, in: tile, frame: n, settings: settings, width: w,
                                                               height: h, cache: pixelLayers)
                    compositor.apply(drawn, to: &frame, conversion, startsFrame: i == 0)
                }
                return
            case nil: break
            }
        }
        let boxes = wholeFrames ? [PixelBox(x0: 0, y0: 0, x1: w, y1: h)]
            : try await renderer.modeBakeBoxes(layers, width: w, height: h, frame: n, effects: settings.effects)
        guard !boxes.isEmpty else { return }
        let rgb = YCbCrToRGB(conversion)
        let video = boxes.map { rgb.pixels(of: frame, box: $0) }
        var drawn = try await renderer.renderModeBoxes(kept, layers: layers, width: w, height: h, frame: n,
                                                       settings: settings, boxes: boxes, pixels: video)
        for i in boxes.indices {
            ModeBake.write(&drawn[i], over: video[i], box: boxes[i], into: &frame, conversion)
        }
    }

    /// Frees the renderer's target once the bake is over.
    func finish() async {
        try? await finishAhead()
        await renderer.release(kept)
        await renderer.release(pixelLayers)
    }

    /// Waits for layers drawn ahead for a frame that did not come.
    private func finishAhead() async throws {
        guard let task = ahead.task else { return }
        ahead.task = nil
        _ = try await task.value
    }

    /// Lays `drawn` (premultiplied, the box's bottom row first) over `video` (the box's
    /// opaque R′G′B′ in the same order) and writes the pixels that changed back to the
    /// planes; the others keep their samples as read. `drawn` is used as scratch: it ends
    /// holding the composited colour, with alpha 1 where a pixel changed and 0 where not.
    ///
    /// The box's corners are even (or the frame's edge), so a 4:2:0 chroma block lies wholly
    /// in or out of it.
    static func write(_ drawn: inout [UInt8], over video: [UInt8], box: PixelBox, into frame: inout Y4MFrame,
                      _ c: YCbCrConversion) {
        let h = frame.header
        let (bw, bh) = (box.width, box.height)
        precondition(drawn.count == bw * bh * 4 && video.count == drawn.count, "a box's pixels")
        let sub = h.chroma == .yuv444 ? 1 : 2
        let (yOffset, cbOffset, crOffset) = (frame.yOffset, frame.cbOffset, frame.crOffset)
        drawn.withUnsafeMutableBufferPointer { d in
            video.withUnsafeBufferPointer { v in
                // Composite and mark: `d + (v·(255 − a) + 127) / 255`, exact, as a multiply and shifts.
                var i = 0
                while i < d.count {
                    let a = UInt32(d[i + 3])
                    if a == 255 {
                        d[i + 3] = (d[i] != v[i] || d[i + 1] != v[i + 1] || d[i + 2] != v[i + 2]) ? 1 : 0
                    } else {
                        var same = true
                        for k in 0..<3 {
                            let t = UInt32(v[i + k]) &* (255 &- a) &+ 127
                            let o = min(UInt32(d[i + k]) &+ ((t &+ (t >> 8) &+ 1) >> 8), 255)
                            d[i + k] = UInt8(o)
                            same = same && d[i + k] == v[i + k]
                        }
                        d[i + 3] = same ? 0 : 1
                    }
                    i += 4
                }
            }
            frame.bytes.withUnsafeMutableBufferPointer { p in
                // Pixel (x, y) of the box (canvas coordinates) in `d`, whose rows run bottom up.
                @inline(__always) func at(_ x: Int, _ y: Int) -> Int { ((box.y1 - 1 - y) * bw + (x - box.x0)) * 4 }
                for y in box.y0..<box.y1 {
                    var o = at(box.x0, y)
                    for x in box.x0..<box.x1 {
                        if d[o + 3] != 0 {
                            p[yOffset + y * h.width + x] = UInt8(c.y(Int32(d[o]), Int32(d[o + 1]), Int32(d[o + 2])))
                        }
                        o += 4
                    }
                }
                for cy in (box.y0 / sub)..<((box.y1 + sub - 1) / sub) {
                    for cx in (box.x0 / sub)..<((box.x1 + sub - 1) / sub) {
                        var (r, g, b, n, any) = (0, 0, 0, 0, false)
                        for y in (cy * sub)..<min(cy * sub + sub, h.height) {
                            for x in (cx * sub)..<min(cx * sub + sub, h.width) {
                                let o = at(x, y)
                                any = any || d[o + 3] != 0
                                r += Int(d[o]); g += Int(d[o + 1]); b += Int(d[o + 2]); n += 1
                            }
                        }
                        guard any else { continue }
                        let (ar, ag, ab) = (Int32((r + n / 2) / n), Int32((g + n / 2) / n), Int32((b + n / 2) / n))
                        let ci = cy * h.chromaWidth + cx
                        p[cbOffset + ci] = UInt8(c.cb(ar, ag, ab))
                        p[crOffset + ci] = UInt8(c.cr(ar, ag, ab))
                    }
                }
            }
        }
    }
}
