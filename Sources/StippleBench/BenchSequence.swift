import Stipple
import Foundation

/// Scenario `sequence`: frames to PNG files, rendering and encoding apart and overlapped.
extension BenchSuite {
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
        // 300 frames of about 1.2 MB a step, in memory where the system has room (`outputFolder`).
        let folder = try BenchSuite.outputFolder("stipple-bench-sequence", bytes: frames * config.width * config.height * 4)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let work = "\(frames) frames \(config.width)×\(config.height), \(k) new a frame, M=110, PNG level \(config.compression), "
            + "files in \((folder as NSString).deletingLastPathComponent)"

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
        let encoded = (0..<frames).map { (folder as NSString).appendingPathComponent("e-\($0).png") }
        let encodeCPU0 = cpuSeconds()
        let encodeStart = DispatchTime.now().uptimeNanoseconds
        for n in 0..<frames {
            try PNGFile.write(images[n % images.count], to: encoded[n], compression: config.compression, durable: false)
        }
        let encodeOnly = seconds(since: encodeStart)
        let encodeCPU = cpuSeconds() - encodeCPU0
        // Each step writes into a folder as empty as a user's run finds it. Left in place, the
        // encode-only step's files (about 300 MB at 1280×720) made the overlapped step's own
        // writes, about as many bytes, cost the kernel several times the CPU: `perf` counted
        // 566 samples in write(2) there against 71 in the encode-only step.
        for path in encoded { unlink(path) }

        log("sequence: render and encode overlapped")
        let pipeLayer = try await layer()
        let sequence = FrameSequence(frames: 0...(frames - 1), folder: folder, compression: config.compression)
        let pipeCPU0 = cpuSeconds()
        let pipeStart = DispatchTime.now().uptimeNanoseconds
        try await sequence.run(render: { n in
            try await renderer.renderLayers([pipeLayer], canvas: canvas, frame: n, settings: settings)
        })
        let overlapped = seconds(since: pipeStart)
        let pipeCPU = cpuSeconds() - pipeCPU0
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
                           figures: ["s": overlapped, "frames/s": Double(frames) / overlapped, "cpu s": pipeCPU])
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
        try pngOutputs(&report)
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
