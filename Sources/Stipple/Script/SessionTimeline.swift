/// A session entry of a script's `draw` (docs/reference.md §12): `{ "undo": k, "t": … }`,
/// `{ "redo": k, "t": … }` or `{ "clear": true, "t": … }`.
package struct SessionOp: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case undo(Int)
        case redo(Int)
        case clear
    }
    package var kind: Kind
    /// Seconds, as written.
    package var time: Double
    /// The frame of `time` on the script's clock (as a stamp's birth: `floor(t × fps + 1e-9)`):
    /// the entry acts from this frame on.
    package var frame: Int
    /// How many stroke entries (`stamps` or `points`) come before it in `draw`.
    package var position: Int
    package var location: InputLocation

    package init(kind: Kind, time: Double, frame: Int, position: Int, location: InputLocation = .file) {
        self.kind = kind; self.time = time; self.frame = frame; self.position = position; self.location = location
    }

    /// The frame a time falls in, exactly as a stamp's birth frame (see `StrokeStamper`).
    package static func clockFrame(of time: Double, fps: Double) -> Int {
        Int((time * fps + 1e-9).rounded(.down))
    }
}

/// Which of a script's draw entries are shown at a frame, given its session entries
/// (docs/reference.md §12). Pure data: `FrameState` is built from it.
///
/// At frame N the draw list is replayed in order through a `SessionHistory`: each stroke
/// entry is a new stroke, each session entry whose frame is at most N is applied, and a
/// session entry of a later frame is as if it were not there.
package struct SessionTimeline: Sendable, Equatable {
    /// In draw order.
    package var ops: [SessionOp] = []
    /// Frame 0 of a render is this frame of the script's clock (touch times, stamp ages and
    /// session times all count on that clock). Saved drawings use it to show, at frame 0,
    /// the frame they were saved at. Default 0.
    package var startFrame = 0

    package init(ops: [SessionOp] = [], startFrame: Int = 0) {
        self.ops = ops; self.startFrame = startFrame
    }

    /// The draw entries shown at render frame `n`, of `count` stroke entries, in draw order.
    package func shownEntries(count: Int, atFrame n: Int) -> [Int] {
        guard !ops.isEmpty else { return Array(0..<count) }
        return replay(count: count, clockFrame: n + startFrame).shown
    }

    /// The clock frame that render frame `n` shows.
    package func clockFrame(_ n: Int) -> Int { n + startFrame }

    /// The first session entry that has nothing to act on at some frame, with what it lacks.
    /// Checked at every frame where an entry starts to act, since only those change the replay.
    func firstProblem(count: Int) -> (op: SessionOp, message: String)? {
        let frames = Set(ops.map(\.frame)).sorted()
        for f in frames {
            if let failure = replay(count: count, clockFrame: f).failure { return failure }
        }
        return nil
    }

    private func replay(count: Int, clockFrame: Int) -> (shown: [Int], failure: (SessionOp, String)?) {
        var history = SessionHistory()
        var next = 0
        func addStrokes(upTo position: Int) {
            while next < min(position, count) { history.add(next); next += 1 }
        }
        for op in ops {
            addStrokes(upTo: op.position)
            guard op.frame <= clockFrame else { continue }
            switch op.kind {
            case let .undo(k):
                for done in 0..<k where !history.undo() {
                    return (history.shown, (op, SessionTimeline.nothing("undo", k, done, op)))
                }
            case let .redo(k):
                for done in 0..<k where !history.redo() {
                    return (history.shown, (op, SessionTimeline.nothing("redo", k, done, op)))
                }
            case .clear:
                history.clear()
            }
        }
        addStrokes(upTo: count)
        return (history.shown, nil)
    }

    private static func nothing(_ verb: String, _ k: Int, _ done: Int, _ op: SessionOp) -> String {
        let what = done == 0 ? "nothing to \(verb)" : "only \(done) step\(done == 1 ? "" : "s") to \(verb)"
        return "\(verb) \(k) at t = \(op.time) s (frame \(op.frame)) has \(what) there; "
            + "expected a stroke or clear before it in draw\(verb == "redo" ? " that an undo took back, with no new stroke or clear since" : "")"
    }
}
