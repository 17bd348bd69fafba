import Stipple
import Foundation

/// Seconds measured over repetitions, and the figures people read from them.
package struct Timing: Sendable, Equatable, Codable {
    package var samples: [Double]

    package init(samples: [Double]) {
        precondition(!samples.isEmpty, "a timing needs at least one sample")
        self.samples = samples
    }

    private var sorted: [Double] { samples.sorted() }
    package var min: Double { sorted.first! }
    package var max: Double { sorted.last! }
    package var median: Double {
        let s = sorted, n = s.count
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
    }
    /// The 95th percentile, nearest rank.
    package var p95: Double {
        let s = sorted
        let rank = Int((0.95 * Double(s.count)).rounded(.up))
        return s[Swift.max(0, Swift.min(s.count - 1, rank - 1))]
    }

    /// Runs `body` `warmup` times untimed, then `reps` times timed with a monotonic clock.
    package static func measure(warmup: Int, reps: Int, _ body: () throws -> Void) rethrows -> Timing {
        for _ in 0..<warmup { try body() }
        var samples: [Double] = []
        samples.reserveCapacity(reps)
        for _ in 0..<Swift.max(reps, 1) {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return Timing(samples: samples)
    }
}
