/// Timelapse (`--speed F`): touch times and session entries play F times faster, while stamps
/// still age one frame a frame of output. A stroke drawn over ten minutes becomes one of 30
/// seconds at F = 20; its stamps are the same, only born sooner (`touchRate`).
extension Script {
    /// The rate that turns touch times (and session entry times) into frames: `fps / speed`.
    public var touchRate: Double { fps / speed }

    /// Plays the script `speed` times faster (`speed` > 0). The clock starts at the first
    /// touch: a saved drawing's `startFrame` (the frame it was saved at) is dropped, so its
    /// timelapse replays its kept strokes in order from frame 0.
    /// An undo or redo left with nothing to act on is bad input, as in the script; so is a
    /// speed that puts a touch time or a session entry past `Limits.maxTouchFrame` frames from
    /// frame 0 (checked before any time becomes a frame).
    public mutating func play(atSpeed speed: Double) throws(InputError) {
        precondition(speed > 0 && speed.isFinite, "a speed is > 0")
        try checkTimes(atSpeed: speed)
        self.speed = speed
        session.startFrame = 0
        retimeSession()
        try checkSession()
    }

    /// Every touch time and session entry time, played `speed` times faster, falls within
    /// `Limits.maxTouchFrame` frames of frame 0, and a second of touch time spans at most that
    /// many frames (so the rate itself is finite); else an error naming the first that does not.
    func checkTimes(atSpeed speed: Double) throws(InputError) {
        let rate = fps / speed
        let slowest = fps / Limits.maxTouchFrame
        guard rate.isFinite, rate > 0, rate <= Limits.maxTouchFrame else {
            throw InputError(file: path, "--speed \(speed) plays one second of touch time over \(rate) frames at \(fps) fps; "
                             + "the speed must be at least \(slowest) (one second at most \(Int(Limits.maxTouchFrame)) frames)")
        }
        func check(_ t: Double, _ location: InputLocation, _ what: String) throws(InputError) {
            guard abs(t * rate) > Limits.maxTouchFrame else { return }
            throw InputError(file: path, location: location,
                             "\(what) at t = \(t) s falls on frame \((t * rate).rounded(.down)) at --speed \(speed); "
                             + "touch times must fall within \(Int(Limits.maxTouchFrame)) frames of frame 0 "
                             + "(give a speed of at least \(abs(t) * fps / Limits.maxTouchFrame))")
        }
        for (i, entry) in draw.enumerated() {
            guard let stroke = entry.stroke, let last = stroke.samples.last, let first = stroke.samples.first else { continue }
            try check(abs(last.t) >= abs(first.t) ? last.t : first.t, entry.location, "draw entry \(i + 1)'s touch sample")
        }
        for op in session.ops { try check(op.time, op.location, "a session entry") }
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
