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

/// The server's memory, as `/stats.json` reports it.
enum ServeStatistics {
    /// The process's resident memory (VmRSS), bytes; 0 where /proc does not say.
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kb = Int(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kb * 1024
    }

    /// The malloc heap: the bytes of live allocations, and the bytes it holds from the system
    /// (used or free); both 0 where the C library does not say.
    static func heap() -> (used: UInt64, held: UInt64) {
        var used: UInt64 = 0, held: UInt64 = 0
        stp_heap_figures(&used, &held)
        return (used, held)
    }
}
