/// A frame's draw entries as the passes that draw them, in compositing order: runs of plain
/// entries, drawn stamp by stamp in one plan, and stroke layers, each a brush mode that
/// reads the canvas drawn so far (docs/brush-modes.md).
///
/// This is the one place that decides how an entry is drawn. Every path — one pass, a tile
/// with its apron, the pixel under an edge anchor, resident layers, a kept bake — asks the
/// passes, and one executor (`Renderer.drawPasses`, `Renderer.drawResident`) runs them.
struct FramePasses: Equatable {
    enum Pass: Equatable {
        /// Entries drawn stamp by stamp, in order, as one plan.
        case stamps(Range<Int>)
        /// One entry drawn as a stroke layer with its mode.
        case layer(Int, StrokeMode)
    }

    private(set) var passes: [Pass] = []

    /// The passes of entries whose modes are `modes`, in order.
    init<S: Sequence>(modes: S) where S.Element == StrokeMode? {
        var start: Int?
        var i = 0
        for mode in modes {
            if let mode {
                if let s = start { passes.append(.stamps(s..<i)); start = nil }
                passes.append(.layer(i, mode))
            } else if start == nil {
                start = i
            }
            i += 1
        }
        if let s = start { passes.append(.stamps(s..<i)) }
    }

    // By index: a lazy map over the batches copies each one (a retain and a release of
    // every field it holds) to read its mode.
    init(_ batches: [StampBatch]) { self.init(modes: batches.indices.lazy.map { batches[$0].mode }) }

    /// True when some entry is a stroke layer: the frame reads its own canvas.
    var hasLayers: Bool { passes.contains { if case .layer = $0 { return true } else { return false } } }

    /// The modes of the stroke layers, in order.
    var modes: [StrokeMode] { passes.compactMap { if case let .layer(_, m) = $0 { return m } else { return nil } } }

    /// Pixels the mode passes' own targets reach past the canvas target's band: a shadow's
    /// blur spills its taps beyond the layer, and that target must fit the driver too.
    var spill: Int { modes.map(\.spill).max() ?? 0 }
}

extension StrokeMode {
    /// Pixels past the canvas target's band that this mode's passes keep (the shadow's blur).
    var spill: Int { shadow.map { max(1, $0.radius) } ?? 0 }
}

/// What each stroke layer of a frame changes and how far past that it reads the canvas
/// before it (a blur's taps, a shadow's offset and taps), in draw order. A tile's apron
/// follows from the layers that reach it only (`cone`), not from every entry of the script.
struct PassReaches: Sendable, Equatable {
    struct Reach: Sendable, Equatable {
        /// The canvas pixels the layer may change at this frame.
        var box: PixelBox
        /// How far past a changed pixel the layer reads the canvas.
        var read: Int
    }

    /// The layers that read past the pixels they change, in draw order.
    private(set) var reaches: [Reach] = []
    /// At least the widest cone of any tile (`cone`).
    private(set) var widestCone = 0

    var isEmpty: Bool { reaches.isEmpty }

    /// The canvas: nothing past its edges is read (blurs repeat its border, shadows see
    /// nothing there), so a cone stops at them.
    private let canvas: PixelBox

    init(_ batches: [StampBatch], settings: RenderSettings, ageOffset: Float, canvas: Canvas) {
        self.canvas = PixelBox(x0: 0, y0: 0, x1: canvas.width, y1: canvas.height)
        for case let .layer(i, mode) in FramePasses(batches).passes where mode.reach > 0 {
            // The reference only decides whether the pass exists: any colour stands in.
            let pass = batches[i].stamps.withUnsafeBufferPointer {
                StrokeLayerPass(mode: mode, stamps: $0, ageOffset: ageOffset, effects: settings.effects,
                                width: canvas.width, height: canvas.height, reference: .color(0, 0, 0, 0))
            }
            guard let pass else { continue }
            reaches.append(Reach(box: pass.region, read: mode.reach))
        }
        // The widest cone of any tile is at most the longest chain of layers, each reading
        // where an earlier one changed pixels: along such a chain the reads add up.
        var chains: [Int] = []
        var longestSoFar = 0
        chains.reserveCapacity(reaches.count)
        for (k, r) in reaches.enumerated() {
            let reads = r.box.grown(x: r.read, y: r.read)
            var longest = 0
            if k <= PassReaches.chainedLimit {
                for j in 0..<k where chains[j] > longest && !reads.intersection(reaches[j].box).isEmpty { longest = chains[j] }
            } else {
                longest = longestSoFar  // past the limit, as if every earlier layer were read
            }
            chains.append(r.read + longest)
            longestSoFar = max(longestSoFar, r.read + longest)
        }
        widestCone = chains.max() ?? 0
    }

