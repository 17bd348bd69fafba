import Stipple
import Foundation

/// One measured line of a benchmark: what ran, how long it took, and what that means.
package struct BenchRow: Sendable, Codable {
    package var scenario: String
    /// What was measured: "stipple points", "C baseline", "cairo", "resident"…
    package var variant: String
    /// The workload in words: "N=100000 r=4 1280×720".
    package var workload: String
    /// Seconds a repetition.
    package var timing: Timing
    /// Derived figures by name: "stamps/s", "px/s", "calls/s", "µs/call", "bytes/frame"…
    package var figures: [String: Double]
    /// A ratio to the row it is compared with, and what that row is.
    package var ratio: Double?
    package var ratioTo: String?
    /// What the ratio divides when it is not time ("RSS"): the table then names `ratioTo` alone.
    package var ratioOf: String?
    package var note: String?

    package init(scenario: String, variant: String, workload: String, timing: Timing,
                figures: [String: Double] = [:], note: String? = nil) {
        self.scenario = scenario; self.variant = variant; self.workload = workload
        self.timing = timing; self.figures = figures; self.note = note
    }
}

/// A whole run: the machine, the driver and every row.
package struct BenchReport: Sendable, Codable {
    package var date: String
    package var platform: String
    package var renderer: String
    package var glVersion: String
    package var llvmpipeThreads: String
    package var cores: Int
    package var config: BenchConfig
    package var rows: [BenchRow] = []
    /// Scenarios that could not run here, and why (Cairo missing, …).
    package var skipped: [String] = []
    /// What a scenario saw that a row cannot hold (the errors of a load, by kind).
    package var notes: [String]?
    /// The throughput targets, each with its measured ratio and verdict.
    package var targets: [Target] = []
    /// A `--quick` run: its small sizes and few repetitions cannot judge the targets.
    package var quick: Bool?
    /// The command that ran, and how long the whole run took, seconds.
    package var command: String?
    package var seconds: Double?

    package struct Target: Sendable, Codable {
        package var name: String
        package var measured: Double
        package var limit: Double
        /// true when `measured` must be at most `limit`; false when at least.
        package var atMost: Bool
        package var met: Bool { atMost ? measured <= limit : measured >= limit }

        /// What the target asks, in words (by the target's scenario prefix).
        package var explanation: String {
            let words: [(String, String)] = [
                ("stamps: cairo", "Stipple on llvmpipe at least 2× as fast as Cairo drawing the same stamps on the CPU"),
                ("stamps: stipple / C", "the Swift layer adds at most 5 % to the same GL calls issued from C"),
                ("drawcalls:", "at one stamp a draw (the cost of a call), at most 25 % over the same calls from C"),
                ("sequence: busy", "PNG frames over a photo-like background at most 1.5× their time stored uncompressed"),
                ("sequence: a still", "a still PNG at most 1.1× its time stored uncompressed"),
                ("sequence:", "frames to PNG overlap rendering and encoding: within 1.2× the slower of the two"),
            ]
            return words.first { name.hasPrefix($0.0) }?.1 ?? ""
        }
    }
}

/// How many rendering threads llvmpipe runs: `LP_NUM_THREADS` when set, else what Mesa
/// picks by default, one a CPU core (at most 16, Mesa's LP_MAX_THREADS).
package enum LlvmpipeThreads {
    package static func count(environment: [String: String] = ProcessInfo.processInfo.environment,
                             cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
        if let text = environment["LP_NUM_THREADS"], let n = Int(text.trimmingCharacters(in: .whitespaces)), n >= 0 {
            return min(n, 16)
        }
        return min(max(cores, 1), 16)
    }

    /// True when `renderer` (GL_RENDERER) is llvmpipe: the only driver whose threads these are.
    package static func apply(to renderer: String) -> Bool { renderer.hasPrefix("llvmpipe") }

    /// `2 (one a core, the default)` or `4 (LP_NUM_THREADS=4)`.
    package static func describe(environment: [String: String] = ProcessInfo.processInfo.environment,
                                cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> String {
        let n = count(environment: environment, cores: cores)
        if let text = environment["LP_NUM_THREADS"], Int(text.trimmingCharacters(in: .whitespaces)) != nil {
            return "\(n) (LP_NUM_THREADS=\(text))"
        }
        return "\(n) (one a core, llvmpipe's default)"
    }
}

extension BenchReport {
    /// A figure that never finished (a tile still stale when its viewer moved on counts as
    /// answered never) is infinite, which JSON cannot hold: written as the string "inf".
    private static let infinite = (positive: "inf", negative: "-inf", nan: "nan")

    /// The encoder the report is written with as JSON.
    package static func jsonEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: infinite.positive,
                                                                      negativeInfinity: infinite.negative, nan: infinite.nan)
        return encoder
    }

    /// The decoder that reads it back.
    package static func jsonDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: infinite.positive,
                                                                        negativeInfinity: infinite.negative, nan: infinite.nan)
        return decoder
    }
}
