/// What is shown at one render frame: the one answer every output asks (single PNG frames,
/// `--frames` folders, videos, bakes, `stipple stamps`). A frame's image is its stroke
/// entries still shown after the script's undo, redo and clear entries that act by then,
/// each stamp aged by the clock frame (docs/reference.md §3, §12). Pure data, no GL.
public struct FrameState: Sendable, Equatable {
    /// The render frame (from 0).
    public var frame: Int
    /// The frame of the script's clock it shows: ages and touch times count on this clock.
    public var clockFrame: Int
    /// The stroke entries (`stamps` or `points`) shown, by their index among the script's
    /// stroke entries, in draw order.
    public var entries: [Int]

    /// A state showing `entries` at render frame `frame`, on the script's clock frame `clockFrame`.
    public init(frame: Int, clockFrame: Int, entries: [Int]) {
        self.frame = frame; self.clockFrame = clockFrame; self.entries = entries
    }

    /// The items (one a stroke entry: batches, layers) this frame shows, in draw order.
    public func shown<T>(_ items: [T]) -> [T] { entries.map { items[$0] } }
}

extension SessionTimeline {
    /// The state of render frame `n` for `count` stroke entries.
    package func state(atFrame n: Int, count: Int) -> FrameState {
        FrameState(frame: n, clockFrame: clockFrame(n), entries: shownEntries(count: count, atFrame: n))
    }
}

extension Scene {
    /// The state of render frame `n`: what it shows and on which clock frame.
    public func state(atFrame n: Int) -> FrameState {
        session.state(atFrame: n, count: batches.count)
    }

    /// The state of render frame `n` with live events: their strokes are stroke entries after
    /// the script's (indices from `batches.count`), their session entries follow the script's.
    package func state(atFrame n: Int, live: LiveFrame) -> FrameState {
        guard !live.layers.isEmpty || !live.ops.isEmpty else { return state(atFrame: n) }
        let timeline = SessionTimeline(ops: session.ops + live.ops, startFrame: session.startFrame)
        return timeline.state(atFrame: n, count: batches.count + live.layers.count)
    }
}

extension Renderer {
    /// Draws a frame's state from the scene's resident layers (`Scene.makeLayers`), plus
    /// `extra` layers drawn after them (live strokes), and reads it back.
    package func render(_ state: FrameState, layers: [LayerID], extra: [LayerID] = [], canvas: Canvas,
                       settings: RenderSettings, upload: UploadStrategy = .resident) throws -> Image {
        try renderLayers(state.shown(layers) + extra, canvas: canvas, frame: state.clockFrame,
                         settings: settings, upload: upload)
    }

    /// As `render(_:layers:...)`, premultiplied bytes as read back (for the compositor).
    package func renderPremultiplied(_ state: FrameState, layers: [LayerID], extra: [LayerID] = [],
                                     canvas: Canvas, settings: RenderSettings) throws -> [UInt8] {
        try renderLayersPremultiplied(state.shown(layers) + extra, canvas: canvas, frame: state.clockFrame,
                                      settings: settings)
    }
}