    /// Layers past this many are chained to the longest earlier chain, not searched.
    static let chainedLimit = 4096

    /// How far past `box` a render must be drawn exactly for `box` to come out exactly: going
    /// back from the last layer, a layer that changes pixels of what must be exact reads
    /// `read` around them, which must then be exact too.
    func cone(_ box: PixelBox) -> Int {
        var need = box
        for r in reaches.reversed() {
            let hit = need.intersection(r.box)
            guard !hit.isEmpty else { continue }
            need = need.union(hit.grown(x: r.read, y: r.read).intersection(canvas))
        }
        return max(box.x0 - need.x0, box.y0 - need.y0, need.x1 - box.x1, need.y1 - box.y1, 0)
    }
}

/// A run of stroke layers (no plain entry, and no "detect edges" stroke whose reference is
/// read from the canvas then, between them) as the groups that share their passes
/// (`ModePasses.draw`), in the order they are drawn. A group's layers share one mode; they
/// share one "detect edges" reference too where a blur or a shadow reads the weight around a
/// pixel (elsewhere the final pass draws each layer's own parts with its own reference).
///
/// Layers whose zones do not meet (`StrokeLayerPass.zone`) give the same pixels in either
/// order, so a layer joins the first group of its mode that comes after every group holding
/// an earlier layer it meets. Each layer then still follows every earlier layer it meets, and
/// no two layers of a group meet: the frame comes out bit for bit as drawn layer by layer,
/// with far fewer passes when strokes lie apart.
enum LayerGroups {
    /// Layers kept apart in a cell before they are taken as one (the latest group, their
    /// bounds): a place drawn over again and again costs no more than this a layer.
    static let keptInACell = 8

    /// What the layers of one group share: the mode, and the "detect edges" reference where
    /// the weight is read around a pixel (a blur, a shadow).
    struct Key: Equatable {
        var mode: StrokeMode
        var reference: [Float]?

        init(_ pass: StrokeLayerPass) {
            mode = pass.mode
            reference = pass.mode.readsWeightAround ? pass.reference : nil
        }
    }

    /// The groups of layers with `modes` (or any key that layers of a group must share) and
    /// `zones`, as indices, in drawing order.
    static func schedule<Mode: Equatable>(_ zones: [LayerZone], modes: [Mode]) -> [[Int]] {
        precondition(zones.count == modes.count)
        var groups: [(mode: Mode, members: [Int])] = []
        // The layers so far in each cell: their groups and their parts of it.
        var placed: [Int: [(group: Int, part: PixelBox)]] = [:]
        for (m, zone) in zones.enumerated() {
            var lowest = 0
            for (cell, part) in zip(zone.cells, zone.parts) {
                for p in placed[cell] ?? [] where p.group >= lowest && !p.part.intersection(part).isEmpty {
                    lowest = p.group + 1
                }
            }
            var chosen = groups.count
            if lowest < groups.count, let j = groups[lowest...].firstIndex(where: { $0.mode == modes[m] }) { chosen = j }
            if chosen == groups.count { groups.append((modes[m], [])) }
            groups[chosen].members.append(m)
            for (cell, part) in zip(zone.cells, zone.parts) {
                var here = placed[cell] ?? []
                here.append((chosen, part))
                if here.count > keptInACell {
                    here = [(here.map(\.group).max()!, here.reduce(PixelBox.empty) { $0.union($1.part) })]
                }
                placed[cell] = here
            }
        }
        return groups.map(\.members)
    }
}
