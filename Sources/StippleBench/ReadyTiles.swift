import Foundation

/// The tiles a viewer's server says are made (`{"ready": …}` on its live socket), for the
/// viewer's thread to ask for again.
final class ReadyTiles: @unchecked Sendable {
    // Unchecked: `paths` is guarded by `condition`.
    private let condition = NSCondition()
    private var paths: Set<String> = []

    func post(_ path: String) {
        condition.lock()
        paths.insert(path)
        condition.signal()
        condition.unlock()
    }

    /// Forgets what was told before a new view.
    func clear() {
        condition.lock()
        paths = []
        condition.unlock()
    }

    /// Those of `wanted` told made, taken; waits for one until `deadline` (`now()`'s clock).
    func wait(for wanted: Set<String>, until deadline: Double, now: () -> Double) -> Set<String> {
        condition.lock()
        defer { condition.unlock() }
        while true {
            let made = paths.intersection(wanted)
            if !made.isEmpty {
                paths.subtract(made)
                return made
            }
            let left = deadline - now()
            guard left > 0 else { return [] }
            _ = condition.wait(until: Date(timeIntervalSinceNow: left))
        }
    }
}
