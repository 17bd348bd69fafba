import XCTest
@testable import Stipple

/// The grid of changed cells the kept sketch draws again.
final class DirtyCellsTests: XCTestCase {
    /// A box marked where another grid is marked takes only the cells both have: a new stamp
    /// is drawn again only where a later stroke can lie over it.
    func testABoxMarkedWhereAnotherGridIsMarkedTakesOnlyTheCellsBothHave() {
        var later = DirtyCells(width: 64, height: 48)
        later.mark(PixelBox(x0: 20, y0: 20, x1: 24, y1: 24))  // cell (1, 1)
        later.mark(PixelBox(x0: 50, y0: 40, x1: 60, y1: 48))  // cell (3, 2), outside the box below
        var redrawn = DirtyCells(width: 64, height: 48)
        XCTAssertTrue(redrawn.mark(PixelBox(x0: 0, y0: 0, x1: 40, y1: 40), whereMarkedIn: later))
        XCTAssertEqual(redrawn.boxes(), [PixelBox(x0: 16, y0: 16, x1: 32, y1: 32)])
        // A box that meets no marked cell marks nothing and leaves the grid empty.
        var none = DirtyCells(width: 64, height: 48)
        XCTAssertFalse(none.mark(PixelBox(x0: 0, y0: 0, x1: 15, y1: 15), whereMarkedIn: later))
        XCTAssertTrue(none.isEmpty)
        // Clipped to the canvas, and nothing from an empty grid.
        XCTAssertTrue(none.mark(PixelBox(x0: 48, y0: 32, x1: 200, y1: 200), whereMarkedIn: later))
        XCTAssertEqual(none.boxes(), [PixelBox(x0: 48, y0: 32, x1: 64, y1: 48)])
        var fresh = DirtyCells(width: 64, height: 48)
        XCTAssertFalse(fresh.mark(PixelBox(x0: 0, y0: 0, x1: 64, y1: 48), whereMarkedIn: DirtyCells(width: 64, height: 48)))
    }

    /// The union of two grids is the grid both sets of boxes mark, on grids whose cell count is
    /// not a multiple of eight (the union takes eight cells at a time, then the rest one by one).
    func testTheUnionOfTwoGridsIsTheGridOfBothBoxes() {
        var rng = SplitMix64(seed: 3)
        for (w, h) in [(100, 37), (17, 300), (64, 48), (1, 1)] {
            var a = DirtyCells(width: w, height: h), b = DirtyCells(width: w, height: h), both = DirtyCells(width: w, height: h)
            for k in 0..<6 {
                let x = Int(rng.next() % UInt64(w)), y = Int(rng.next() % UInt64(h))
                let box = PixelBox(x0: x, y0: y, x1: x + 1 + Int(rng.next() % 20), y1: y + 1 + Int(rng.next() % 20))
                if k % 2 == 0 { a.mark(box) } else { b.mark(box) }
                both.mark(box)
            }
            var union = a
            union.formUnion(b)
            XCTAssertEqual(union.boxes(limit: .max), both.boxes(limit: .max), "\(w)×\(h)")
            XCTAssertFalse(union.isEmpty)
            // An empty grid adds nothing, and leaves an empty grid empty.
            var empty = DirtyCells(width: w, height: h)
            empty.formUnion(DirtyCells(width: w, height: h))
            XCTAssertTrue(empty.isEmpty)
            union.formUnion(DirtyCells(width: w, height: h))
            XCTAssertEqual(union.boxes(limit: .max), both.boxes(limit: .max))
        }
    }
}
