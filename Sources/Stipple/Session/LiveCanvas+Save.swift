import Foundation

/// Saving a live canvas as a script, and opening one (docs/reference.md §12, docs/sessions.md).
extension LiveCanvas {
    /// Writes the drawing to `path` (a script, docs/reference.md §9) and PNGs beside it: the backing layer
    /// as the background, the strokes kept as data as `points` entries, `startFrame` the
    /// current frame. `stipple render` of it gives this canvas's current frame, bit for bit.
    ///
    /// Only the snapshot — one read-back of the backing layer — runs on the render thread;
    /// PNG encoding, the script and the atomic writes run on another thread while frames go
    /// on (this call suspends, and the canvas keeps serving strokes and frames meanwhile).
    /// A failure throws an `InputError` naming the file and the cause, and leaves the previous
    /// save whole.
    public func save(to path: String) async throws {
        try await LiveCanvas.write(try await snapshot(), to: path)
    }

    /// The part of a save off the render thread: PNG encoding and the atomic writes, on the
    /// save queue.
    package static func write(_ snapshot: SavedDrawing, to path: String) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, Error>) in
            LiveCanvas.saveQueue.async {
                do { try snapshot.write(to: path); done.resume() } catch { done.resume(throwing: error) }
            }
        }
    }

    /// Opens a saved drawing (or any script whose shown entries are `points` strokes): its
    /// background becomes the canvas's, its strokes are drawn again as they were and can be
    /// undone, up to `limits`; the clock starts at its `startFrame`.
    public init(loading path: String, renderer: Renderer, undo limits: UndoLimits = UndoLimits()) async throws {
        try await self.init(loading: path, renderer: renderer, upload: .resident, undo: limits)
    }

    /// As above, with the way ages reach the GPU chosen (the benchmark measures both).
    package init(loading path: String, renderer: Renderer, upload: UploadStrategy,
                 undo limits: UndoLimits = UndoLimits()) async throws {
        let script = try Script.load(path: path)
        let scene = try Scene(script: script)
        let shown = script.session.state(atFrame: 0, count: script.draw.count).entries
        for i in shown where script.draw[i].stroke == nil {
            throw InputError(file: path, location: script.draw[i].location,
                             "a live canvas opens strokes (points entries) only; this draw entry is stamps")
        }
        self.init(renderer: renderer, canvas: scene.canvas, settings: RenderSettings(effects: scene.effects),
                  fps: script.fps, seed: script.seed, upload: upload, undo: limits)
        start(at: script.session.startFrame)
        for i in shown {
            let stroke = script.draw[i].stroke!, batch = scene.batches[i]
            let id = await beginStroke(brushKey: batch.brushKey, brush: batch.brush, style: stroke.style,
                                       seedIndex: stroke.index)
            for sample in stroke.samples { try await add(sample, to: id) }
            try await endStroke(id)
        }
    }

    private func start(at frame: Int) { self.frame = frame }

    /// Encoding and writing saves: Dispatch's threads, not Swift's cooperative pool (see `FrameSequence`).
    static let saveQueue = DispatchQueue(label: "stipple.session-save", qos: .utility)

    /// What a save writes, taken at one instant: baking is held while the backing layer is
    /// read back, so no stroke is both in the image and in the list.
    package func snapshot() async throws -> SavedDrawing {
        // A bake already drawing would go on after the hold.
        await bakeEnded()
        let order = session.backing.below + session.history.shown
        let strokes = order.compactMap { i -> SavedDrawing.Stroke? in
            guard let s = session.kept[i] else { return nil }
            return SavedDrawing.Stroke(brushKey: s.brushKey, brush: s.brush, style: s.style, samples: s.samples,
                                       seedIndex: s.seedIndex)
        }
        if let open = strokes.indices.first(where: { session.kept[order[$0]]?.isOpen == true }) {
            throw SessionError("cannot save while stroke \(order[open]) is open: end it first")
        }
        session.bakeHolds += 1
        defer { session.bakeHolds -= 1 }
        let background = try await backingSnapshot()
        return SavedDrawing(width: canvas.width, height: canvas.height, background: background, fps: fps, seed: seed,
                            effects: settings.effects, startFrame: frame, strokes: strokes)
    }
}
