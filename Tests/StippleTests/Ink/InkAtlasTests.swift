import Foundation
import XCTest
@testable import Stipple

final class InkAtlasTests: XCTestCase {
    private static let renderer = Result { try Renderer() }

    /// A cell's pixels depend on its drawing alone: a full page gives every drawing exactly
    /// the pixels it gets on a page of its own (same cell), so neighbours never bleed in and
    /// a shard draws what the whole run draws; and they are the pixels of the drawing on its
    /// own canvas of one cell, to the byte, with the soft brush and with the hard one (whose
    /// edge turns a pixel from no ink to full when a stamp moves by a step of the placement
    /// grid), on pages larger than a float's exact range for the stamps' coordinates.
    func testACellRendersAsTheDrawingAlone() async throws {
        let renderer = try InkAtlasTests.renderer.get()
        let drawings = try InkFiles.realDrawings("quickdraw/simplified_snowflake.ndjson")
        for brush in [Brush.Builtin.softRound, .hardRound] {
            var options = InkOptions()
            options.brush = brush
            options.radius = 6  // wide strokes: right up to the pad between cells
            let atlas = InkAtlas(width: 48, height: 40, supersample: 1, options: options, maxSide: 4096)
            XCTAssertGreaterThan(atlas.cellsPerPage, 4)
            // Cells far from the page's corner, where a float's step is 1/4096 of a pixel.
            let items = drawings.enumerated().map { (index: atlas.cellsPerPage - 1 - $0.offset * 7, drawing: $0.element) }
            let got = Locked<[Int: [UInt8]]>([:])
            try await atlas.render(items, on: renderer) { index, coverage in got.update { $0[index] = coverage } }
            XCTAssertEqual(got.value.count, drawings.count)
            for item in items {
                let single = Locked<[UInt8]>([])
                try await atlas.render([item], on: renderer) { _, coverage in single.update { $0 = coverage } }
                let cell = got.value[item.index]!
                XCTAssertGreaterThan(cell.max()!, 0)
                XCTAssertEqual(cell, single.value, "\(brush) drawing at \(item.index)")
                let alone = try await atlas.renderAlone(item.drawing, on: renderer)
                let differ = zip(cell, alone).filter { $0 != $1 }.count
                XCTAssertEqual(differ, 0, "\(brush) drawing at \(item.index): \(differ) pixels differ from it alone")
            }
        }
    }

    func testSupersampleFactor() {
        XCTAssertEqual(InkDataset.supersample(width: 28, height: 28), 2)
        XCTAssertEqual(InkDataset.supersample(width: 16, height: 20), 3)
        XCTAssertEqual(InkDataset.supersample(width: 12, height: 8), 4)
        XCTAssertEqual(InkDataset.supersample(width: 48, height: 30), 1)
        XCTAssertEqual(InkDataset.supersample(width: 256, height: 256), 1)
    }
}

final class Locked<T>: @unchecked Sendable {
    private var stored: T
    private let lock = NSLock()
    init(_ value: T) { stored = value }
    var value: T { lock.lock(); defer { lock.unlock() }; return stored }
    func update(_ body: (inout T) -> Void) { lock.lock(); body(&stored); lock.unlock() }
}
