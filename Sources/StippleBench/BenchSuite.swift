import Stipple
import Foundation

/// The scenarios of `stipple bench`, measured in one run so that every comparison is a
/// ratio of numbers taken side by side on the same machine, driver and load.
public struct BenchSuite: Sendable {
    public var config: BenchConfig
    /// Called with a line of progress for people ("stamps: stipple points…").
    public var log: @Sendable (String) -> Void

    public init(config: BenchConfig, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.config = config
        self.log = log
    }

    public func run() async throws -> BenchReport {
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
            case .video: try await video(renderer, &report)
            case .session: try await session(renderer, &report)
            }
        }
        return report
    }

    // MARK: workloads

    var brush: Brush { .builtin(.softRound, size: config.brushSize) }
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

    // MARK: stamps

    func stamps(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        let stamps = randomStamps(config.stamps, radius: config.radius, width: config.width, height: config.height)
        let batch = [StampBatch(brushKey: "bench", brush: brush, stamps: stamps)]
        let pixels = Double(config.stamps) * Double(2 * config.radius) * Double(2 * config.radius)
        func figures(_ t: Timing) -> [String: Double] {
            ["stamps/s": Double(config.stamps) / t.median, "px/s": pixels / t.median, "ms/frame": t.median * 1e3]
        }
        var rows: [BenchRow] = []
        let canvas = self.canvas
        log("stamps: stipple points and the C baseline, alternately")
        let (points, c, pairRatio) = try await paired(renderer, stamps: stamps, perDraw: stamps.count) {
            try $0.drawImmediate(canvas: canvas, batches: batch, settings: RenderSettings(primitive: .points))
        }
        rows.append(BenchRow(scenario: "stamps", variant: "stipple points", workload: workload, timing: points,
                             figures: figures(points)))
        log("stamps: stipple quads")
        let quads = try await renderer.measure(warmup: config.warmup, reps: config.reps) {
            try $0.drawImmediate(canvas: canvas, batches: batch, settings: RenderSettings(primitive: .quads))
        }
        rows.append(BenchRow(scenario: "stamps", variant: "stipple quads", workload: workload, timing: quads,
                             figures: figures(quads)))
        rows.append(BenchRow(scenario: "stamps", variant: "C baseline points", workload: workload, timing: c,
                             figures: figures(c), note: "the same GL calls issued from C, measured alternately with Stipple"))
        log("stamps: cairo")
        switch BenchPeers.cairo(stamps: stamps, config: config, brush: brush) {
        case let .success(t):
            rows.append(BenchRow(scenario: "stamps", variant: "cairo (CPU)", workload: workload, timing: t,
                                 figures: figures(t), note: "libcairo image surface, one mask a stamp"))
        case let .failure(error):
            report.skipped.append("stamps/cairo: \(error.message)")
        }
        rows[0].ratio = pairRatio; rows[0].ratioTo = "C baseline points (median of alternate pairs)"
        rows[1].ratio = quads.median / points.median; rows[1].ratioTo = "stipple points"
        if let cairo = rows.first(where: { $0.variant.hasPrefix("cairo") }) {
            rows[rows.count - 1].ratio = cairo.timing.median / points.median
            rows[rows.count - 1].ratioTo = "stipple points"
            report.targets.append(.init(name: "stamps: cairo time / stipple time (N=\(config.stamps))",
                                        measured: cairo.timing.median / points.median, limit: 2, atMost: false))
        }
        report.targets.append(.init(name: "stamps: stipple / C baseline time per frame",
                                    measured: pairRatio, limit: 1.05, atMost: true))
        report.rows += rows
    }

    // MARK: draw calls

    func drawCalls(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        let n = config.drawCallStamps
        let stamps = randomStamps(n, radius: config.radius, width: config.width, height: config.height)
        let canvas = self.canvas
        for size in config.stampsPerDraw where size <= n {
            let draws = (n + size - 1) / size
            let batches = stride(from: 0, to: n, by: size).map {
                StampBatch(brushKey: "bench", brush: brush, stamps: Array(stamps[$0..<min($0 + size, n)]))
            }
            log("drawcalls: \(size) stamps a draw")
            let (s, c, pairRatio) = try await paired(renderer, stamps: stamps, perDraw: size) {
                try $0.drawImmediate(canvas: canvas, batches: batches)
            }
            let work = "N=\(n) in \(draws) draws of \(size)"
            func figures(_ t: Timing) -> [String: Double] {
                ["calls/s": Double(draws) / t.median, "µs/call": t.median / Double(draws) * 1e6,
                 "ms/frame": t.median * 1e3]
            }
            var row = BenchRow(scenario: "drawcalls", variant: "stipple", workload: work, timing: s, figures: figures(s))
            row.ratio = pairRatio
            row.ratioTo = "C baseline"
            report.rows.append(row)
            report.rows.append(BenchRow(scenario: "drawcalls", variant: "C baseline", workload: work, timing: c,
                                        figures: figures(c)))
            if size == 1 {
                report.targets.append(.init(name: "drawcalls: stipple / C baseline at 1 stamp a draw",
                                            measured: pairRatio, limit: 1.25, atMost: true))
            }
        }
    }

    // MARK: animation

    func animation(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        let k = config.newPerFrame
        let canvas = self.canvas
        for live in config.liveCounts {
            let maxAge = Float(max(1, live / k))
            let effects = AgeEffects(maxAge: maxAge, dissolveDistance: 6, pointScale: 1)
            // k stamps born at each of the frames −(M−1)…0: L live at frame 0, ages at frame 0.
            let initial = randomStamps(live, radius: config.radius, width: config.width, height: config.height,
                                       age: { Float(Int(maxAge) - 1 - $0 / k) })
            let fresh = randomStamps(k * (config.animationFrames + config.warmup + 1), radius: config.radius,
                                     width: config.width, height: config.height)
            for strategy in UploadStrategy.allCases {
                log("animation: L=\(live) k=\(k) \(strategy.rawValue)")
                let layer = await renderer.makeLayer(brushKey: "bench", brush: brush)
                try await renderer.append(initial, rotations: nil, to: layer)
                try await renderer.drawLayers([layer], canvas: canvas, frame: 0,
                                              settings: RenderSettings(effects: effects), upload: strategy)
                let before = await renderer.statistics().bytesUploaded
                let clock = FrameClock()
                let t = try await renderer.measure(warmup: config.warmup, reps: config.animationFrames) { r in
                    // One tick: k stamps are born at this frame, then the frame is drawn.
                    clock.frame += 1
                    let frame = clock.frame
                    let born = fresh[((frame - 1) * k)..<(frame * k)].map { p -> SketchPoint in
                        var q = p
                        q.age = -Float(frame)
                        return q
                    }
                    try r.append(born, rotations: nil, to: layer)
                    try r.drawLayers([layer], canvas: canvas, frame: frame, settings: RenderSettings(effects: effects),
                                     upload: strategy)
                }
                let frames = config.warmup + config.animationFrames
                let bytes = Double(await renderer.statistics().bytesUploaded - before) / Double(frames)
                await renderer.removeLayer(layer)
                report.rows.append(BenchRow(
                    scenario: "animation", variant: strategy.rawValue, workload: "L=\(live) k=\(k) M=\(Int(maxAge))",
                    timing: t, figures: ["ms/frame": t.median * 1e3, "bytes/frame": bytes,
                                         "stamps/s": Double(live) / t.median]))
            }
        }
    }

    // MARK: read-back

    func readback(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        for size in config.readbackSizes {
            let (w, h) = (size[0], size[1])
            let canvas = Canvas(width: w, height: h, background: .color(Color(hex: "#101014")!))
            let stamps = randomStamps(max(1, w * h / 200), radius: config.radius * 2, width: w, height: h)
            log("readback: \(w)×\(h)")
            let image = try await renderer.render(canvas: canvas, batches: [StampBatch(brushKey: "bench", brush: brush, stamps: stamps)])
            let read = try await renderer.measureReadback(warmup: config.warmup, reps: config.reps)
            let premultiplied = try await renderer.renderPremultiplied(canvas: canvas, batches: [])
            let unpremultiply = Timing.measure(warmup: config.warmup, reps: config.reps) {
                _ = Image(width: w, height: h, premultiplied: premultiplied)
            }
            var bytes = 0
            let encode = try Timing.measure(warmup: 1, reps: max(3, config.reps / 2)) {
                bytes = try PNGFile.encode(image).count
            }
            let work = "\(w)×\(h)"
            report.rows.append(BenchRow(scenario: "readback", variant: "glReadPixels + flip", workload: work,
                                        timing: read, figures: ["ms": read.median * 1e3]))
            report.rows.append(BenchRow(scenario: "readback", variant: "un-premultiply", workload: work,
                                        timing: unpremultiply, figures: ["ms": unpremultiply.median * 1e3]))
            report.rows.append(BenchRow(scenario: "readback", variant: "PNG encode (zlib \(PNGFile.defaultCompression))",
                                        workload: work, timing: encode,
                                        figures: ["ms": encode.median * 1e3, "bytes": Double(bytes)]))
        }
    }

    // MARK: upload strategies

    func upload(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        let stamps = randomStamps(config.stamps, radius: config.radius, width: config.width, height: config.height)
        let batch = [StampBatch(brushKey: "bench", brush: brush, stamps: stamps)]
        let canvas = self.canvas
        var base: Double?
        for strategy in BufferWrite.allCases {
            log("upload: \(strategy.rawValue)")
            await renderer.setBufferWrite(strategy)
            let t = try await renderer.measure(warmup: config.warmup, reps: config.reps) {
                try $0.drawImmediate(canvas: canvas, batches: batch)
            }
            var row = BenchRow(scenario: "upload", variant: strategy.rawValue, workload: workload, timing: t,
                               figures: ["ms/frame": t.median * 1e3,
                                         "MB/s": Double(stamps.count * SketchPoint.byteSize) / t.median / 1e6])
            if let base { row.ratio = t.median / base; row.ratioTo = "subData" } else { base = t.median }
            report.rows.append(row)
        }
        await renderer.setBufferWrite(.subData)
    }

    // MARK: frame sequences

    /// A Periscope-style animation (k new stamps a frame, M = 110) rendered to PNG files:
    /// rendering alone, encoding alone, then the two overlapped as `render --frames` does.
    func sequence(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        let frames = config.sequenceFrames
        let k = max(1, config.newPerFrame / 4)
        let effects = AgeEffects(maxAge: 110, dissolveDistance: 6, pointScale: 1)
        let stamps = randomStamps(k * frames, radius: config.radius * 2, width: config.width, height: config.height,
                                  age: { -Float($0 / k) })
        let canvas = Canvas(width: config.width, height: config.height, background: .color(Color(hex: "#101014")!))
        let settings = RenderSettings(effects: effects)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stipple-bench-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let work = "\(frames) frames \(config.width)×\(config.height), \(k) new a frame, M=110, PNG level \(config.compression)"

        func layer() async throws -> LayerID {
            let id = await renderer.makeLayer(brushKey: "bench", brush: brush)
            try await renderer.append(stamps, rotations: nil, to: id)
            return id
        }

        log("sequence: render only")
        let renderLayer = try await layer()
        var images: [Image] = []  // a sample kept for the encode-only pass
        let renderCPU0 = cpuSeconds()
        let start = DispatchTime.now().uptimeNanoseconds
        for n in 0..<frames {
            let image = try await renderer.renderLayers([renderLayer], canvas: canvas, frame: n, settings: settings)
            if n % max(1, frames / 10) == 0 { images.append(image) }
        }
        let renderOnly = seconds(since: start)
        let renderCPU = cpuSeconds() - renderCPU0
        await renderer.removeLayer(renderLayer)

        log("sequence: encode only")
        let encodeCPU0 = cpuSeconds()
        let encodeStart = DispatchTime.now().uptimeNanoseconds
        for n in 0..<frames {
            try PNGFile.write(images[n % images.count], to: (folder as NSString).appendingPathComponent("e-\(n).png"),
                              compression: config.compression, durable: false)
        }
        let encodeOnly = seconds(since: encodeStart)
        let encodeCPU = cpuSeconds() - encodeCPU0

        log("sequence: render and encode overlapped")
        let pipeLayer = try await layer()
        let sequence = FrameSequence(frames: 0...(frames - 1), folder: folder, compression: config.compression)
        let pipeStart = DispatchTime.now().uptimeNanoseconds
        try await sequence.run(render: { n in
            try await renderer.renderLayers([pipeLayer], canvas: canvas, frame: n, settings: settings)
        })
        let overlapped = seconds(since: pipeStart)
        await renderer.removeLayer(pipeLayer)

        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        let bound = max(renderOnly, encodeOnly / cores)
        report.rows.append(BenchRow(scenario: "sequence", variant: "render only", workload: work,
                                    timing: Timing(samples: [renderOnly]),
                                    figures: ["s": renderOnly, "frames/s": Double(frames) / renderOnly, "cpu s": renderCPU]))
        report.rows.append(BenchRow(scenario: "sequence", variant: "encode + write only", workload: work,
                                    timing: Timing(samples: [encodeOnly]),
                                    figures: ["s": encodeOnly, "frames/s": Double(frames) / encodeOnly, "cpu s": encodeCPU]))
        var row = BenchRow(scenario: "sequence", variant: "overlapped (render --frames)", workload: work,
                           timing: Timing(samples: [overlapped]),
                           figures: ["s": overlapped, "frames/s": Double(frames) / overlapped])
        row.ratio = overlapped / bound
        row.ratioTo = "max(render only, encode only / \(Int(cores)) cores)"
        report.rows.append(row)
        report.targets.append(.init(name: "sequence: overlapped / max(render, encode / cores)",
                                    measured: overlapped / bound, limit: 1.2, atMost: true))
        // Without a GPU the renderer's own threads need the same cores as the encoders: the
        // CPU work of both, spread over every core, is the floor on this kind of machine.
        let cpuBound = max(bound, (renderCPU + encodeCPU) / cores)
        var floorRow = row
        floorRow.variant = "overlapped vs CPU floor"
        floorRow.ratio = overlapped / cpuBound
        floorRow.ratioTo = "(render CPU + encode CPU) / \(Int(cores)) cores = \(String(format: "%.2f", cpuBound)) s"
        report.rows.append(floorRow)
    }

    /// CPU seconds this process has used, all threads (user + system).
    private func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return s(usage.ru_utime) + s(usage.ru_stime)
    }

    private func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}

/// The animation scenario's clock: only ever touched inside `Renderer.measure`'s body, on
/// the render thread, one tick after another.
private final class FrameClock: @unchecked Sendable {
    var frame = 0
}

func format(_ v: Float) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
