/// The parts of a canvas a frame must draw again, on a grid of square cells: boxes mark the
/// cells they touch, and the marked cells merge into a few rectangles — runs along a row,
/// joined with the rows below that have the same run. When that leaves more rectangles
/// than a frame should draw, the grid doubles its cell until it does not.
///
/// Cells are even-sized and start at the canvas's corner, so a rectangle's corners fall on
/// even pixels (or the canvas edge): a 4:2:0 chroma block is always wholly in or out.
struct DirtyCells {
    let width: Int, height: Int
    private(set) var cell: Int
    private var columns: Int, rows: Int
    private var marks: [Bool]
    private(set) var isEmpty = true

    init(width: Int, height: Int, cell: Int = 16) {
        precondition(cell >= 2 && cell % 2 == 0, "cells are even")
        self.width = width; self.height = height; self.cell = cell
        columns = (width + cell - 1) / cell
        rows = (height + cell - 1) / cell
        marks = [Bool](repeating: false, count: columns * rows)
    }

    /// Marks every cell `box` (canvas pixels, exclusive ends) touches on the canvas.
    mutating func mark(_ box: PixelBox) {
        let b = box.clipped(width: width, height: height)
        guard !b.isEmpty else { return }
        isEmpty = false
        for r in (b.y0 / cell)...((b.y1 - 1) / cell) {
            let row = r * columns
            for c in (b.x0 / cell)...((b.x1 - 1) / cell) { marks[row + c] = true }
        }
    }

    /// Marks the cells `box` touches that `other`, a grid of the same canvas and cell, has
    /// marked. Returns whether it marked any.
    @discardableResult
    mutating func mark(_ box: PixelBox, whereMarkedIn other: DirtyCells) -> Bool {
        precondition(other.width == width && other.height == height && other.cell == cell, "the same grid")
        let b = box.clipped(width: width, height: height)
        guard !b.isEmpty, !other.isEmpty else { return false }
        var any = false
        for r in (b.y0 / cell)...((b.y1 - 1) / cell) {
            let row = r * columns
            for c in (b.x0 / cell)...((b.x1 - 1) / cell) where other.marks[row + c] { marks[row + c] = true; any = true }
        }
        if any { isEmpty = false }
        return any
    }

    /// Whether `box` touches a marked cell.
    func touches(_ box: PixelBox) -> Bool {
        let b = box.clipped(width: width, height: height)
        guard !b.isEmpty, !isEmpty else { return false }
        for r in (b.y0 / cell)...((b.y1 - 1) / cell) {
            let row = r * columns
            for c in (b.x0 / cell)...((b.x1 - 1) / cell) where marks[row + c] { return true }
        }
        return false
    }

    /// Adds the marks of `other`, a grid of the same canvas and cell.
    mutating func formUnion(_ other: DirtyCells) {
        precondition(other.width == width && other.height == height && other.cell == cell, "the same grid")
        guard !other.isEmpty else { return }
        // A mark is a byte 0 or 1: eight of them or'ed at a time.
        marks.withUnsafeMutableBytes { dst in
            other.marks.withUnsafeBytes { src in
                let words = dst.count / 8
                for w in 0..<words {
                    let merged = dst.loadUnaligned(fromByteOffset: 8 * w, as: UInt64.self)
                        | src.loadUnaligned(fromByteOffset: 8 * w, as: UInt64.self)
                    dst.storeBytes(of: merged, toByteOffset: 8 * w, as: UInt64.self)
                }
                for i in (8 * words)..<dst.count { dst[i] |= src[i] }
            }
        }
        isEmpty = false
    }

    /// The marked cells as rectangles, at most `limit` of them (coarser cells past that).
    func boxes(limit: Int = 32) -> [PixelBox] {
        var grid = self
        while true {
            let found = grid.merged()
            if found.count <= limit || (grid.columns == 1 && grid.rows == 1) { return found }
            grid = grid.coarsened()
        }
    }

    /// The same marks on cells twice the size.
    private func coarsened() -> DirtyCells {
        var c = DirtyCells(width: width, height: height, cell: cell * 2)
        c.isEmpty = isEmpty
        for r in 0..<rows {
            for col in 0..<columns where marks[r * columns + col] {
                c.marks[(r / 2) * c.columns + col / 2] = true
            }
        }
        return c
    }

    private func merged() -> [PixelBox] {
        var done: [PixelBox] = []
        // Open rectangles: a run of columns and the rows it has covered so far.
        var open: [(c0: Int, c1: Int, r0: Int)] = []
        func close(_ o: (c0: Int, c1: Int, r0: Int), at r1: Int) {
            done.append(PixelBox(x0: o.c0 * cell, y0: o.r0 * cell, x1: min(width, o.c1 * cell),
                                 y1: min(height, r1 * cell)))
        }
        for r in 0...rows {
            var runs: [(Int, Int)] = []
            if r < rows {
                var c = 0
                while c < columns {
                    guard marks[r * columns + c] else { c += 1; continue }
                    let start = c
                    while c < columns && marks[r * columns + c] { c += 1 }
                    runs.append((start, c))
                }
            }
            var next: [(c0: Int, c1: Int, r0: Int)] = []
            for o in open {
                if runs.contains(where: { $0 == (o.c0, o.c1) }) { next.append(o) } else { close(o, at: r) }
            }
            for run in runs where !next.contains(where: { $0.c0 == run.0 && $0.c1 == run.1 }) {
                next.append((run.0, run.1, r))
            }
            open = next
        }
        return done
    }
}
