import XCTest
@testable import Stipple

/// `SessionHistory` against the plainest model of undo: a list of snapshots of what is shown,
/// and a cursor (undo moves back, redo forward, a new step cuts what lies ahead).
final class SessionHistoryTests: XCTestCase {
    struct SnapshotModel {
        var snapshots: [[Int]] = [[]]
        var cursor = 0
        var shown: [Int] { snapshots[cursor] }
        mutating func push(_ s: [Int]) { snapshots = Array(snapshots[...cursor]) + [s]; cursor += 1 }
        mutating func add(_ i: Int) { push(shown + [i]) }
        mutating func clear() { push([]) }
        mutating func undo() -> Bool { guard cursor > 0 else { return false }; cursor -= 1; return true }
        mutating func redo() -> Bool { guard cursor < snapshots.count - 1 else { return false }; cursor += 1; return true }
    }

    /// 500 seeded sessions of 60 random steps: the history shows what the model shows after
    /// every step, and refuses exactly what the model cannot do.
    func testRandomSessionsMatchTheSnapshotModel() {
        for seed in 0..<500 {
            var rng = SplitMix64(seed: UInt64(seed))
            var h = SessionHistory(), model = SnapshotModel(), next = 0
            for step in 0..<60 {
                switch rng.next() % 10 {
                case 0...3: h.add(next); model.add(next); next += 1
                case 4...5: XCTAssertEqual(h.undo(), model.undo(), "seed \(seed) step \(step)")
                case 6...7: XCTAssertEqual(h.redo(), model.redo(), "seed \(seed) step \(step)")
                default: h.clear(); model.clear()
                }
                XCTAssertEqual(h.shown, model.shown, "seed \(seed) step \(step)")
                if h.shown != model.shown { return }
            }
        }
    }

    /// Dropping the oldest steps (the undo depth) never changes what is shown: strokes no step
    /// can reach any more go to the backing layer, in draw order, below everything still shown.
    func testDroppingStepsKeepsTheImage() {
        for seed in 0..<300 {
            var rng = SplitMix64(seed: UInt64(seed) &+ 1000)
            var h = SessionHistory(), model = SnapshotModel(), next = 0
            var baked: [Int: [Int]] = [:]   // by backing token
            let depth = 1 + Int(rng.next() % 5)
            for step in 0..<50 {
                switch rng.next() % 10 {
                case 0...4: h.add(next); model.add(next); next += 1
                case 5...6: if h.undo() { XCTAssertTrue(model.undo()) }
                case 7...8: if h.redo() { XCTAssertTrue(model.redo()) }
                default: h.clear(); model.clear()
                }
                // Equal histories up to here; now forget beyond the depth, as LiveCanvas does.
                while h.undoSteps.count > depth { h.dropOldestStep() }
                baked[h.backing, default: []] += h.takeBakeable()
                XCTAssertEqual(baked[h.backing, default: []] + h.shown, model.shown, "seed \(seed) step \(step)")
                XCTAssertLessThanOrEqual(h.undoSteps.count, depth)
                if baked[h.backing, default: []] + h.shown != model.shown { return }
                // Steps the model could still undo beyond the depth are gone for good: align them.
                if model.cursor > h.undoSteps.count {
                    let base = model.snapshots[model.cursor - h.undoSteps.count]
                    model.snapshots = [base] + Array(model.snapshots[(model.cursor - h.undoSteps.count + 1)...])
                    model.cursor = h.undoSteps.count
                }
            }
        }
    }
}
