import Synchronization

/// A video's sketch kept on the GPU between frames. A frame draws again only the parts of
/// the canvas that can differ from the last one — cells touched by stamps born (or
/// appended by a live stroke) since then, by the stamps of layers shown or hidden since
/// then (undo, redo, clear), and, when stamps age, by every stamp live then or now — each
/// part cleared and drawn with every shown stamp that reaches it, in draw order, so the
/// result is the full redraw's, byte for byte. Only those parts are read back — or, when
/// stamps age (every live one changes each frame), only the cells the stamps drawn now
/// touch, which the compositor blends directly.
///
/// The GPU target and what the last frame drew belong to the renderer (its `keptSketches`,
/// actor-isolated): only its render thread touches them. This handle names them and shows
/// the figures the last frame left; `Renderer.endKept` frees the target.
package final class KeptSketch: Sendable {
    /// What a kept sketch holds between frames, in its renderer.
    struct State {
        var target: Framebuffer?
        var layers: [LayerID] = []
        /// Each shown layer's stamp count after the last frame moved it on.
        var counts: [LayerID: Int] = [:]
        var frame = 0
        /// The cells the stamps drawn at `frame` touch, when stamps age (nil when unknown).
        var ink: DirtyCells?
        /// For frames that only add stamps: the cells each layer's stamps held by the target
        /// touch, for the layers the last such frame asked about (`heldCells`).
        var held: [LayerID: HeldCells] = [:]
        /// False after a frame sent whole for direct blending: the compositor's converted copy
        /// is behind, and the next frame that changes little is read back whole for it.
        var planesCurrent = false
        var figures = Figures()
    }

    /// The cells a layer's stamps `from..<count` touch, when stamps never age (a stamp's box
    /// is then the same at every frame, and a layer only grows): kept from frame to frame and
    /// marked only for the stamps added since. Stale when the layer was compacted since, or
    /// the canvas or the effects changed.
    struct HeldCells {
        var compactions: Int
        var effects: AgeEffects
        var from: Int, count: Int
        var cells: DirtyCells
    }

    /// Pixels drawn again, pixels read back, boxes and frames drawn so far (what the
    /// benchmark reports), the most boxes one frame drew, frames drawn whole for direct
    /// blending, and frames that only drew their new stamps over what the target held.
    package struct Figures: Sendable {
        var redrawnPixels = 0
        var readPixels = 0
        var boxesDrawn = 0
        var mostBoxes = 0
        var framesDrawn = 0
        var wholeFrames = 0
        var appendedFrames = 0
    }

    let id = KeptSketch.ids.add(1, ordering: .relaxed).newValue
    private static let ids = Atomic<Int>(0)
    private let published = Mutex(Figures())

    package var redrawnPixels: Int { published.withLock { $0.redrawnPixels } }
    package var readPixels: Int { published.withLock { $0.readPixels } }
    package var boxesDrawn: Int { published.withLock { $0.boxesDrawn } }
    package var mostBoxes: Int { published.withLock { $0.mostBoxes } }
    package var framesDrawn: Int { published.withLock { $0.framesDrawn } }
    package var wholeFrames: Int { published.withLock { $0.wholeFrames } }
    package var appendedFrames: Int { published.withLock { $0.appendedFrames } }

    package init() {}

    /// The most rectangles the cells of a frame that only adds stamps merge into before the
    /// grid coarsens: the cells it changed (read back) and those it draws again (where a new
    /// stamp lies under a stamp of a later layer). Each costs a read-back or a pass; a coarser
    /// grid costs the pixels it adds, read and converted or drawn again, and can tip the frame
    /// over a third of the canvas, drawn whole. Strokes drawn at the same time scatter each
    /// frame's new stamps over the canvas: at 32, 60 such strokes on 1280×720 had 180 of 205
    /// frames drawn whole; at 128, one.
    static let appendingBoxLimit = 128
    /// The same for a frame whose boxes are each cleared and drawn with every stamp that
    /// reaches them (stamps that age, layers shown or hidden): a pass a box. There the passes
    /// cost more than the pixels a coarser grid adds: a dissolving sketch on 1280×720 baked in
    /// 2.0 s at 32 and in 2.3 s at 128.
    static let drawnBoxLimit = 32

    fileprivate func publish(_ figures: Figures) { published.withLock { $0 = figures } }
}

