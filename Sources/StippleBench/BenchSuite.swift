import Stipple
import Foundation

/// The scenarios of `stipple bench`, measured in one run so that every comparison is a
/// ratio of numbers taken side by side on the same machine, driver and load.
package struct BenchSuite: Sendable {
    package var config: BenchConfig { didSet { brush = Self.brush(config) } }
    /// The brush every workload draws with: one value, shared by every batch, as a script's
    /// brush table gives its entries (a brush made again for each batch would be a copy whose
    /// every byte the renderer compares when it looks up the batch's texture).
    private(set) var brush: Brush
    /// Called with a line of progress for people ("stamps: stipple points…").
    package var log: @Sendable (String) -> Void

    package init(config: BenchConfig, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.config = config
        self.log = log
        brush = Self.brush(config)
    }

    private static func brush(_ config: BenchConfig) -> Brush { .builtin(.softRound, size: config.brushSize) }

    package func run() async throws -> BenchReport {
        let renderer = try Renderer(platform: EGLPlatform.fromEnvironment(ProcessInfo.processInfo.environment))
        let info = renderer.info
        var report = BenchReport(
            date: ISO8601DateFormatter().string(from: Date()), platform: info.platform.rawValue,
            renderer: info.glRenderer, glVersion: info.glVersion,
            llvmpipeThreads: ProcessInfo.processInfo.environment["LP_NUM_THREADS"] ?? "default",
            cores: ProcessInfo.processInfo.activeProcessorCount, config: config)
        for scenario in config.scenarios {
            switch scenario {
            case .stamps: try await stamps(renderer, &report)
            case .drawcalls: try await drawCalls(renderer, &report)
            case .animation: try await animation(renderer, &report)
            case .readback: try await readback(renderer, &report)
            case .upload: try await upload(renderer, &report)
            case .sequence: try await sequence(renderer, &report)
            case .video:
                try await video(renderer, &report)
                try await videoGoals(renderer, &report)
            case .bake: try await videoGoals(renderer, &report)
            case .session: try await session(renderer, &report)
            case .tiles: try await tiles(renderer, &report)
            case .modes: try await modes(renderer, &report)
            case .ink: try await ink(renderer, &report)
            case .views: try await views(renderer, &report)
            case .serve: try await serve(&report)
            }
        }
        return report
    }

    // MARK: workloads

    var canvas: Canvas { Canvas(width: config.width, height: config.height) }

    /// N random stamps of radius r over the canvas, age 0, seeded.
    func randomStamps(_ count: Int, radius: Float, width: Int, height: Int, age: (Int) -> Float = { _ in 0 }) -> [SketchPoint] {
        var rng = SplitMix64(seed: config.seed)
        return (0..<count).map { i in
            SketchPoint(x: Float.random(in: 0..<Float(width), using: &rng),
                        y: Float.random(in: 0..<Float(height), using: &rng),
                        radius: radius, age: age(i),
                        dissolveAngle: Float.random(in: 0..<(2 * .pi), using: &rng),
                        red: Float.random(in: 0...1, using: &rng), green: Float.random(in: 0...1, using: &rng),
                        blue: Float.random(in: 0...1, using: &rng), alpha: Float.random(in: 0.2...1, using: &rng))
        }
    }

    /// Stipple and the C baseline measured in alternation, one repetition each in turn, so
    /// that a change of load on this shared machine falls on both alike. Returns both
    /// timings and the median of the per-pair ratios (Stipple / C).
    func paired(_ renderer: Renderer, stamps: [SketchPoint], perDraw: Int,
                stipple: @escaping @Sendable (isolated Renderer) throws -> Void) async throws -> (Timing, Timing, Double) {
        _ = try await renderer.measure(warmup: config.warmup, reps: 1, stipple)
        var s: [Double] = [], c: [Double] = []
        for _ in 0..<config.pairs {
            // Each side gets one untimed frame right before its timed one, so neither is timed
            // straight after the other's teardown (the C side builds and frees its objects each call).
            s += try await renderer.measure(warmup: 1, reps: 1, stipple).samples
            c += try await BenchPeers.cBaseline(renderer, stamps: stamps, perDraw: perDraw, config: config,
                                                 brush: brush, warmup: 1, reps: 1).samples
        }
        let ratios = zip(s, c).map { $0 / $1 }
        return (Timing(samples: s), Timing(samples: c), Timing(samples: ratios).median)
    }

    var workload: String { "N=\(config.stamps) r=\(format(config.radius)) \(config.width)×\(config.height)" }
}

func format(_ v: Float) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
