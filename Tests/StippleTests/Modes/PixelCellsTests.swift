import XCTest
@testable import Stipple

/// The cells that boxes mark (`PixelCells`): each cell once, in key order, with the bounds
/// of every part marked in it — whether its cells are found in a grid (few cells for the
/// marks) or by sorting (many), and across the merges that marking many boxes makes.
final class PixelCellsTests: XCTestCase {
    /// Each cell a box touches, one at a time, and the union of its parts there.
    private func reference(_ boxes: [PixelBox], within bounds: PixelBox) -> [(key: Int, part: PixelBox)] {
        var parts: [Int: PixelBox] = [:]
        for box in boxes {
            let b = box.intersection(bounds)
            guard !b.isEmpty else { continue }
            for cy in (b.y0 >> 4)...((b.y1 - 1) >> 4) {
                for cx in (b.x0 >> 4)...((b.x1 - 1) >> 4) {
                    let part = b.intersection(PixelCells.cell(PixelCells.key(cx, cy)))
                    let key = PixelCells.key(cx, cy)
                    parts[key] = parts[key].map { $0.union(part) } ?? part
                }
            }
        }
        return parts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    private func check(_ boxes: [PixelBox], within bounds: PixelBox, file: StaticString = #filePath, line: UInt = #line) {
        var cells = PixelCells(within: bounds)
        for box in boxes { cells.mark(box) }
        let want = reference(boxes, within: bounds)
        for got in [cells.marked, cells.marked] {
            // The first cell where the two differ, if any (the lists are thousands long).
            let first = got.indices.first { $0 < want.count && (got[$0].key != want[$0].key || got[$0].part != want[$0].part) }
            XCTAssertNil(first.map { "cell \($0): \(got[$0]) where \(want[$0])" }, file: file, line: line)
            XCTAssertEqual(got.count, want.count, "cells", file: file, line: line)
        }
    }

    private func boxes(_ n: Int, in area: PixelBox, most side: Int, seed: UInt64) -> [PixelBox] {
        var rng = SplitMix64(seed: seed)
        return (0..<n).map { _ in
            let x = Int.random(in: area.x0..<area.x1, using: &rng), y = Int.random(in: area.y0..<area.y1, using: &rng)
            return PixelBox(x0: x, y0: y, x1: x + Int.random(in: 1...side, using: &rng), y1: y + Int.random(in: 1...side, using: &rng))
        }
    }

    func testManyMarksOnFewCellsAreFoundInAGrid() {
        // 20 × 15 cells, 9 000 boxes: merged on the way, and every merge in the grid.
        let bounds = PixelBox(x0: 0, y0: 0, x1: 320, y1: 240)
        check(boxes(9000, in: PixelBox(x0: -40, y0: -40, x1: 340, y1: 260), most: 60, seed: 1), within: bounds)
    }

    func testFewMarksOnAHugeCanvasAreSorted() {
        // 4 096² cells and a few hundred boxes: far too many cells for a grid.
        let bounds = PixelBox(x0: 0, y0: 0, x1: 65536, y1: 65536)
        check(boxes(300, in: bounds, most: 200, seed: 2), within: bounds)
        // Past the first merge too.
        check(boxes(6000, in: bounds, most: 40, seed: 3), within: bounds)
    }

    func testBoundsOffTheGridAndBoxesCrossingThem() {
        // Bounds whose corners are not on cells; boxes reaching past every side.
        let bounds = PixelBox(x0: 37, y0: 53, x1: 1001, y1: 707)
        let area = PixelBox(x0: -100, y0: -100, x1: 1100, y1: 800)
        check(boxes(200, in: area, most: 300, seed: 4), within: bounds)
        check(boxes(5000, in: area, most: 30, seed: 5), within: bounds)
        check([], within: bounds)
        check([PixelBox(x0: 2000, y0: 0, x1: 2100, y1: 50)], within: bounds)
    }
}
