import Stipple
import Foundation

/// One measured line of a benchmark: what ran, how long it took, and what that means.
public struct BenchRow: Sendable, Codable {
    public var scenario: String
    /// What was measured: "stipple points", "C baseline", "cairo", "resident"…
    public var variant: String
    /// The workload in words: "N=100000 r=4 1280×720".
    public var workload: String
    /// Seconds a repetition.
    public var timing: Timing
    /// Derived figures by name: "stamps/s", "px/s", "calls/s", "µs/call", "bytes/frame"…
    public var figures: [String: Double]
    /// A ratio to the row it is compared with, and what that row is.
    public var ratio: Double?
    public var ratioTo: String?
    public var note: String?

    public init(scenario: String, variant: String, workload: String, timing: Timing,
                figures: [String: Double] = [:], note: String? = nil) {
        self.scenario = scenario; self.variant = variant; self.workload = workload
        self.timing = timing; self.figures = figures; self.note = note
    }
}

/// A whole run: the machine, the driver and every row.
public struct BenchReport: Sendable, Codable {
    public var date: String
    public var platform: String
    public var renderer: String
    public var glVersion: String
    public var llvmpipeThreads: String
    public var cores: Int
    public var config: BenchConfig
    public var rows: [BenchRow] = []
    /// Scenarios that could not run here, and why (Cairo missing, …).
    public var skipped: [String] = []
    /// The targets of issue 4, each with its measured ratio and verdict.
    public var targets: [Target] = []
    /// A `--quick` run: its small sizes and few repetitions cannot judge the targets.
    public var quick: Bool?

    public struct Target: Sendable, Codable {
        public var name: String
        public var measured: Double
        public var limit: Double
        /// true when `measured` must be at most `limit`; false when at least.
        public var atMost: Bool
        public var met: Bool { atMost ? measured <= limit : measured >= limit }

        /// What the target asks, in words (by the target's scenario prefix).
        public var explanation: String {
            let words: [(String, String)] = [
                ("stamps: cairo", "Stipple on llvmpipe at least 2× as fast as Cairo drawing the same stamps on the CPU"),
                ("stamps: stipple / C", "the Swift layer adds at most 5 % to the same GL calls issued from C"),
                ("drawcalls:", "at one stamp a draw (the cost of a call), at most 25 % over the same calls from C"),
                ("sequence:", "frames to PNG overlap rendering and encoding: within 1.2× the slower of the two"),
            ]
            return words.first { name.hasPrefix($0.0) }?.1 ?? ""
        }
    }
}

/// How many rendering threads llvmpipe runs: `LP_NUM_THREADS` when set, else what Mesa
/// picks by default, one a CPU core (at most 16, Mesa's LP_MAX_THREADS).
public enum LlvmpipeThreads {
    public static func count(environment: [String: String] = ProcessInfo.processInfo.environment,
                             cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
        if let text = environment["LP_NUM_THREADS"], let n = Int(text.trimmingCharacters(in: .whitespaces)), n >= 0 {
            return min(n, 16)
        }
        return min(max(cores, 1), 16)
    }

    /// `2 (one a core, the default)` or `4 (LP_NUM_THREADS=4)`.
    public static func describe(environment: [String: String] = ProcessInfo.processInfo.environment,
                                cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> String {
        let n = count(environment: environment, cores: cores)
        if let text = environment["LP_NUM_THREADS"], Int(text.trimmingCharacters(in: .whitespaces)) != nil {
            return "\(n) (LP_NUM_THREADS=\(text))"
        }
        return "\(n) (one a core, llvmpipe's default)"
    }
}
