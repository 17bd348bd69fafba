/// The cells of 16 pixels that boxes touch, within bounds (a stamp may be huge or far off),
/// and in each cell the bounds of what was marked there.
struct PixelCells {
    static let shift = 4
    /// Each cell touched, as `cy << 32 | cx`, and a box's part in it: the first `merged` in
    /// key order, each cell once with the bounds of its parts; the rest as marked. (A
    /// dictionary hashed every mark; a frame of stroke layers marks thousands.)
    private var entries: [(key: Int, part: PixelBox)] = []
    private var merged = 0
    private let bounds: PixelBox

    init(within bounds: PixelBox) { self.bounds = bounds }

    static func key(_ cx: Int, _ cy: Int) -> Int { cy << 32 | (cx & 0xFFFF_FFFF) }

    /// The cell `key` names, as a box.
    static func cell(_ key: Int) -> PixelBox {
        let side = 1 << shift
        let cy = key >> 32, cx = Int(Int32(truncatingIfNeeded: key))
        return PixelBox(x0: cx * side, y0: cy * side, x1: cx * side + side, y1: cy * side + side)
    }

    mutating func mark(_ box: PixelBox) {
        let b = box.intersection(bounds)
        guard !b.isEmpty else { return }
        let z = PixelCells.shift, side = 1 << z
        for cy in b.y0 >> z...(b.y1 - 1) >> z {
            let y0 = max(b.y0, cy << z), y1 = min(b.y1, (cy << z) + side)
            for cx in b.x0 >> z...(b.x1 - 1) >> z {
                let part = PixelBox(x0: max(b.x0, cx << z), y0: y0, x1: min(b.x1, (cx << z) + side), y1: y1)
                entries.append((PixelCells.key(cx, cy), part))
            }
        }
        // Merged as they grow, so memory stays the cells', not the marks'.
        if entries.count >= max(4096, 2 * merged) { merge() }
    }

    /// Makes each cell one entry, the union of its parts, in key order. A cell's place in
    /// the bounds' grid of cells (row by row) orders cells as their keys do: where the grid
    /// has few cells for the entries, each joins its cell's part there; else the entries
    /// are sorted by place, as 64-bit words (place, then entry), with no closure to call.
    private mutating func merge() {
        guard !entries.isEmpty else { return }
        let z = PixelCells.shift
        let (cx0, cy0) = (bounds.x0 >> z, bounds.y0 >> z)
        let columns = ((bounds.x1 - 1) >> z) - cx0 + 1, rows = ((bounds.y1 - 1) >> z) - cy0 + 1
        @inline(__always) func place(_ key: Int) -> Int {
            ((key >> 32) - cy0) * columns + (Int(Int32(truncatingIfNeeded: key)) - cx0)
        }
        var out: [(key: Int, part: PixelBox)] = []
        if columns * rows <= 4 * entries.count {
            var parts = [PixelBox](repeating: .empty, count: columns * rows)
            for e in entries {
                let p = place(e.key)
                parts[p] = parts[p].union(e.part)
            }
            for (p, part) in parts.enumerated() where !part.isEmpty {
                out.append((PixelCells.key(cx0 + p % columns, cy0 + p / columns), part))
            }
        } else {
            var order = entries.indices.map { UInt64(place(entries[$0].key)) << 32 | UInt64($0) }
            order.sort()
            out.reserveCapacity(entries.count)
            var last = -1
            for word in order {
                let e = entries[Int(word & 0xFFFF_FFFF)], p = Int(word >> 32)
                if p == last {
                    out[out.count - 1].part = out[out.count - 1].part.union(e.part)
                } else {
                    out.append(e)
                    last = p
                }
            }
        }
        entries = out
        merged = out.count
    }

    /// Each cell touched, in key order, with the bounds of what was marked in it.
    var marked: [(key: Int, part: PixelBox)] {
        var all = self
        all.merge()
        return all.entries
    }

    /// The cells of `marked` (as `marked` gives them) as boxes, each row's runs of
    /// neighbouring cells as one, cut to `clip`.
    static func boxes(_ marked: [(key: Int, part: PixelBox)], clippedTo clip: PixelBox) -> [PixelBox] {
        var out: [PixelBox] = []
        for (key, _) in marked {
            let cell = PixelCells.cell(key)
            if let last = out.last, last.y0 == cell.y0, last.x1 == cell.x0 {
                out[out.count - 1].x1 = cell.x1
            } else {
                out.append(cell)
            }
        }
        return out.map { $0.intersection(clip) }.filter { !$0.isEmpty }
    }
}

/// Where a stroke layer changes pixels or reads them (`StrokeLayerPass.zone`): cells of 16
/// pixels, and in each the bounds of the layer's part of it. Two layers meet when their
/// parts of a cell they share overlap; cells alone tell quickly which pairs to look at.
struct LayerZone: Equatable {
    /// The cells (`PixelCells.key`), sorted, each once.
    var cells: [Int]
    /// For each cell, the bounds of the zone within it.
    var parts: [PixelBox]

    /// A zone of whole cells.
    init(cells: [Int]) {
        self.cells = cells.sorted()
        parts = self.cells.map(PixelCells.cell)
    }

    init(_ marked: PixelCells) {
        let all = marked.marked
        cells = all.map(\.key)
        parts = all.map(\.part)
    }

    /// Whether the two zones overlap anywhere.
    func meets(_ other: LayerZone) -> Bool {
        var (i, j) = (0, 0)
        while i < cells.count, j < other.cells.count {
            if cells[i] < other.cells[j] { i += 1 } else if cells[i] > other.cells[j] { j += 1 } else {
                if !parts[i].intersection(other.parts[j]).isEmpty { return true }
                i += 1; j += 1
            }
        }
        return false
    }
}
