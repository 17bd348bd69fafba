import CStipple

extension Renderer {
    /// Times `frame` on the render thread: `warmup` untimed runs, then `reps` timed ones,
    /// each ending with `glFinish`, so a time covers the GPU's work and not just its queueing.
    public func measure(warmup: Int, reps: Int, _ frame: @Sendable (isolated Renderer) throws -> Void) throws -> Timing {
        try Timing.measure(warmup: warmup, reps: reps) {
            try frame(self)
            gl.finish()
        }
    }

    /// Times reading the current frame back (`glReadPixels`, rows flipped), premultiplied.
    public func measureReadback(warmup: Int, reps: Int) throws -> Timing {
        gl.finish()
        return try Timing.measure(warmup: warmup, reps: reps) { _ = try readFrame() }
    }

    /// Runs C code that calls GL directly (the benchmark's C baseline) on this render
    /// thread, then forgets what the state cache believed: the C code bound its own objects.
    public func runForeignGL<T: Sendable>(_ body: @Sendable () throws -> T) rethrows -> T {
        precondition(gl.context.isCurrentHere(), "foreign GL must run on the render thread")
        defer { gl.invalidateStateCache() }
        return try body()
    }

    /// The shader source as the renderer compiles it for `primitive`.
    public nonisolated func shaderSources(for primitive: Primitive) throws -> (vertex: String, fragment: String) {
        let defines = primitive == .quads ? ["STIPPLE_QUADS"] : []
        return (try ShaderProgram.source(file: "sketch.vert", defines: defines),
                try ShaderProgram.source(file: "sketch.frag", defines: defines))
    }
}