/// What a frame of a video's sketch changed: boxes of the canvas and their new pixels.
struct SketchUpdate: Sendable {
    /// A box and its pixels: premultiplied RGBA, `box.width` a row, rows top to bottom,
    /// or bottom to top when `bottomUp` (as GL reads them).
    struct Patch: Sendable {
        var box: PixelBox
        var pixels: [UInt8]
        var bottomUp: Bool
    }

    /// True when every pixel outside the patches is transparent now; otherwise pixels outside
    /// the patches are as they were.
    var replacesAll: Bool
    var patches: [Patch]
    /// True when the patches hold every pixel of the sketch that is not transparent (the
    /// whole canvas when most of it changed, or the boxes its stamps cover now when every
    /// stamp changes each frame): blending them directly costs less than converting them
    /// first. The converted copy is then behind, and the next update that is not direct
    /// replaces all of it.
    var direct = false

    static let unchanged = SketchUpdate(replacesAll: false, patches: [])
}

extension Renderer {
    /// Frame `frame` of `ids` over a transparent `canvas`, as the change since `kept` last
    /// drew. Stroke layers (brush modes) and image backgrounds draw whole frames.
    func renderKept(_ handle: KeptSketch, layers ids: [LayerID], canvas: Canvas, frame: Int,
                    settings: RenderSettings) throws -> SketchUpdate {
        var kept = keptSketches[handle.id] ?? KeptSketch.State()
        defer { keptSketches[handle.id] = kept; handle.publish(kept.figures) }
        return try renderKept(&kept, layers: ids, canvas: canvas, frame: frame, settings: settings)
    }

    /// Frees a kept sketch's target: after its video's last frame.
    func endKept(_ handle: KeptSketch) {
        keptSketches.removeValue(forKey: handle.id)?.target.map(device.deleteTarget)
    }

    /// Kept sketches this renderer holds (each a canvas-sized target).
    package var keptSketchCount: Int { keptSketches.count }

