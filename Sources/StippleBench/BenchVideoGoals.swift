import Foundation
import Stipple

/// The bake against its floors, in one run: for each size, a 60-stroke sketch that
/// accumulates (maxAge 0) and one that dissolves (maxAge 110) baked over the same synthetic
/// 4:2:0 video — with the sketch kept between frames (what `stipple bake` does) and drawn
/// whole every frame (how it was done before) — against the empty script's bake (Stipple's
/// own reading and writing) and ffmpeg's y4m passthrough. A kept sketch's ratio to the empty
/// script's bake is the median of each repetition's, the empty script baked just before it:
/// a bake takes a fraction of a second and this machine's speed moves more than that between
/// one row and the next. Other ratios compare medians.
extension BenchSuite {
    func videoGoals(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stipple-bench-goals-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = config.videoGoalFrames
        for size in config.videoGoalSizes {
            let (w, h, radius) = (size[0], size[1], Float(size[2]))
            let header = Y4MHeader(width: w, height: h, rateNumerator: 30, rateDenominator: 1)
            let work = "\(frames) frames \(w)×\(h) 4:2:0"
            // The video's frames made once, outside every timing: each bake and the
            // passthrough time reading and writing them, not making them.
            let source = SyntheticVideo(header: header, frames: frames)
            log("bake: \(w)×\(h)")
            let empty = try scriptFile(folder, "empty-\(w)", strokes: 0, radius: radius, maxAge: 0, w, h, frames)
            let (emptyTiming, _, emptySteps, _) = try await bakeTiming(empty, source, keep: true, renderer)
            var passthrough: Timing?
            if let ffmpeg = FFmpegProcess.locate() {
                passthrough = try timed { try runFFmpeg(ffmpeg, [], feeding: source, doing: "passthrough") }
            } else {
                report.skipped.append("video goals: ffmpeg's passthrough (ffmpeg is not on PATH)")
            }
            var emptyRow = BenchRow(scenario: "bake", variant: "empty-script bake", workload: work, timing: emptyTiming,
                                    figures: ["frames/s": Double(frames) / emptyTiming.median].merging(emptySteps.millisecondsPerFrame) { a, _ in a })
            if let passthrough {
                emptyRow.ratio = emptyTiming.median / passthrough.median
                emptyRow.ratioTo = "ffmpeg y4m passthrough"
                report.rows.append(BenchRow(scenario: "bake", variant: "ffmpeg y4m passthrough", workload: work,
                                            timing: passthrough, figures: ["frames/s": Double(frames) / passthrough.median]))
                report.targets.append(.init(name: "bake: empty-script bake / ffmpeg passthrough, \(w)×\(h)",
                                            measured: emptyRow.ratio!, limit: 1.25, atMost: true))
            }
            report.rows.append(emptyRow)
            // The user's sketch (straight paths over 18 % of the frame), drawn whole and kept;
            // then a heavy one, kept only: curvy paths whose stamps would cover 1.2 frames,
            // crossing themselves and each other so that about 70 % of the frame is covered
            // by the last frame (no limit: the heavy dissolving one is judged against its floor);
            // and the heavy accumulating one with all its strokes drawn at the same time, which
            // puts new stamps under stamps of later strokes every frame (no limit: what that costs).
            let sketches: [(String, Int, Double, Double, Bool, Bool)] = [
                ("accumulating", 0, 2.0, 0.18, false, false), ("dissolving", 110, 10.0, 0.18, false, false),
                ("accumulating", 0, 2.0, 1.2, true, false), ("dissolving", 110, 0, 1.2, true, false),
                ("accumulating", 0, 0, 1.2, true, true)]
            for (name, maxAge, limit, cover, curvy, atOnce) in sketches {
                let script = try scriptFile(folder, "\(name)-\(w)-\(Int(cover * 100))\(atOnce ? "-at-once" : "")", strokes: 60,
                                            radius: radius, maxAge: maxAge, w, h, frames, cover: cover, curvy: curvy,
                                            atOnce: atOnce)
                let sketch = (curvy ? "heavy \(name)" : name) + (atOnce ? ", strokes at once" : "")
                // Kept, the sketches drawn two frames ahead (the default); the user's sketch also
                // drawn whole each frame, and the heavy accumulating one also drawn one frame ahead
                // (the renderer waits for the frame before to be taken): what each choice costs.
                let ways: [(keep: Bool, ahead: Int)] = curvy ? (maxAge == 0 && !atOnce ? [(true, 2), (true, 1)] : [(true, 2)])
                    : [(false, 2), (true, 2)]
                for (keep, ahead) in ways {
                    // An accumulating sketch's bake is as short as the empty one's: more pairs.
                    let reps = keep && maxAge == 0 && !atOnce ? config.videoGoalPairs : config.videoGoalReps
                    let (t, kept, steps, ratios) = try await bakeTiming(script, source, keep: keep, ahead: ahead, renderer,
                                                                        reps: reps, pairedWith: keep ? empty : nil)
                    // Every step of a frame (read, waiting for the renderer, composite, write), so
                    // a ratio over its goal shows where the time went.
                    var figures = ["frames/s": Double(frames) / t.median].merging(steps.millisecondsPerFrame) { a, _ in a }
                    if let kept {
                        // How much of the canvas a frame drew again and read back, on average.
                        figures["redrawn %"] = 100 * Double(kept.redrawnPixels) / Double(frames * w * h)
                        figures["read back %"] = 100 * Double(kept.readPixels) / Double(frames * w * h)
                        figures["boxes/frame"] = Double(kept.boxesDrawn) / Double(frames)
                        figures["most boxes"] = Double(kept.mostBoxes)
                        figures["whole frames"] = Double(kept.wholeFrames)
                        figures["new stamps only"] = Double(kept.appendedFrames)
                    }
                    var row = BenchRow(scenario: "bake", variant: "bake, \(sketch) (maxAge \(maxAge)), "
                                           + (keep ? "kept sketch" : "full redraw") + (ahead == 1 ? ", one frame ahead" : ""),
                                       workload: work + (curvy ? ", 60 curvy strokes r=\(Int(radius)), ≈70 % covered"
                                                              + (atOnce ? ", drawn at the same time" : "")
                                                              : ", 60 strokes r=\(Int(radius))"),
                                       timing: t, figures: figures)
                    if ratios.isEmpty {
                        row.ratio = t.median / emptyTiming.median
                        row.ratioTo = "empty-script bake"
                    } else {
                        row.ratio = Timing(samples: ratios).median
                        row.ratioTo = "empty-script bake, median of \(ratios.count) pairs (it baked just before each)"
                    }
                    report.rows.append(row)
                    guard ahead == 2 else { continue }
                    if keep && maxAge == 0 && curvy && !atOnce {
                        // What any bake of this sketch must do at least: draw each stamp once
                        // (the C program, in as many draws as frames) and read and write the video.
                        let c = try await stampsOnceInC(script, header, frames, renderer)
                        let floor = c + emptyTiming.median
                        var floorRow = BenchRow(scenario: "bake", variant: "floor: C GLES2 stamps drawn once + empty-script bake",
                                                workload: work + ", the \(sketch) sketch", timing: Timing(samples: [floor]),
                                                figures: ["C draw s": c, "empty bake s": emptyTiming.median])
                        floorRow.ratio = floor / emptyTiming.median
                        floorRow.ratioTo = "empty-script bake"
                        floorRow.note = "no reading back, converting or blending: the sketch's stamps drawn once each, in \(frames) draws"
                        report.rows.append(floorRow)
                    }
                    if keep && limit > 0 {
                        report.targets.append(.init(name: "bake: \(sketch) bake / empty-script bake, \(w)×\(h)",
                                                    measured: row.ratio!, limit: limit, atMost: true))
                    }
                    if keep && maxAge > 0 {
                        // The floor: the same live stamps drawn each frame by the raw-C GLES2
                        // program, plus Stipple's own reading and writing (the empty script).
                        let c = try await liveStampsInC(script, header, frames, renderer)
                        let floor = c + emptyTiming.median
                        var floorRow = BenchRow(scenario: "bake", variant: "floor: C GLES2 live stamps + empty-script bake",
                                                workload: work + ", the \(sketch) sketch", timing: Timing(samples: [floor]),
                                                figures: ["C draw s": c, "empty bake s": emptyTiming.median])
                        floorRow.note = "C timed on \(BenchSuite.floorSamples) frames spread over the video, scaled to all"
                        report.rows.append(floorRow)
                        report.targets.append(.init(name: "bake: \(sketch) bake / floor (C live stamps + empty bake), \(w)×\(h)",
                                                    measured: t.median / floor, limit: 1.3, atMost: true))
                    }
                }
            }
        }
    }

