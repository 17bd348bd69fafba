import Stipple

extension Renderer {
    /// Times `frame` on the render thread: `warmup` untimed runs, then `reps` timed ones,
    /// each ending with `glFinish`, so a time covers the GPU's work and not just its queueing.
    func measure(warmup: Int, reps: Int, _ frame: @Sendable (isolated Renderer) throws -> Void) throws -> Timing {
        try Timing.measure(warmup: warmup, reps: reps) {
            try frame(self)
            finish()
        }
    }

    /// Times reading the current frame back (`glReadPixels`, rows flipped), premultiplied.
    func measureReadback(warmup: Int, reps: Int) throws -> Timing {
        finish()
        return try Timing.measure(warmup: warmup, reps: reps) { _ = try readFrame() }
    }
}
