import Foundation

/// Undo, redo and clear on a live canvas (docs/reference.md §12, docs/sessions.md).
///
/// The newest steps stay as data: each stroke keeps its own resident layer, so undo only
/// leaves a layer out of the next frame and redo puts it back (no replay). Strokes that fall
/// off the undo depth move under the shown ones, into the backing layer: with maxAge 0 they are
/// baked into its surface in draw order, a few per frame; with maxAge > 0 nothing is baked —
/// they stay as data until their last stamp dies, and then their layer is freed.
extension LiveCanvas {
    /// Whether `undo` and `redo` have a step to take.
    public var canUndo: Bool { !session.history.undoSteps.isEmpty }
    /// True when a step was undone and can be redone.
    public var canRedo: Bool { !session.history.redoSteps.isEmpty }
    /// How many steps, and how many bytes of strokes, the session keeps as data.
    public var undoLimits: UndoLimits { session.limits }

    /// Takes back the newest `count` steps (strokes or clears). The image is then bit-identical
    /// to one where they were never made. Refused, changing nothing, when fewer steps are kept
    /// (older ones are baked into the backing layer) or while a stroke is open.
    public func undo(_ count: Int = 1) async throws {
        try checkNoOpenStroke("undo")
        let have = session.history.undoSteps.count
        guard count >= 1, count <= have else {
            let limits = session.limits
            let why = session.stepsDropped > 0
                ? "the canvas keeps its newest \(limits.steps) steps (and at most \(limits.bytes >> 20) MiB) as data; "
                    + "older strokes are baked into the backing layer and cannot be undone"
                : "nothing older has been drawn"
            throw SessionError("cannot undo \(count) step\(count == 1 ? "" : "s"): \(have) can be undone; \(why)")
        }
        for _ in 0..<count { _ = session.history.undo() }
        await reconcile()
    }

    /// Repeats the newest `count` undone steps: the image is bit-identical to never having
    /// undone them. Refused when fewer were undone since the last new stroke or clear.
    public func redo(_ count: Int = 1) async throws {
        try checkNoOpenStroke("redo")
        let have = session.history.redoSteps.count
        guard count >= 1, count <= have else {
            throw SessionError("cannot redo \(count) step\(count == 1 ? "" : "s"): \(have) can be redone "
                               + "(a new stroke or clear empties the redo list)")
        }
        for _ in 0..<count { _ = session.history.redo() }
        await reconcile()
    }

    /// Clears the canvas to its background, as one step that `undo` reverts.
    public func clear() async throws {
        try checkNoOpenStroke("clear")
        // What waits to be baked is baked first: the clear keeps the backing layer whole.
        try await bakeAll()
        session.history.clear()
        await enforceLimits()
    }

    /// What the session holds now.
    public var sessionStatistics: SessionStatistics {
        let h = session.history
        return SessionStatistics(
            undoSteps: h.undoSteps.count, redoSteps: h.redoSteps.count, keptStrokes: session.kept.count,
            keptBytes: session.kept.values.reduce(0) { $0 + $1.bytes },
            liveLayers: session.kept.values.filter { $0.layer != nil }.count,
            pendingBake: session.backing.below.count, strokesBaked: session.strokesBaked,
            strokesFreed: session.strokesFreed, stepsDropped: session.stepsDropped)
    }

    // MARK: the canvas's hooks

    func sessionBegan(_ id: StrokeID, layer: LayerID, brushKey: String, brush: Brush, style: StrokeStyle,
                      seedIndex: Int) async {
        session.kept[id.index] = KeptStroke(seedIndex: seedIndex, layer: layer, brushKey: brushKey, brush: brush,
                                            style: style)
        session.history.add(id.index)
        await enforceLimits()
    }

    func sessionEnded(_ id: StrokeID) async {
        session.kept[id.index]?.isOpen = false
        await enforceLimits()
    }

    /// The layers a frame draws, in order: those under the shown strokes, then the shown ones.
    var drawOrder: [LayerID] {
        (session.backing.below + session.history.shown).compactMap { session.kept[$0]?.layer }
    }

    /// The canvas a frame starts from: the backing layer's surface once something is baked.
    var frameCanvas: Canvas {
        guard let surface = session.backing.surface else { return canvas }
        return Canvas(width: canvas.width, height: canvas.height, background: surfaceBackground(surface))
    }

    // MARK: keeping within the limits

