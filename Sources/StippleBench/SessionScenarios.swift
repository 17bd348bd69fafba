import Foundation
import Stipple

/// Drawing sessions (docs/reference.md §12, docs/sessions.md): undo latency over a backing layer against
/// replaying every stroke, a long Periscope-style session's frame time and memory, a
/// 10 000-stroke painting's memory, and frames while a large drawing is saved.
extension BenchSuite {
    func session(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        try await undoLatency(renderer, &report)
        try await undoLatencyWithModes(renderer, &report)
        try await longSession(renderer, frames: config.sessionFrames, &report)
        try await manyStrokes(renderer, &report)
        try await saveWhileDrawing(renderer, &report)
    }

    /// A stroke of `samples` touch samples wandering over the canvas, all at `frame`.
    static func benchStroke(_ rng: inout SplitMix64, width: Int, height: Int, samples: Int, step: Float,
                            t0: Double, dt: Double) -> [TouchSample] {
        var x = Float.random(in: 0..<Float(width), using: &rng), y = Float.random(in: 0..<Float(height), using: &rng)
        return (0..<samples).map { i in
            x = min(max(0, x + Float.random(in: -step...step, using: &rng)), Float(width))
            y = min(max(0, y + Float.random(in: -step...step, using: &rng)), Float(height))
            return TouchSample(x: x, y: y, t: t0 + Double(i) * dt, pressure: Float.random(in: 0.3...1, using: &rng))
        }
    }

    static func style(_ rng: inout SplitMix64, radius: Float) -> StrokeStyle {
        StrokeStyle(color: Color(red: .random(in: 0...1, using: &rng), green: .random(in: 0...1, using: &rng),
                                 blue: .random(in: 0...1, using: &rng), alpha: .random(in: 0.5...1, using: &rng)),
                    radius: radius)
    }

    static func draw(_ samples: [TouchSample], style: StrokeStyle, brush: Brush, on live: LiveCanvas) async throws {
        let id = await live.beginStroke(brushKey: "bench-session", brush: brush, style: style)
        for s in samples { try await live.add(s, to: id) }
        try await live.endStroke(id)
    }

