import Foundation
import Synchronization

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

/// The drawing's latest version a viewer's live socket told it of (`hello`, then each
/// `changed`): what its requests name as the version they know the tiles at.
final class SeenVersion: Sendable {
    private let latest: Mutex<Int>
    init(_ version: Int) { latest = Mutex(version) }
    func saw(_ version: Int) { latest.withLock { $0 = max($0, version) } }
    var version: Int { latest.withLock { $0 } }
}
