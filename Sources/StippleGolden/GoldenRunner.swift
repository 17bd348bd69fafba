import Stipple
import Foundation
import Synchronization

/// Runs golden cases on `jobs` renderers, each with its own render thread and GL context,
/// pulling cases from one shared queue. Results come back in case order whatever `jobs` is;
/// a case that cannot be rendered (a bad script, say) is that case's `.error`, and the run goes on.
public struct GoldenRunner: Sendable {
    /// Where goldens and outputs go, how many renderers, and when to record.
    public struct Options: Sendable {
        /// The golden folder.
        public var goldenDirectory: String
        /// Where failure images are written, a folder a case.
        public var outputDirectory: String
        /// Renderers working at once, each with its own render thread and GL context.
        public var jobs: Int
        /// When goldens are written; nil: `missing`, or `never` when `isCI`.
        public var record: GoldenRecordMode?
        /// Keep expected, actual and diff images of passing cases too.
        public var keepDiffs: Bool
        /// Running in CI: no golden is written unless a record mode says so.
        public var isCI: Bool
        /// The EGL platform the renderers open.
        public var platform: EGLPlatform
        /// How to accept one failing case (see `GoldenCheck.acceptCommand`).
        public var acceptCommand: (@Sendable (GoldenCaseResult) -> String?)?

        /// Options for a run against `goldenDirectory`, writing images to `outputDirectory`.
        public init(goldenDirectory: String, outputDirectory: String, jobs: Int = 1, record: GoldenRecordMode? = nil,
                    keepDiffs: Bool = false, isCI: Bool = false, platform: EGLPlatform = .automatic,
                    acceptCommand: (@Sendable (GoldenCaseResult) -> String?)? = nil) {
            self.goldenDirectory = goldenDirectory; self.outputDirectory = outputDirectory; self.jobs = jobs
            self.record = record; self.keepDiffs = keepDiffs; self.isCI = isCI; self.platform = platform
            self.acceptCommand = acceptCommand
        }

        /// The record mode in effect: the one given, else `missing` (`never` in CI).
        public var recordMode: GoldenRecordMode { record ?? .default(isCI: isCI) }
    }

    /// The run's options.
    public var options: Options

    /// Asks a run to stop: no case starts after `stop(_:)`; those being drawn finish, and
    /// the report holds the cases that ran, marked interrupted.
    public final class Stop: Sendable {
        private let reason = Mutex<String?>(nil)
        public init() {}
        /// Stops the run, for `why` (e.g. "SIGINT"); the first reason given is kept.
        public func stop(_ why: String) { reason.withLock { if $0 == nil { $0 = why } } }
        /// Why the run was stopped, or nil.
        public var stopped: String? { reason.withLock { $0 } }
    }

    /// A runner with `options`.
    public init(options: Options) { self.options = options }

    /// Opens the renderers (throws when EGL cannot be opened: not any one case's fault),
    /// runs `cases`, and calls `progress` with each result in case order as soon as it can.
    /// `started` is told the driver once the renderers are open, before any case runs.
    /// `stop`, once stopped, keeps any further case from starting.
    public func run(_ cases: [GoldenCase], shard: Shard? = nil, stop: Stop? = nil, started: ((DriverIdentity) -> Void)? = nil,
                    progress: (@Sendable (GoldenCaseResult) -> Void)? = nil) async throws -> GoldenRunReport {
        let count = max(1, min(options.jobs, cases.count))
        var renderers: [Renderer] = []
        for _ in 0..<count { renderers.append(try Renderer(platform: options.platform)) }
        let driver = DriverIdentity(renderers[0].info)
        started?(driver)
        let check = GoldenCheck(store: GoldenStore(directory: options.goldenDirectory),
                                outputDirectory: options.outputDirectory, driver: driver, record: options.recordMode,
                                keepDiffs: options.keepDiffs, acceptCommand: options.acceptCommand)
        let queue = CaseQueue(count: cases.count)
        let collector = OrderedCollector(count: cases.count, emit: progress)
        await withTaskGroup(of: Void.self) { group in
            for renderer in renderers {
                group.addTask {
                    while stop?.stopped == nil, let i = await queue.take() {
                        let result = await GoldenRunner.runCase(cases[i], on: renderer, check: check)
                        await collector.put(result, at: i)
                    }
                }
            }
        }
        // Ended here, off the render threads, so that no renderer's last release lands on its own
        // thread (which cannot wait for itself) and its teardown races the process's exit.
        for r in renderers { r.shutDown() }
        var report = GoldenRunReport(driver: driver, shard: shard?.description, cases: await collector.results(),
                                     goldenDirectory: options.goldenDirectory, outputDirectory: options.outputDirectory)
        if let why = stop?.stopped, report.cases.count < cases.count {
            report.interrupted = why
            report.notRun = cases.count - report.cases.count
        }
        return report
    }

    /// Loads, renders and checks one case. Loading and comparing happen off the render thread,
    /// so with several jobs one case's PNG work overlaps another's drawing.
    static func runCase(_ c: GoldenCase, on renderer: Renderer, check: GoldenCheck) async -> GoldenCaseResult {
        let started = Date()
        do {
            let scene = try Scene.load(path: c.scriptPath)
            return await check.check(c, started: started) {
                try await renderer.render(scene, frame: c.frame, primitive: c.primitive)
            }
        } catch {
            return GoldenCaseResult(name: c.name, script: c.scriptPath, frame: c.frame, primitive: c.primitive.rawValue,
                                    verdict: .error, message: "\(error)",
                                    tolerance: c.effectiveTolerance(crossDriver: false), driver: check.driver,
                                    seconds: Date().timeIntervalSince(started))
        }
    }
}

/// Hands out case indices, each once.
private actor CaseQueue {
    private var next = 0
    private let count: Int
    init(count: Int) { self.count = count }
    func take() -> Int? {
        guard next < count else { return nil }
        defer { next += 1 }
        return next
    }
}

/// Keeps results in case order and reports each as soon as every earlier one is in.
private actor OrderedCollector {
    private var slots: [GoldenCaseResult?]
    private var emitted = 0
    private let emit: (@Sendable (GoldenCaseResult) -> Void)?

    init(count: Int, emit: (@Sendable (GoldenCaseResult) -> Void)?) {
        slots = Array(repeating: nil, count: count); self.emit = emit
    }

    func put(_ result: GoldenCaseResult, at i: Int) {
        slots[i] = result
        while emitted < slots.count, let r = slots[emitted] {
            emit?(r)
            emitted += 1
        }
    }

    func results() -> [GoldenCaseResult] { slots.compactMap { $0 } }
}
