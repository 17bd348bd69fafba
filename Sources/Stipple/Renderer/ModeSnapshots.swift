/// Canvases kept part-way through a frame with stroke layers, so the next frame (or an undo)
/// starts from the newest one whose layers are unchanged instead of running every stroke
/// layer again. A snapshot is an exact copy of the target after a prefix of the frame's
/// layers: restoring it gives the same pixels as drawing that prefix.
///
/// Only frames whose layers cannot change with time are kept: no ageing (maxAge 0) and
/// every stamp of the prefix born. A key names the background, the settings and each
/// layer of the prefix with what it holds (the layer itself, held so its identity is never
/// reused, its stamp count, mode and edge reference).
struct ModeSnapshots {
    struct LayerKey: Equatable {
        let layer: StampLayer
        let count: Int
        let mode: StrokeMode?
        let reference: EdgeReference?
        static func == (a: LayerKey, b: LayerKey) -> Bool {
            a.layer === b.layer && a.count == b.count && a.mode == b.mode && a.reference == b.reference
        }
    }

    struct Base: Equatable {
        var width: Int, height: Int
        var background: CanvasBackground
        var settings: RenderSettings
    }

    private var kept: [(base: Base, layers: [LayerKey], target: Framebuffer)] = []
    /// How many snapshots are kept (each is a canvas-sized target). A frame drawn stroke by
    /// stroke keeps one a stroke, the least recently used dropped first: six cover three
    /// undos in a row and the redraws between, each undo starting from the canvas just
    /// before its stroke, and a stroke drawn over many frames keeps the canvas under it.
    static let limit = 6

    /// The keys of `chosen` at frame `f`, or nil when such a frame cannot be kept.
    static func keys(_ chosen: [StampLayer], frame f: Float, settings: RenderSettings,
                     background: CanvasBackground) -> [LayerKey]? {
        guard settings.effects.maxAge == 0 else { return nil }
        if case .image = background { return nil }
        var keys: [LayerKey] = []
        keys.reserveCapacity(chosen.count)
        for layer in chosen {
            guard layer.window(at: f, effects: settings.effects) == 0..<layer.stamps.count else { return nil }
            keys.append(LayerKey(layer: layer, count: layer.stamps.count, mode: layer.mode, reference: layer.edgeReference))
        }
        return keys
    }

    /// The longest kept prefix of `layers` on `base`: how many layers it holds, and its target.
    /// The one found becomes the most recently used (the last to be dropped).
    mutating func longest(_ base: Base, _ layers: [LayerKey]) -> (count: Int, target: Framebuffer)? {
        var best: (index: Int, count: Int)?
        for (i, k) in kept.enumerated() where k.base == base && k.layers.count <= layers.count
            && k.layers.count > (best?.count ?? 0) && Array(layers[..<k.layers.count]) == k.layers {
            best = (i, k.layers.count)
        }
        guard let best else { return nil }
        let found = kept.remove(at: best.index)
        kept.append(found)
        return (best.count, found.target)
    }

    func has(_ base: Base, _ layers: ArraySlice<LayerKey>) -> Bool {
        kept.contains { $0.base == base && $0.layers[...] == layers }
    }

    /// Keeps a snapshot; returns a target to copy into, reusing the oldest when full (`make`
    /// makes a new one), and the targets no longer needed.
    mutating func keep(_ base: Base, _ layers: [LayerKey], make: () throws -> Framebuffer) rethrows -> Framebuffer {
        let target = kept.count >= ModeSnapshots.limit ? kept.removeFirst().target : try make()
        kept.append((base, layers, target))
        return target
    }

    /// Forgets every snapshot (a surface they may start from changed); returns their targets.
    mutating func removeAll() -> [Framebuffer] {
        defer { kept.removeAll() }
        return kept.map(\.target)
    }

    /// Forgets snapshots of another canvas size; returns their targets.
    mutating func removeAll(notSized width: Int, _ height: Int) -> [Framebuffer] {
        let gone = kept.filter { $0.base.width != width || $0.base.height != height }.map(\.target)
        kept.removeAll { $0.base.width != width || $0.base.height != height }
        return gone
    }
}
