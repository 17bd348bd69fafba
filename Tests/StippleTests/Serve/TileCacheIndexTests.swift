import XCTest
@testable import Stipple
@testable import StippleServe

/// The tile caches' bookkeeping: their order of use against a model that finds the least
/// recently used entry by a walk, and the tiles a change reaches found tile by tile against
/// a walk of every tile.
final class TileCacheIndexTests: XCTestCase {
    func testTheOrderOfUseIsThatOfAWalkOverEveryEntry() {
        for seed in 0..<20 {
            var rng = SplitMix64(seed: UInt64(seed))
            var order = RecencyOrder<Int>()
            var model: [Int: Int] = [:], tick = 0
            for step in 0..<3000 {
                let key = Int(rng.next() % 40)
                switch rng.next() % 10 {
                case 0..<6:
                    order.use(key)
                    tick += 1
                    model[key] = tick
                case 6..<8:
                    order.remove(key)
                    model[key] = nil
                default:
                    // The cache drops its oldest, as a full one does.
                    let oldest = order.oldest()
                    XCTAssertEqual(oldest, model.min { $0.value < $1.value }?.key, "seed \(seed), step \(step)")
                    if let oldest { order.remove(oldest); model[oldest] = nil }
                }
                XCTAssertEqual(order.count, model.count, "seed \(seed), step \(step)")
            }
            XCTAssertEqual(order.keys, model.sorted { $0.value < $1.value }.map(\.key), "seed \(seed)")
        }
    }

    func testTheTilesAChangeReachesAreThoseAWalkFinds() {
        var rng = SplitMix64(seed: 7)
        for (w, h) in [(16384, 16384), (1000, 300), (257, 4097), (256, 256), (70, 5000)] {
            let tiles = ServedTiles(width: w, height: h)
            // Every tile of every zoom, exact and preview: a full cache.
            var all: [ServedTiles.Key] = []
            for z in 0...tiles.topZoom {
                let span = ServedTiles.side << (tiles.topZoom - z)
                for y in 0..<((h + span - 1) / span) {
                    for x in 0..<((w + span - 1) / span) {
                        all += [.init(z: z, x: x, y: y, preview: false), .init(z: z, x: x, y: y, preview: true)]
                    }
                }
            }
            let held = Set(all)
            for _ in 0..<300 {
                func coordinate(_ n: Int) -> Int { Int(rng.next() % UInt64(n + 600)) - 300 }
                let (a, b) = (coordinate(w), coordinate(w)), (c, d) = (coordinate(h), coordinate(h))
                let box = ServedDrawing.Box(x0: min(a, b), y0: min(c, d), x1: max(a, b) + Int(rng.next() % 3), y1: max(c, d))
                let walked = Set(box.x0 < box.x1 && box.y0 < box.y1 ? all.filter { tiles.box($0).intersects(box) } : [])
                // A count above every tile's makes the lookup tile by tile; 0, a walk.
                let looked = tiles.keys(all, count: Int.max / 4, contains: held.contains, touching: box)
                XCTAssertEqual(Set(looked), walked, "\(w)×\(h), \(box): tile by tile")
                XCTAssertEqual(looked.count, Set(looked).count, "\(w)×\(h), \(box): each tile once")
                XCTAssertEqual(Set(tiles.keys(all, count: 0, contains: held.contains, touching: box)), walked,
                               "\(w)×\(h), \(box): by a walk")
                XCTAssertEqual(tiles.count(touching: box), walked.count / 2, "\(w)×\(h), \(box): counted")
            }
            XCTAssertEqual(Set(tiles.keys(all, count: all.count, contains: held.contains, touching: nil)), held)
        }
    }
}
