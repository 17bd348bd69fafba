import Stipple
import Foundation

/// The `video` scenario: a Periscope-style animation (fingers drawing strokes that dissolve
/// at M = 110, a few thousand live stamps) baked into 4:2:0 video, against what a user would
/// build without `bake`: `render --frames` to PNGs, then ffmpeg's `overlay` filter. Both read
/// the same synthetic y4m from a pipe and write y4m to /dev/null, so the rows compare the
/// compositing paths, not a decoder or an encoder.
extension BenchSuite {
    func video(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        let (w, h, frames) = (config.width, config.height, config.videoFrames)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stipple-bench-video-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let header = Y4MHeader(width: w, height: h, rateNumerator: 30, rateDenominator: 1)
        let (scriptPath, live) = try writePeriscopeScript(in: folder, width: w, height: h, frames: frames)
        let scene = try VideoBake.loadScene(script: scriptPath, header: header, video: "the synthetic video")
        let work = "\(frames) frames \(w)×\(h) 4:2:0, \(live) live stamps, M=110"

        log("video: stipple bake")
        let source = SyntheticVideo(header: header, frames: frames)
        let bake = try VideoBake(scene: scene, header: header, renderer: renderer)
        let start = DispatchTime.now().uptimeNanoseconds
        let input = try source.start()
        let reader = try Y4MReader(descriptor: input, name: "synthetic", owns: true)
        let sink = open("/dev/null", O_WRONLY)
        let writer = try Y4MWriter(descriptor: sink, name: "/dev/null", header: header, owns: true)
        let baked = try await bake.run(reader: reader, writer: writer)
        try writer.finish()
        let bakeSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        precondition(baked == frames, "the bake read every frame")
        let bakeFPS = Double(frames) / bakeSeconds
        report.rows.append(BenchRow(scenario: "video", variant: "stipple bake", workload: work,
                                    timing: Timing(samples: [bakeSeconds]),
                                    figures: ["s": bakeSeconds, "frames/s": bakeFPS]
                                        .merging(bake.timings.millisecondsPerFrame) { a, _ in a }))
        if w * h >= 1280 * 720 {  // the real-time target is for 1280×720
            report.targets.append(.init(name: "video: bake frames/s at \(w)×\(h)", measured: bakeFPS, limit: 60, atMost: false))
        }

        guard let ffmpeg = FFmpegProcess.locate() else {
            report.skipped.append("video: the PNG + ffmpeg overlay pipeline (ffmpeg is not on PATH)")
            return
        }
        log("video: render --frames to PNG, then ffmpeg overlay")
        let pngs = (folder as NSString).appendingPathComponent("png")
        try FileManager.default.createDirectory(atPath: pngs, withIntermediateDirectories: true)
        let layers = try await scene.makeLayers(on: renderer)
        let canvas = scene.canvas, settings = RenderSettings(effects: scene.effects)
        let renderStart = DispatchTime.now().uptimeNanoseconds
        try await FrameSequence(frames: 0...(frames - 1), folder: pngs).run(render: { n in
            try await renderer.renderLayers(layers, canvas: canvas, frame: n, settings: settings)
        })
        let renderSeconds = Double(DispatchTime.now().uptimeNanoseconds - renderStart) / 1e9
        await renderer.removeLayers(layers)
        let overlayStart = DispatchTime.now().uptimeNanoseconds
        let matrix = ColorMatrix.default(forHeight: h).rawValue
        try runOverlay(ffmpeg: ffmpeg, source: SyntheticVideo(header: header, frames: frames), pngs: pngs,
                       filter: "[1:v]scale=out_color_matrix=\(matrix):out_range=tv,format=yuva420p[o];"
                            + "[0:v][o]overlay=format=yuv420:alpha=straight")
        let overlaySeconds = Double(DispatchTime.now().uptimeNanoseconds - overlayStart) / 1e9
        let total = renderSeconds + overlaySeconds
        var row = BenchRow(scenario: "video", variant: "render --frames PNG + ffmpeg overlay", workload: work,
                           timing: Timing(samples: [total]),
                           figures: ["s": total, "frames/s": Double(frames) / total, "render s": renderSeconds,
                                     "overlay s": overlaySeconds])
        row.ratio = total / bakeSeconds
        row.ratioTo = "stipple bake"
        report.rows.append(row)
        report.targets.append(.init(name: "video: bake speed-up over PNG + ffmpeg overlay", measured: total / bakeSeconds,
                                    limit: 2, atMost: false))
    }

