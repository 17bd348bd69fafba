import CStipple
import Foundation

/// The server's heap: shared between its many threads, and given back as it empties.
extension StippleServer {
    /// One malloc arena a core, not glibc's eight: the server's many threads (connections,
    /// tile jobs) each took an arena of their own, every one holding freed tile bytes that
    /// the others could not reuse. `MALLOC_ARENA_MAX` in the environment still rules.
    static func limitHeapArenas() {
        guard getenv("MALLOC_ARENA_MAX") == nil else { return }
        _ = stp_heap_limit_arenas(Int32(max(2, ProcessInfo.processInfo.activeProcessorCount)))
    }

    /// Seconds between giving freed heap pages back to the system (a few milliseconds each).
    static let trimInterval = 10.0

    /// Gives freed heap pages back to the system every `trimInterval`, until cancelled: a
    /// server that runs for days would otherwise keep every page it ever used for tiles
    /// (cached, decoded, encoded) at its peak, however little it holds now.
    static func trimHeapNowAndThen() async throws {
        while !Task.isCancelled {
            try await Task.sleep(for: .seconds(trimInterval))
            _ = stp_heap_trim()
        }
    }
}
