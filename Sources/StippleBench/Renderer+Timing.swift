import Stipple
import Foundation

extension Renderer {
    /// Times `frame` on the render thread: `warmup` untimed runs, then `reps` timed ones,
    /// each ending with `glFinish`, so a time covers the GPU's work and not just its queueing.
    func measure(warmup: Int, reps: Int, _ frame: @Sendable (isolated Renderer) throws -> Void) throws -> Timing {
        try Timing.measure(warmup: warmup, reps: reps) {
            try frame(self)
            finish()
        }
    }

    /// Times `count` variants of a frame in turn, one run of each a round, so that the load's
    /// drift over seconds falls on all of them alike: `warmup` untimed rounds, then `reps`
    /// timed ones, each run ending with `glFinish`. Returns each variant's seconds, by round.
    func measureInTurn(warmup: Int, reps: Int, count: Int,
                       _ frame: @Sendable (isolated Renderer, Int) throws -> Void) throws -> [[Double]] {
        var samples = [[Double]](repeating: [], count: count)
        for round in 0..<(warmup + Swift.max(reps, 1)) {
            for v in 0..<count {
                let start = DispatchTime.now().uptimeNanoseconds
                try frame(self, v)
                finish()
                if round >= warmup { samples[v].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9) }
            }
        }
        return samples
    }

    /// Times reading the current frame back (`glReadPixels`, rows flipped), premultiplied.
    func measureReadback(warmup: Int, reps: Int) throws -> Timing {
        finish()
        return try Timing.measure(warmup: warmup, reps: reps) { _ = try readFrame() }
    }
}