    /// Resident memory of this process, bytes (Linux /proc/self/statm).
    static func residentBytes() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return 0 }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE)))
    }

    // MARK: undo latency

    /// 1 030 strokes at 1280×720: the oldest 1 000 baked into the backing layer, 30 undoable.
    /// Undo of the top stroke, to the next frame read back, against the naive way: every
    /// stroke still shown stamped again from its samples and drawn from scratch.
    func undoLatency(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        let (w, h) = (config.width, config.height)
        let baked = config.sessionBakedStrokes, kept = 30
        let canvas = Canvas(width: w, height: h, background: .color(Color(hex: "#101014")!))
        let live = LiveCanvas(renderer: renderer, canvas: canvas, undo: UndoLimits(steps: kept))
        var rng = SplitMix64(seed: config.seed)
        var strokes: [([TouchSample], StrokeStyle)] = []
        log("session: drawing \(baked + kept) strokes at \(w)×\(h)")
        for _ in 0..<(baked + kept) {
            let samples = BenchSuite.benchStroke(&rng, width: w, height: h, samples: 12, step: 40, t0: 0, dt: 0)
            let style = BenchSuite.style(&rng, radius: 6)
            strokes.append((samples, style))
            try await BenchSuite.draw(samples, style: style, brush: brush, on: live)
        }
        try await live.bakeAll()
        _ = try await live.render()
        let stats = await live.sessionStatistics
        let work = "\(w)×\(h), \(stats.strokesBaked) baked + \(kept) undoable strokes"
        log("session: undo latency")
        var undo: [Double] = []
        for _ in 0..<(config.warmup + config.reps) {
            let start = DispatchTime.now().uptimeNanoseconds
            try await live.undo()
            _ = try await live.render()
            undo.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            try await live.redo()
            _ = try await live.render()
        }
        let undoTiming = Timing(samples: Array(undo.dropFirst(config.warmup)))
        var drawn: [Double] = []
        for _ in 0..<(config.warmup + config.reps) {
            let start = DispatchTime.now().uptimeNanoseconds
            try await live.undo()
            try await live.drawFrame()
            drawn.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            try await live.redo()
            try await live.drawFrame()
        }
        let drawnTiming = Timing(samples: Array(drawn.dropFirst(config.warmup)))
        log("session: naive replay of every stroke")
        let all = strokes.dropLast()
        let brush = self.brush, fps = live.fps
        var naive: [Double] = []
        for _ in 0..<(1 + max(3, config.reps / 2)) {
            let start = DispatchTime.now().uptimeNanoseconds
            let batches = all.enumerated().map { i, s in
                StampBatch(brushKey: "bench-session", brush: brush,
                           stamps: StrokeBuilder.stamps(for: s.0, style: s.1, fps: fps, seed: 0, strokeIndex: i).map(\.point))
            }
            _ = try await renderer.render(canvas: canvas, batches: batches)
            naive.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let naiveTiming = Timing(samples: Array(naive.dropFirst()))
        var row = BenchRow(scenario: "session", variant: "undo → next frame", workload: work, timing: undoTiming,
                           figures: ["ms": undoTiming.median * 1e3, "max ms": undo.max()! * 1e3])
        row.ratio = undoTiming.median / naiveTiming.median
        row.ratioTo = "naive replay"
        report.rows.append(row)
        var drawnRow = BenchRow(scenario: "session", variant: "undo → frame drawn (no read-back)", workload: work,
                                timing: drawnTiming, figures: ["ms": drawnTiming.median * 1e3, "max ms": drawn.max()! * 1e3])
        drawnRow.ratio = drawnTiming.median / naiveTiming.median
        drawnRow.ratioTo = "naive replay"
        report.rows.append(drawnRow)
        report.rows.append(BenchRow(scenario: "session", variant: "naive replay (re-stamp + draw all)", workload: work,
                                    timing: naiveTiming, figures: ["ms": naiveTiming.median * 1e3]))
        report.targets.append(.init(name: "session: undo of the top stroke to a drawn frame, ms (one 60 Hz frame)",
                                    measured: drawnTiming.median * 1e3, limit: 16.7, atMost: true))
    }

    // MARK: a long session

    /// Periscope: 30 fps, maxAge 110, a new stroke every 2 s (drawn over 1 s, 2 samples a
    /// frame). Frame time and resident memory in the first 10 % after warm-up against the last
    /// 10 %, and the most layers (GL buffers) the session ever held.
    func longSession(_ renderer: Renderer, frames: Int, _ report: inout BenchReport) async throws {
        let (w, h) = (config.sessionWidth, config.sessionHeight)
        let canvas = Canvas(width: w, height: h, background: .color(Color(hex: "#101014")!))
        let settings = RenderSettings(effects: AgeEffects(maxAge: 110, dissolveDistance: 6, pointScale: 1))
        let live = LiveCanvas(renderer: renderer, canvas: canvas, settings: settings)
        var rng = SplitMix64(seed: config.seed &+ 1)
        var frameTimes: [Double] = [], rss: [Double] = []
        frameTimes.reserveCapacity(frames)
        var maxLayers = 0
        var stroke: (LiveCanvas.StrokeID, [TouchSample], StrokeStyle)?
        log("session: long session, \(frames) frames at \(w)×\(h)")
        for f in 0..<frames {
            let start = DispatchTime.now().uptimeNanoseconds
            let phase = f % 60
            if phase == 0 {
                let samples = BenchSuite.benchStroke(&rng, width: w, height: h, samples: 60, step: 12,
                                                     t0: Double(f) / 30, dt: 1.0 / 60)
                let style = BenchSuite.style(&rng, radius: 5)
                stroke = (await live.beginStroke(brushKey: "bench-session", brush: brush, style: style), samples, style)
            }
            if let (id, samples, _) = stroke, phase < 30 {
                try await live.add(samples[phase * 2], to: id)
                try await live.add(samples[phase * 2 + 1], to: id)
                if phase == 29 { try await live.endStroke(id); stroke = nil }
            }
            _ = try await live.render()
            await live.tick()
            frameTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            if f % 30 == 0 {
                rss.append(BenchSuite.residentBytes())
                maxLayers = max(maxLayers, await live.sessionStatistics.liveLayers)
            }
            if f > 0 && f % 20_000 == 0 { log("session: frame \(f)") }
        }
        let warm = min(frames / 10, 600)
        let body = Array(frameTimes[warm...]), rssBody = Array(rss[(warm / 30)...])
        let tenth = max(1, body.count / 10), rssTenth = max(1, rssBody.count / 10)
        let first = Timing(samples: Array(body.prefix(tenth))), last = Timing(samples: Array(body.suffix(tenth)))
        let rssFirst = rssBody.prefix(rssTenth).reduce(0, +) / Double(rssTenth)
        let rssLast = rssBody.suffix(rssTenth).reduce(0, +) / Double(rssTenth)
        let stats = await live.sessionStatistics
        let work = "\(frames) frames \(w)×\(h), M=110, a stroke every 2 s"
        var firstRow = BenchRow(scenario: "session", variant: "long session: first 10 %", workload: work, timing: first,
                                figures: ["ms/frame": first.median * 1e3, "max ms": first.samples.max()! * 1e3,
                                          "RSS MB": rssFirst / 1e6])
        firstRow.note = "after \(warm) warm-up frames"
        var lastRow = BenchRow(scenario: "session", variant: "long session: last 10 %", workload: work, timing: last,
                               figures: ["ms/frame": last.median * 1e3, "max ms": last.samples.max()! * 1e3,
                                         "RSS MB": rssLast / 1e6, "max layers": Double(maxLayers),
                                         "layers at end": Double(stats.liveLayers)])
        lastRow.ratio = last.median / first.median
        lastRow.ratioTo = "first 10 %"
        report.rows += [firstRow, lastRow]
        report.targets.append(.init(name: "session: long session frame time, last 10 % / first 10 %",
                                    measured: last.median / first.median, limit: 1.1, atMost: true))
        report.targets.append(.init(name: "session: long session RSS, last 10 % / first 10 %",
                                    measured: rssLast / rssFirst, limit: 1.1, atMost: true))
    }

    // MARK: many strokes

    /// 10 000 strokes at maxAge 0 (undo depth 30): resident memory after the first tenth and
    /// at the end. The strokes beyond the depth are baked, so memory follows the depth and
    /// the backing layer, not the stroke count.
    func manyStrokes(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        let (w, h) = (config.width, config.height)
        let count = config.sessionStrokes
        let canvas = Canvas(width: w, height: h, background: .color(Color(hex: "#101014")!))
        let live = LiveCanvas(renderer: renderer, canvas: canvas)
        var rng = SplitMix64(seed: config.seed &+ 2)
        var rssAtTenth = 0.0
        log("session: \(count) strokes at maxAge 0")
        let start = DispatchTime.now().uptimeNanoseconds
        for i in 0..<count {
            let samples = BenchSuite.benchStroke(&rng, width: w, height: h, samples: 8, step: 30, t0: 0, dt: 0)
            try await BenchSuite.draw(samples, style: BenchSuite.style(&rng, radius: 5), brush: brush, on: live)
            try await live.drawFrame()
            if i + 1 == count / 10 { rssAtTenth = BenchSuite.residentBytes() }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let rssEnd = BenchSuite.residentBytes()
        let stats = await live.sessionStatistics
        var row = BenchRow(scenario: "session", variant: "\(count) strokes, maxAge 0", workload: "\(w)×\(h), undo depth 30",
                           timing: Timing(samples: [seconds]),
                           figures: ["RSS MB at 1/10": rssAtTenth / 1e6, "RSS MB at end": rssEnd / 1e6,
                                     "kept strokes": Double(stats.keptStrokes), "layers": Double(stats.liveLayers),
                                     "baked": Double(stats.strokesBaked)])
        row.ratio = rssEnd / rssAtTenth
        row.ratioTo = "RSS after the first tenth"
        row.ratioOf = "RSS"
        report.rows.append(row)
        report.targets.append(.init(name: "session: \(count) strokes, RSS at end / after 1/10",
                                    measured: rssEnd / rssAtTenth, limit: 1.1, atMost: true))
    }

    // MARK: saving while drawing

    /// A drawing of `saveSide`² saved while frames keep coming (each draws a stroke; frames
    /// drawn as a display would, without read-back): the longest wait for a frame during the
    /// save, against frames without a save.
    func saveWhileDrawing(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        let side = config.saveSide, frames = config.saveFrames
        let canvas = Canvas(width: side, height: side, background: .color(Color(hex: "#f4f1ea")!))
        let live = LiveCanvas(renderer: renderer, canvas: canvas)
        var rng = SplitMix64(seed: config.seed &+ 3)
        for _ in 0..<40 {
            let samples = BenchSuite.benchStroke(&rng, width: side, height: side, samples: 20, step: Float(side) / 10,
                                                 t0: 0, dt: 0)
            try await BenchSuite.draw(samples, style: BenchSuite.style(&rng, radius: 12), brush: brush, on: live)
        }
        try await live.bakeAll()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stipple-bench-save-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func frameTimes(_ n: Int, during save: Task<Double, Error>?) async throws -> [Double] {
            var times: [Double] = []
            for _ in 0..<n {
                let start = DispatchTime.now().uptimeNanoseconds
                let samples = BenchSuite.benchStroke(&rng, width: side, height: side, samples: 2, step: 20,
                                                     t0: 0, dt: 0)
                try await BenchSuite.draw(samples, style: BenchSuite.style(&rng, radius: 8), brush: brush, on: live)
                try await live.drawFrame()
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            return times
        }
        // The part of a save on the render thread: one read-back of the backing surface.
        var snap: [Double] = []
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try await live.snapshot()
            snap.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        log("session: \(frames) frames at \(side)×\(side) without a save")
        let quiet = try await frameTimes(frames, during: nil)
        log("session: \(frames) frames while saving")
        let path = (folder as NSString).appendingPathComponent("big.json")
        // `save` is its snapshot, then the writing: the snapshot is taken here, between two
        // strokes (a save with a stroke open is refused, and a save task racing the frames'
        // strokes could land inside one), and the frames run while it is written.
        let start = DispatchTime.now().uptimeNanoseconds
        let drawing = try await live.snapshot()
        let save = Task { () throws -> Double in
            try await LiveCanvas.write(drawing, to: path)
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        let busy = try await frameTimes(frames, during: save)
        let saveSeconds = try await save.value
        let work = "\(side)×\(side), \(frames) frames each drawing a stroke"
        report.rows.append(BenchRow(scenario: "session", variant: "frames, no save", workload: work,
                                    timing: Timing(samples: quiet),
                                    figures: ["ms/frame": Timing(samples: quiet).median * 1e3, "max ms": quiet.max()! * 1e3]))
        var row = BenchRow(scenario: "session", variant: "frames while saving", workload: work,
                           timing: Timing(samples: busy),
                           figures: ["ms/frame": Timing(samples: busy).median * 1e3, "max ms": busy.max()! * 1e3,
                                     "save s": saveSeconds])
        row.ratio = busy.max()! / quiet.max()!
        row.ratioTo = "max frame without a save"
        report.rows.append(row)
        report.rows.append(BenchRow(scenario: "session", variant: "save snapshot (banded read-back)", workload: work,
                                    timing: Timing(samples: snap), figures: ["ms": Timing(samples: snap).median * 1e3]))
        report.targets.append(.init(name: "session: longest frame wait while saving \(side)×\(side), ms",
                                    measured: busy.max()! * 1e3, limit: 50, atMost: true))
    }
}