    /// Seconds the raw-C GLES2 program takes to draw once each stamp that the accumulating
    /// sketch `script` holds at its last frame (every stamp born by then: none dies), in
    /// `frames` draws (the stamps a frame adds, on average), with one glFinish: the drawing
    /// a bake of it cannot avoid.
    private func stampsOnceInC(_ script: String, _ header: Y4MHeader, _ frames: Int, _ renderer: Renderer) async throws -> Double {
        let (live, effects) = try await liveStamps(script, header, at: [frames - 1], renderer)
        guard let stamps = live.first, !stamps.isEmpty else { return 0 }
        return try await secondsInC(stamps, perDraw: max(1, stamps.count / frames), header, effects, renderer)
    }

    /// Frames of a dissolving sketch whose live stamps the C program draws, spread over the video.
    static let floorSamples = 8

    /// Seconds the raw-C GLES2 program takes to draw, over all `frames`, the stamps live at
    /// each frame of `script` (one draw a frame, all stamps uploaded, as Stipple's immediate
    /// path): the mean of `floorSamples` frames spread over the video, times the frames.
    private func liveStampsInC(_ script: String, _ header: Y4MHeader, _ frames: Int, _ renderer: Renderer) async throws -> Double {
        let samples = (0..<BenchSuite.floorSamples).map { k in (frames - 1) * (2 * k + 1) / (2 * BenchSuite.floorSamples) }
        let (live, effects) = try await liveStamps(script, header, at: samples, renderer)
        var total = 0.0
        for stamps in live where !stamps.isEmpty {
            total += try await secondsInC(stamps, perDraw: stamps.count, header, effects, renderer)
        }
        return total / Double(BenchSuite.floorSamples) * Double(frames)
    }

