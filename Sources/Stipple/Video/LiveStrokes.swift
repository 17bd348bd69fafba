/// Touch events turned into strokes on a renderer while a video is baked: each stroke is a
/// resident layer drawn after the script's, its stamps built as samples arrive (the same
/// `StrokeBuilder` as a script's `points`, so a stroke sent as events draws the stamps it
/// would as a `points` entry with the same samples and index).
// Unchecked: the bake calls it once a frame, one frame after another, from the one task that runs the bake.
package final class LiveStrokes: @unchecked Sendable {
    let events: EventStream
    let renderer: Renderer
    let fps: Double
    let seed: UInt64
    /// Brushes by name, with their texture keys (as `Scene` keys them, so textures are shared).
    let brushes: [String: (key: String, brush: Brush)]
    /// Strokes number after the script's own, for their dissolve angles.
    let firstIndex: Int
    private var open: [Int: (builder: StrokeBuilder, layer: LayerID)] = [:]
    private var order: [LayerID] = []
    private var ops: [SessionOp] = []

    package init(events: EventStream, script: Script, renderer: Renderer) throws {
        self.events = events
        self.renderer = renderer
        fps = script.touchRate  // touch times to frames (a timelapse plays them faster)
        seed = script.seed
        firstIndex = script.draw.filter { $0.stroke != nil }.count
        brushes = try Scene.brushes(of: script)
    }

    /// Applies the events due by frame `n`; returns the live strokes' layers in draw order
    /// and the undo, redo and clear events so far.
    package func frame(_ n: Int) async throws -> LiveFrame {
        for event in try events.take(throughFrame: n, fps: fps) {
            switch event.kind {
            case let .sample(id, sample, start):
                if let start, open[id] == nil {
                    let b = brushes[start.brush]!
                    let layer = await renderer.makeLayer(brushKey: b.key, brush: b.brush)
                    open[id] = (StrokeBuilder(style: start.style, fps: fps, seed: seed,
                                              strokeIndex: firstIndex + order.count), layer)
                    order.append(layer)
                }
                guard let layer = open[id]?.layer else { continue }
                // In place: a copy of the builder would share its stamps, and every sample's
                // append would copy them all (a dense stroke went quadratic).
                let stamps = open[id]!.builder.add(sample)
                try await send(stamps, to: layer)
            case let .end(id):
                guard var stroke = open.removeValue(forKey: id) else { continue }
                try await send(stroke.builder.end(), to: stroke.layer)
            case let .session(op):
                ops.append(op)
            }
        }
        return LiveFrame(layers: order, ops: ops)
    }

    private func send(_ stamps: [Stamp], to layer: LayerID) async throws {
        guard !stamps.isEmpty else { return }
        let rotations = stamps.contains { $0.rotation != 0 } ? stamps.map(\.rotation) : nil
        try await renderer.append(stamps.map(\.point), rotations: rotations, to: layer)
    }
}

/// What live events add to a frame: strokes (layers drawn after the script's, in the order
/// they started) and undo, redo and clear entries (positions counting the script's stroke
/// entries and then the live strokes).
package struct LiveFrame: Sendable {
    package var layers: [LayerID] = []
    package var ops: [SessionOp] = []
    package init(layers: [LayerID] = [], ops: [SessionOp] = []) { self.layers = layers; self.ops = ops }
}