    private func renderKept(_ kept: inout KeptSketch.State, layers ids: [LayerID], canvas: Canvas, frame: Int,
                            settings: RenderSettings) throws -> SketchUpdate {
        let whole = PixelBox(x0: 0, y0: 0, x1: canvas.width, y1: canvas.height)
        let shown = try ids.map { id -> StampLayer in
            guard let l = self.layers[id] else { throw RenderError("\(id) does not exist") }
            return l
        }
        guard case let .color(color) = canvas.background, !FramePasses(modes: shown.lazy.map { $0.mode }).hasLayers else {
            kept.target.map(device.deleteTarget)
            kept.target = nil
            kept.ink = nil
            kept.planesCurrent = false
            let pixels = try renderLayersPremultiplied(ids, canvas: canvas, frame: frame, settings: settings)
            return SketchUpdate(replacesAll: true, patches: [.init(box: whole, pixels: pixels, bottomUp: false)], direct: true)
        }
        let fill = color.premultipliedRGBA8
        var boxes = [whole]
        var changed: DirtyCells?
        var replacesAll = true
        // The boxes the stamps cover now, when every one changes each frame (they age).
        var ink: [PixelBox]?
        if let t = kept.target, t.width == canvas.width, t.height == canvas.height, frame >= kept.frame,
           let cells = changedCells(kept, shown: ids, canvas: canvas, frame: frame, effects: settings.effects) {
            changed = cells.changed
            // Boxes cost a read each, but every pixel left out is neither copied nor scanned.
            ink = cells.ink?.boxes(limit: 64)
            kept.ink = cells.ink
            replacesAll = false
        } else {
            kept.target.map(device.deleteTarget)
            kept.ink = settings.effects.maxAge > 0 ? inkCells(ids, canvas: canvas, frame: frame, effects: settings.effects) : nil
            ink = kept.ink?.boxes(limit: 64)
            kept.target = try device.makeKeptTarget(width: canvas.width, height: canvas.height,
                                                    guardBand: guardBand(for: canvas), fill: fill)
        }
        let appended = replacesAll ? nil : appendedStamps(&kept, shown: ids, canvas: canvas, frame: frame,
                                                          effects: settings.effects)
        // A frame that only adds stamps draws them in their windows and reads its changed boxes
        // back: those may be many. Otherwise each box is drawn with every stamp that reaches it.
        if let changed { boxes = changed.boxes(limit: appended == nil ? KeptSketch.drawnBoxLimit : KeptSketch.appendingBoxLimit) }
        let chosen = try resolve(ids, frame: frame, effects: settings.effects)
        kept.layers = ids
        kept.frame = frame
        var counts = [LayerID: Int](minimumCapacity: ids.count)
        for (id, layer) in zip(ids, chosen) where counts[id] == nil { counts[id] = layer.stamps.count }
        kept.counts = counts
        guard let target = kept.target else { return .unchanged }
        // When a third of the canvas or more changed, one pass draws it all, and the
        // compositor blends what is read back directly: the whole canvas, or only the boxes
        // with ink when those are known. When every stamp changes each frame, the ink's boxes
        // are read back and blended directly whatever was drawn.
        let drawsWhole = boxes.reduce(0) { $0 + $1.width * $1.height } * 3 >= canvas.width * canvas.height
        if drawsWhole { boxes = [whole] }
        let direct = drawsWhole || ink != nil
        // The compositor's copy is behind: it takes the whole canvas this time.
        let read = ink ?? (direct || !kept.planesCurrent ? [whole] : boxes)
        kept.planesCurrent = !direct
        if boxes.isEmpty && !direct && read.isEmpty { return .unchanged }
        if let appended {
            // The new stamps drawn over the target as it is; then, where one of them lies
            // under a stamp of a later layer drawn before, the box cleared and drawn whole.
            if !boxes.isEmpty {
                device.bind(target)
                try drawResident(chosen, canvas: canvas, frame: frame, settings: settings, into: target,
                                 only: appended.windows)
            }
            kept.figures.appendedFrames += 1
            boxes = appended.redrawn.isEmpty ? [] : appended.redrawn.boxes(limit: KeptSketch.appendingBoxLimit)
        }
        for box in boxes {
            if box == whole {
                // The whole canvas: the driver's fast clear of the whole target, and no scissor.
                try device.fill(target, with: .color(fill.0, fill.1, fill.2, fill.3))
                try drawResident(chosen, canvas: canvas, frame: frame, settings: settings, into: target)
                continue
            }
            device.beginKeptDraw(target, box: (box.x0, box.y0, box.x1, box.y1), fill: fill)
            defer { device.endKeptDraw() }
            try drawResident(chosen, canvas: canvas, frame: frame, settings: settings, into: target, scissored: true,
                             within: box)
        }
        let patches = try read.map {
            SketchUpdate.Patch(box: $0, pixels: try device.readKept(target, box: ($0.x0, $0.y0, $0.x1, $0.y1)),
                               bottomUp: true)
        }
        kept.figures.redrawnPixels += boxes.reduce(0) { $0 + $1.width * $1.height }
        kept.figures.readPixels += read.reduce(0) { $0 + $1.width * $1.height }
        kept.figures.boxesDrawn += boxes.count
        kept.figures.mostBoxes = max(kept.figures.mostBoxes, boxes.count)
        kept.figures.framesDrawn += 1
        if drawsWhole { kept.figures.wholeFrames += 1 }
        return SketchUpdate(replacesAll: replacesAll || read == [whole], patches: patches, direct: direct)
    }
}