    /// Drops the oldest undo steps beyond the depth or the byte cap (never the newest), then
    /// moves what no step refers to any more into the backing layer, or frees it.
    func enforceLimits() async {
        let canvasBytes = canvas.width * canvas.height * 4
        while session.history.undoSteps.count > session.limits.steps
                || (session.history.undoSteps.count > 1 && session.undoBytes(canvasBytes: canvasBytes) > session.limits.bytes) {
            session.history.dropOldestStep()
            session.stepsDropped += 1
        }
        await reconcile()
    }

    /// Moves unreachable shown strokes under the rest, and frees strokes and backing layers
    /// that nothing can show again.
    func reconcile() async {
        let bakeable = session.history.takeBakeable()
        if !bakeable.isEmpty { session.backing.below += bakeable }
        let referenced = session.history.referenced
        let backings = session.history.referencedBackings
        for token in session.backings.keys where !backings.contains(token) {
            if let gone = session.backings.removeValue(forKey: token) {
                if let s = gone.surface { await removeSurface(s) }
                for i in gone.below { await free(i) }
            }
        }
        if session.backings[session.history.backing] == nil { session.backings[session.history.backing] = Backing() }
        let needed = Set(session.history.shown).union(referenced)
            .union(session.backings.values.flatMap(\.below))
        for i in session.kept.keys where !needed.contains(i) { await free(i) }
    }

    /// Forgets a stroke and frees its layer.
    func free(_ index: Int) async {
        guard let s = session.kept.removeValue(forKey: index) else { return }
        if let layer = s.layer { await renderer.removeLayer(layer) }
        session.strokesFreed += 1
    }

    private func checkNoOpenStroke(_ verb: String) throws {
        if let open = strokes.keys.map(\.index).min() {
            throw SessionError("cannot \(verb) while stroke \(open) is open: end it first")
        }
    }

    // MARK: the backing layer

    /// Run before each frame: bakes strokes waiting under the shown ones (maxAge 0), at most
    /// `bakeMilliseconds` of it (at least one stroke); with maxAge > 0, frees the layers of
    /// strokes whose stamps are all dead.
    func bakeSlice() async throws {
        let maxAge = settings.effects.maxAge
        if maxAge > 0 {
            let now = Float(frame)
            for (i, s) in session.kept where !s.isOpen && s.layer != nil && s.lastBirth + maxAge <= now {
                await renderer.removeLayer(s.layer!)
                session.kept[i]?.layer = nil
            }
            let below = session.backing.below
            let alive = below.filter { session.kept[$0]?.layer != nil }
            if alive.count != below.count {
                session.backing.below = alive
                for i in below where session.kept[i]?.layer == nil { await free(i) }
            }
            return
        }
        try await bake(budget: session.limits.bakeMilliseconds)
    }

    /// Bakes everything waiting (before a clear, a save, or to measure).
    public func bakeAll() async throws {
        guard settings.effects.maxAge == 0 else { return }
        try await bake(budget: .infinity)
    }

    /// Bakes waiting strokes, oldest first, into the backing surface, until `budget` ms have
    /// passed (at least one stroke). A stroke still open, or with stamps not yet born, waits —
    /// and so does everything after it, to keep the draw order.
    private func bake(budget: Double) async throws {
        // One at a time: another bake that started first ends before this one looks.
        await bakeEnded()
        let task = Task { try await self.bakeNow(budget: budget) }
        bakeInFlight = task
        defer { if bakeInFlight == task { bakeInFlight = nil } }
        try await task.value
    }

    /// Returns when no bake is running. (An ended one is forgotten here too: its own caller
    /// may resume after this one.)
    func bakeEnded() async {
        while let running = bakeInFlight {
            _ = try? await running.value
            if bakeInFlight == running { bakeInFlight = nil }
        }
    }

    private func bakeNow(budget: Double) async throws {
        guard LiveCanvas.canBake, session.bakeHolds == 0 else { return }
        let start = ContinuousClock.now
        let generation = session.generation
        var n = 0
        for i in session.backing.below {
            guard let s = session.kept[i], !s.isOpen, s.lastBirth <= Float(frame) else { break }
            if let layer = s.layer { try await bakeLayer(layer) }
            // Closed meanwhile: what this bake took is gone with the session.
            guard session.generation == generation else { return }
            n += 1
            if (ContinuousClock.now - start) >= .microseconds(Int64(min(budget, 1e9) * 1000)) { break }
        }
        guard n > 0 else { return }
        let done = session.backing.below.prefix(n)
        session.backing.below.removeFirst(n)
        for i in done { await free(i) }
        session.strokesBaked += n
    }
}