    /// The stamps of `script` live at each of `frames` (ages as at that frame), and its age effects.
    private func liveStamps(_ script: String, _ header: Y4MHeader, at frames: [Int],
                            _ renderer: Renderer) async throws -> ([[SketchPoint]], AgeEffects) {
        let scene = try VideoBake.loadScene(script: script, header: header, video: "the synthetic video")
        let layers = try await scene.makeLayers(on: renderer)
        var live: [[SketchPoint]] = []
        for n in frames { live.append(await renderer.liveStamps(layers, frame: n, effects: scene.effects)) }
        await renderer.removeLayers(layers)
        return (live, scene.effects)
    }

    /// The median seconds of the raw-C GLES2 program drawing `stamps` on a frame of `header`'s
    /// size with the bench sketches' brush, `perDraw` stamps a draw, then glFinish.
    private func secondsInC(_ stamps: [SketchPoint], perDraw: Int, _ header: Y4MHeader, _ effects: AgeEffects,
                            _ renderer: Renderer) async throws -> Double {
        var size = config
        size.width = header.width; size.height = header.height
        return try await BenchPeers.cBaseline(renderer, stamps: stamps, perDraw: perDraw, config: size,
                                              brush: .builtin(.softRound, size: 64), warmup: 1, reps: 3,
                                              effects: effects).median
    }