    /// Fingers drawing across the frame, `perFrame` stamps a frame between them, each
    /// dissolving at M = 110: the script (stamps in a `.sketchpoints` file, no canvas) and
    /// the live stamp count once the animation is full.
    private func writePeriscopeScript(in folder: String, width: Int, height: Int,
                                      frames: Int) throws -> (String, Int) {
        let fingers = 4, perFinger = 10, maxAge = 110
        var random = SystemRandomNumberGenerator()
        let palette: [(Float, Float, Float)] = [(1, 0.23, 0.19), (0.2, 0.78, 0.35), (0.0, 0.48, 1), (1, 0.8, 0)]
        var stamps: [SketchPoint] = []
        let (w, h) = (Float(width), Float(height))
        for n in 0..<frames {
            for f in 0..<fingers {
                for s in 0..<perFinger {
                    // Each finger traces a slow Lissajous curve; stamps fill in between frames.
                    let t = (Float(n) + Float(s) / Float(perFinger)) / 30 + Float(f) * 1.7
                    let x = w * (0.5 + 0.4 * sin(t * (0.9 + 0.2 * Float(f)) + Float(f)))
                    let y = h * (0.5 + 0.4 * sin(t * (1.3 + 0.1 * Float(f))))
                    let c = palette[f]
                    // Periscope's stroke radius (Fixtures/scripts/periscope.json), pressure ±25 %.
                    stamps.append(SketchPoint(x: x, y: y, radius: 6 + 1.5 * sin(t * 3), age: -Float(n),
                                              dissolveAngle: Float.random(in: 0..<(2 * .pi), using: &random),
                                              red: c.0, green: c.1, blue: c.2, alpha: 0.9))
                }
            }
        }
        let points = (folder as NSString).appendingPathComponent("periscope.sketchpoints")
        try SketchPointsFile.write(stamps, to: points)
        let script = (folder as NSString).appendingPathComponent("periscope.json")
        let text = """
            {"maxAge": \(maxAge), "dissolveDistance": 6, "brushes": {"soft": {"builtin": "soft-round", "size": 32}},
             "draw": [{"brush": "soft", "stamps": "periscope.sketchpoints"}]}
            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: script))
        return (script, fingers * perFinger * min(maxAge, frames))
    }

    private func runOverlay(ffmpeg: String, source: SyntheticVideo, pngs: String, filter: String) throws {
        try runFFmpeg(ffmpeg, ["-framerate", "30", "-i", (pngs as NSString).appendingPathComponent("frame-%04d.png"),
                               "-filter_complex", filter], feeding: source, doing: "overlay")
    }

    /// Runs ffmpeg with the synthetic video on its stdin (`-i -`, y4m) and `arguments` after
    /// it, writing y4m to /dev/null; `doing` names the work in an error.
    func runFFmpeg(_ ffmpeg: String, _ arguments: [String], feeding source: SyntheticVideo, doing: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ffmpeg)
        p.arguments = ["-hide_banner", "-loglevel", "error", "-f", "yuv4mpegpipe", "-i", "-"] + arguments
            + ["-f", "yuv4mpegpipe", "-y", "/dev/null"]
        let stdin = Pipe()
        p.standardInput = stdin
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        source.feed(stdin.fileHandleForWriting.fileDescriptor)
        try? stdin.fileHandleForWriting.close()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw RenderError("ffmpeg \(doing) failed (exit \(p.terminationStatus))") }
    }
}
