/// The undo and redo bookkeeping of a drawing session (docs/reference.md §12), as plain data: which
/// strokes are shown, in draw order, and the steps that `undo` and `redo` walk.
///
/// Strokes are named by numbers that grow in draw order. A step is a stroke or a clear.
/// Nothing here knows GL: `LiveCanvas` keeps one for its strokes and `SessionTimeline`
/// replays a script's `draw` through one, so the two follow the same rules:
/// - `undo` reverts the newest step: a stroke disappears, or a clear is taken back;
/// - `redo` repeats the newest undone step;
/// - a new step (a stroke or a clear) empties the redo list;
/// - `clear` hides every stroke shown (and the backing layer under them), as one step.
package struct SessionHistory: Sendable, Equatable {
    package enum Step: Sendable, Equatable {
        case stroke(Int)
        /// The strokes shown when the clear came, and the backing layer it hid (a token
        /// the owner gives meaning to: `LiveCanvas` keeps the surface it stands for).
        case clear(strokes: [Int], backing: Int)
    }

    /// Strokes shown above the backing layer, oldest first.
    package private(set) var shown: [Int] = []
    /// Steps `undo` can revert, oldest first.
    package private(set) var undoSteps: [Step] = []
    /// Steps `redo` can repeat, the next one last.
    package private(set) var redoSteps: [Step] = []
    /// The backing layer now under the shown strokes.
    package private(set) var backing = 0
    private var nextBacking = 1

    package init() {}

    /// A new stroke on top; empties the redo list.
    package mutating func add(_ stroke: Int) {
        redoSteps = []
        shown.append(stroke)
        undoSteps.append(.stroke(stroke))
    }

    /// Hides every shown stroke and the backing layer under them, as one step, and starts
    /// a new, empty backing layer; empties the redo list.
    package mutating func clear() {
        redoSteps = []
        undoSteps.append(.clear(strokes: shown, backing: backing))
        shown = []
        backing = freshBacking()
    }

    /// Reverts the newest step; false when there is none.
    package mutating func undo() -> Bool {
        guard let step = undoSteps.popLast() else { return false }
        switch step {
        case let .stroke(s):
            // Every later step was undone, so the stroke is the top of `shown`.
            precondition(shown.last == s, "undo: stroke \(s) is not the newest shown")
            shown.removeLast()
        case let .clear(strokes, old):
            // Every later step was undone, and nothing drawn after the clear was baked
            // (baking waits for the clear to fall off the depth): the backing is still empty.
            precondition(shown.isEmpty, "undo of a clear with strokes drawn after it still shown")
            shown = strokes
            backing = old
        }
        redoSteps.append(step)
        return true
    }

    /// Repeats the newest undone step; false when there is none.
    package mutating func redo() -> Bool {
        guard let step = redoSteps.popLast() else { return false }
        switch step {
        case let .stroke(s):
            shown.append(s)
        case .clear:
            shown = []
            backing = freshBacking()
        }
        undoSteps.append(step)
        return true
    }

    /// Forgets the oldest undo step: it fell off the undo depth and can no longer be reverted.
    package mutating func dropOldestStep() {
        if !undoSteps.isEmpty { undoSteps.removeFirst() }
    }

    /// Takes the oldest shown strokes that no step can hide any more off the bottom of
    /// `shown`: they can only stay as they are, so they belong to the backing layer now.
    package mutating func takeBakeable() -> [Int] {
        let still = referenced
        var n = 0
        while n < shown.count, !still.contains(shown[n]) { n += 1 }
        let taken = Array(shown.prefix(n))
        shown.removeFirst(n)
        return taken
    }

    /// The backing layers some step may bring back, besides the current one.
    package var referencedBackings: Set<Int> {
        var set: Set<Int> = [backing]
        for case let .clear(_, old) in undoSteps + redoSteps { set.insert(old) }
        return set
    }

    /// Every stroke some undo or redo step could show or hide.
    package var referenced: Set<Int> {
        var set = Set<Int>()
        for step in undoSteps + redoSteps {
            switch step {
            case let .stroke(s): set.insert(s)
            case let .clear(strokes, _): set.formUnion(strokes)
            }
        }
        return set
    }

    private mutating func freshBacking() -> Int {
        defer { nextBacking += 1 }
        return nextBacking
    }
}