    /// `bake` run over `source`'s frames into /dev/null: its seconds.
    func oneBake(_ bake: VideoBake, _ source: SyntheticVideo) async throws -> Double {
        let (header, frames) = (source.header, source.frames)
        let start = DispatchTime.now().uptimeNanoseconds
        let reader = try Y4MReader(descriptor: try source.start(), name: "synthetic", owns: true)
        let writer = try Y4MWriter(descriptor: open("/dev/null", O_WRONLY), name: "/dev/null", header: header, owns: true)
        let n = try await bake.run(reader: reader, writer: writer)
        try writer.finish()
        precondition(n == frames, "the bake read every frame")
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Seconds of baking `script` over `source`'s frames, `reps` times (by default
    /// `config.videoGoalReps`); the last repetition's kept sketch (nil when drawn whole) and its
    /// steps' times; and, `pairedWith` a script, each repetition's time over that script's bake
    /// run just before it.
    func bakeTiming(_ script: String, _ source: SyntheticVideo, keep: Bool, ahead: Int = 2, _ renderer: Renderer,
                    reps: Int? = nil, pairedWith other: String? = nil) async throws -> (Timing, KeptSketch?, BakeTimings, [Double]) {
        let header = source.header
        let scene = try VideoBake.loadScene(script: script, header: header, video: "the synthetic video")
        let otherScene = try other.map { try VideoBake.loadScene(script: $0, header: header, video: "the synthetic video") }
        var samples: [Double] = [], ratios: [Double] = []
        var kept: KeptSketch?
        var steps = BakeTimings()
        for _ in 0..<(reps ?? config.videoGoalReps) {
            var before: Double?
            if let otherScene {
                let bake = try VideoBake(scene: otherScene, header: header, renderer: renderer)
                before = try await oneBake(bake, source)
            }
            let bake = try VideoBake(scene: scene, header: header, renderer: renderer)
            bake.keepsSketch = keep
            bake.sketchesAhead = ahead
            samples.append(try await oneBake(bake, source))
            if let before { ratios.append(samples[samples.count - 1] / before) }
            kept = bake.lastKept
            steps = bake.timings
        }
        return (Timing(samples: samples), kept, steps, ratios)
    }

    private func timed(_ body: () throws -> Void) throws -> Timing {
        var samples: [Double] = []
        for _ in 0..<config.videoGoalReps {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return Timing(samples: samples)
    }


    /// `strokes` strokes of 20 samples over 0.57 s each, started evenly over the video, at
    /// random places, each a path long enough that together they cover `cover` of the frame
    /// (≈ 18 %, as a user's sketch does): the script's path. A straight path unless `curvy`,
    /// then one that turns as it goes (its heading swings through a sine wave, so strokes
    /// wander over the frame, crossing themselves and each other, as a heavy sketch does),
    /// held inside the frame by reflecting at its edges. `keys` are added to every entry (a mode).
    /// `atOnce`: the same paths, but every stroke starts in the first half second and is drawn
    /// over most of the video, all at the same time (several hands, or several people drawing).
    func scriptFile(_ folder: String, _ name: String, strokes: Int, radius: Float, maxAge: Int,
                    _ w: Int, _ h: Int, _ frames: Int, keys: String = "", cover: Double = 0.18,
                    curvy: Bool = false, atOnce: Bool = false) throws -> String {
        var rng = SplitMix64(seed: config.seed &+ UInt64(strokes) &+ (curvy ? 7 : 0))
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        let seconds = Double(frames) / 30
        let samples = 20, dt = 0.03
        // A path's length: its share of the cover over the stroke's width (pressure 0.8).
        let length = cover * Double(w * h) / Double(max(strokes, 1)) / (2 * 0.8 * Double(radius))
        let step = length / Double(samples - 1)
        let entries = (0..<strokes).map { i -> String in
            let start = seconds * Double(i) / Double(max(strokes, 1)) * 0.9
            // At once: started within half a second of each other, each over 80 % of the video.
            let (t0, pace) = atOnce ? (0.5 * start / seconds, 0.8 * seconds / Double(samples - 1)) : (start, dt)
            var angle = unit() * 2 * Double.pi
            var (dx, dy) = (cos(angle) * step, sin(angle) * step)
            var x: Double, y: Double
            if curvy {
                x = unit() * Double(w); y = unit() * Double(h)
            } else {
                // Started where the whole path stays on the frame (when it fits).
                let (spanX, spanY) = (abs(dx) * Double(samples - 1), abs(dy) * Double(samples - 1))
                x = (dx < 0 ? spanX : 0) + unit() * max(0, Double(w) - spanX)
                y = (dy < 0 ? spanY : 0) + unit() * max(0, Double(h) - spanY)
            }
            let (swing, phase) = curvy ? (0.6 + unit(), unit() * 2 * Double.pi) : (0, 0)
            let points = (0..<samples).map { k -> String in
                defer {
                    if curvy {
                        angle += swing * sin(Double(k) * 0.7 + phase)
                        (dx, dy) = (cos(angle) * step, sin(angle) * step)
                        if x + dx < 0 || x + dx > Double(w) { angle = Double.pi - angle; dx = -dx }
                        if y + dy < 0 || y + dy > Double(h) { angle = -angle; dy = -dy }
                    }
                    x += dx; y += dy
                }
                return #"{"x": \#(x), "y": \#(y), "t": \#(t0 + Double(k) * pace), "pressure": 0.8}"#
            }
            return ##"{"brush": "soft", "color": "#ff5030", \##(keys)"radius": \##(radius), "points": [\##(points.joined(separator: ","))]}"##
        }
        let path = (folder as NSString).appendingPathComponent("\(name).json")
        try """
            {"fps": 30, "maxAge": \(maxAge), "brushes": {"soft": {"builtin": "soft-round", "size": 64}},
             "draw": [\(entries.joined(separator: ",\n"))]}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
