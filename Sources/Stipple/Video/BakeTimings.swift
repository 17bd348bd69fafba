/// Seconds a bake spent in each step on its main thread. The renderer draws frame n + 1,
/// and a thread of its own reads it, while frame n is composited and written, so `read` and
/// `waitingForRenderer` are the parts of reading and drawing that the other steps did not
/// hide.
package struct BakeTimings: Sendable, Equatable {
    package var frames = 0
    package var read = 0.0
    package var waitingForRenderer = 0.0
    package var composite = 0.0
    package var write = 0.0

    package init() {}

    /// Milliseconds a frame, by step name.
    package var millisecondsPerFrame: [String: Double] {
        let n = Double(max(frames, 1))
        return ["read ms": read * 1e3 / n, "render wait ms": waitingForRenderer * 1e3 / n,
                "composite ms": composite * 1e3 / n, "write ms": write * 1e3 / n]
    }
}
