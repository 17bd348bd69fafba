/// Timelapse (`--speed F`): touch times and session entries play F times faster, while stamps
/// still age one frame a frame of output. A stroke drawn over ten minutes becomes one of 30
/// seconds at F = 20; its stamps are the same, only born sooner (`touchRate`).
extension Script {
    /// The rate that turns touch times (and session entry times) into frames: `fps / speed`.
    public var touchRate: Double { fps / speed }

    /// Plays the script `speed` times faster (`speed` > 0). The clock starts at the first
    /// touch: a saved drawing's `startFrame` (the frame it was saved at) is dropped, so its
    /// timelapse replays its kept strokes in order from frame 0.
    /// An undo or redo left with nothing to act on is bad input, as in the script.
    public mutating func play(atSpeed speed: Double) throws(InputError) {
        precondition(speed > 0 && speed.isFinite, "a speed is > 0")
        self.speed = speed
        session.startFrame = 0
        retimeSession()
        try checkSession()
    }

    /// An undo or redo with nothing to act on, at any frame, is bad input (docs/reference.md §12).
    func checkSession() throws(InputError) {
        if let (op, message) = session.firstProblem(count: draw.count) {
            throw InputError(file: path, location: op.location, message)
        }
    }

    /// Recomputes each session entry's frame from its time at `touchRate` (after a change of
    /// `fps` or `speed`).
    mutating func retimeSession() {
        for i in session.ops.indices {
            session.ops[i].frame = SessionOp.clockFrame(of: session.ops[i].time, fps: touchRate)
        }
    }
}
