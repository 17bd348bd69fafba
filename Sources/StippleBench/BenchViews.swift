import CStipple
import Foundation
import Stipple

/// Scenario `views`: a heavy drawing (curvy strokes over a `viewsSide`² opaque canvas) looked
/// at as people do today and as Stipple does. Each program runs as a child process, with its
/// wall time and peak memory:
/// - `stipple render` to one PNG, then `vips dzsave` of it (PNG tiles, and vips's JPEG default);
/// - `stipple render --pyramid` (PNG tiles), and `render --compression 0` (the drawing's floor);
/// - a 1920×1080 view at scale 1 against the same rectangle drawn as a canvas of its own (in
///   this process, the scene's stamps moved to its corner);
/// - the peak memory of a pyramid of a `viewsPeakSide`² canvas (few stamps: the canvas is the cost).
extension BenchSuite {
    func views(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        guard let exe = config.stippleExecutable, exe.hasSuffix("stipple") else {
            report.skipped.append("views: every row runs stipple as a child process (needs the stipple executable)")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stipple-bench-views-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let side = config.viewsSide
        let script = try heavyDrawing(folder, side: side, strokes: config.viewsStrokes)
        func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
        func child(_ what: String, _ args: [String]) throws -> (seconds: Double, peakKiB: Int) {
            log("views: \(what)")
            let run = try BenchSuite.runMeasured(args)
            guard run.status == 0 else { throw RenderError("views: \(what) failed (status \(run.status))") }
            return (run.seconds, run.peakKiB)
        }
        func row(_ variant: String, _ t: (seconds: Double, peakKiB: Int), extra: [String: Double] = [:]) -> BenchRow {
            BenchRow(scenario: "views", variant: variant, workload: "\(config.viewsStrokes) strokes, \(side)×\(side)",
                     timing: Timing(samples: [t.seconds]),
                     figures: ["s": t.seconds, "peak RSS MiB": Double(t.peakKiB) / 1024].merging(extra) { a, _ in a },
                     note: "one run as a child process; peak RSS is its VmHWM")
        }
        let full = path("full.png")
        let render = try child("render to PNG", [exe, "render", script, "-o", full])
        let pngBytes = Double((try? FileManager.default.attributesOfItem(atPath: full)[.size] as? Int) ?? 0)
        report.rows.append(row("stipple render -o PNG", render, extra: ["PNG MB": pngBytes / 1e6]))
        let raw = try child("render --compression 0", [exe, "render", script, "-o", path("raw.png"), "--compression", "0"])
        report.rows.append(row("stipple render -o PNG --compression 0", raw))
        try? FileManager.default.removeItem(atPath: path("raw.png"))
        let pyramid = try child("render --pyramid", [exe, "render", script, "--pyramid", path("ours/drawing")])
        var pyramidRow = row("stipple render --pyramid (Deep Zoom, PNG tiles)", pyramid)
        pyramidRow.ratio = pyramid.seconds / raw.seconds
        pyramidRow.ratioTo = "stipple render -o PNG --compression 0"
        report.rows.append(pyramidRow)
        report.targets.append(.init(name: "views: pyramid / render --compression 0, \(side)²", measured: pyramid.seconds / raw.seconds,
                                    limit: 1.3, atMost: true))
        var err = [CChar](repeating: 0, count: 256)
        let jpegPyramid = stp_jpeg_available(&err, err.count) == 1
            ? try child("render --pyramid --tile-format jpeg", [exe, "render", script, "--pyramid", path("ours-jpeg/drawing"),
                                                                "--tile-format", "jpeg"]) : nil
        if let jpegPyramid {
            report.rows.append(row("stipple render --pyramid --tile-format jpeg (quality 90)", jpegPyramid))
        } else {
            report.skipped.append("views: the JPEG pyramid (\(String(cBuffer: err)))")
        }
        if let vips = ["/usr/bin/vips", "/usr/local/bin/vips"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            try FileManager.default.createDirectory(atPath: path("vips"), withIntermediateDirectories: true)
            let png = try child("vips dzsave --suffix .png", [vips, "dzsave", full, path("vips/png"), "--suffix", ".png"])
            let jpeg = try child("vips dzsave (JPEG tiles)", [vips, "dzsave", full, path("vips/jpeg")])
            for (name, t) in [("PNG tiles", png), ("JPEG tiles", jpeg)] {
                var r = row("stipple render -o PNG + vips dzsave, \(name)", (render.seconds + t.seconds, max(render.peakKiB, t.peakKiB)),
                            extra: ["vips s": t.seconds])
                r.ratio = (render.seconds + t.seconds) / pyramid.seconds
                r.ratioTo = "stipple render --pyramid (Deep Zoom, PNG tiles)"
                report.rows.append(r)
            }
            report.targets.append(.init(name: "views: pyramid (PNG tiles) speed-up over render + vips dzsave --suffix .png, \(side)²",
                                        measured: (render.seconds + png.seconds) / pyramid.seconds, limit: 2, atMost: false))
            if let jpegPyramid {
                report.targets.append(.init(name: "views: pyramid (JPEG tiles) speed-up over render + vips dzsave (JPEG), \(side)²",
                                            measured: (render.seconds + jpeg.seconds) / jpegPyramid.seconds, limit: 2, atMost: false))
            }
        } else {
            report.skipped.append("views: render + vips dzsave (vips is not on PATH: apt-get install libvips-tools)")
        }

        // A 1920×1080 view at scale 1 against that rectangle as a canvas of its own.
        let scene = try Scene(script: Script.load(path: script))
        let (vw, vh) = (min(1920, side), min(1080, side))
        var viewTimes: [Double] = [], ownTimes: [Double] = []
        var rng = SplitMix64(seed: config.seed)
        for _ in 0..<3 {
            let x = Int(rng.next() % UInt64(side - vw + 1)), y = Int(rng.next() % UInt64(side - vh + 1))
            let view = try View(x: x, y: y, width: vw, height: vh, canvasWidth: side, canvasHeight: side)
            var own = scene
            own.canvas = Canvas(width: vw, height: vh, background: scene.canvas.background)
            own.batches = scene.batches.map { b in
                var moved = b
                moved.stamps = b.stamps.map { var p = $0; p.x -= Float(x); p.y -= Float(y); return p }
                return moved
            }
            var start = DispatchTime.now().uptimeNanoseconds
            _ = try await renderer.render(scene, frame: 0, view: view)
            viewTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            start = DispatchTime.now().uptimeNanoseconds
            _ = try await renderer.render(own, frame: 0)
            ownTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let viewTiming = Timing(samples: viewTimes), ownTiming = Timing(samples: ownTimes)
        report.rows.append(BenchRow(scenario: "views", variant: "the rectangle as a canvas of its own", workload: "\(vw)×\(vh) of \(side)²",
                                    timing: ownTiming, figures: ["ms": ownTiming.median * 1e3]))
        var viewRow = BenchRow(scenario: "views", variant: "view at scale 1 (--region)", workload: "\(vw)×\(vh) of \(side)², 3 places",
                               timing: viewTiming, figures: ["ms": viewTiming.median * 1e3])
        viewRow.ratio = viewTiming.median / ownTiming.median
        viewRow.ratioTo = "the rectangle as a canvas of its own"
        report.rows.append(viewRow)
        report.targets.append(.init(name: "views: \(vw)×\(vh) view / the rectangle as its own canvas", measured: viewRow.ratio!,
                                    limit: 2, atMost: true))

        // A preview of the whole drawing at 1/16 against its exact view.
        let overview = try View(canvasWidth: side, canvasHeight: side, scale: 1.0 / 16)
        log("views: exact view and preview at 1/16")
        var start = DispatchTime.now().uptimeNanoseconds
        _ = try await renderer.render(scene, frame: 0, view: overview)
        let exactSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        var previewSamples: [Double] = []
        for _ in 0..<3 {
            start = DispatchTime.now().uptimeNanoseconds
            _ = try await renderer.renderPreview(scene, frame: 0, view: overview)
            previewSamples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let previewTiming = Timing(samples: previewSamples)
        report.rows.append(BenchRow(scenario: "views", variant: "exact view, whole drawing at 1/16", workload: "\(side)² → \(overview.outputWidth)²",
                                    timing: Timing(samples: [exactSeconds]), figures: ["s": exactSeconds]))
        var previewRow = BenchRow(scenario: "views", variant: "preview, whole drawing at 1/16", workload: "\(side)² → \(overview.outputWidth)²",
                                  timing: previewTiming, figures: ["ms": previewTiming.median * 1e3])
        previewRow.ratio = previewTiming.median / exactSeconds
        previewRow.ratioTo = "exact view, whole drawing at 1/16"
        report.rows.append(previewRow)
        report.targets.append(.init(name: "views: preview speed-up over the exact view, \(side)² at 1/16",
                                    measured: exactSeconds / previewTiming.median, limit: 20, atMost: false))
        try await previewErrors(renderer, folder, &report)

        // Peak memory of a pyramid of a huge canvas.
        let huge = config.viewsPeakSide
        let sparse = try heavyDrawing(folder, side: huge, strokes: config.viewsStrokes, name: "huge")
        let big = try child("pyramid of \(huge)²", [exe, "render", sparse, "--pyramid", path("huge/drawing")])
        report.rows.append(BenchRow(scenario: "views", variant: "stipple render --pyramid, peak memory",
                                    workload: "\(config.viewsStrokes) strokes, \(huge)×\(huge)", timing: Timing(samples: [big.seconds]),
                                    figures: ["s": big.seconds, "peak RSS MiB": Double(big.peakKiB) / 1024,
                                              "Mpx/s": Double(huge) * Double(huge) / 1e6 / big.seconds],
                                    note: "one run as a child process"))
        report.targets.append(.init(name: "views: peak RSS of a \(huge)² pyramid (MiB)", measured: Double(big.peakKiB) / 1024,
                                    limit: 1024, atMost: true))
    }

    /// A preview's error against the exact view at 1/2 … 1/64, on drawings of large and of
    /// small stamps: the mean and largest difference of a channel (straight RGBA, as written)
    /// and the PSNR.
    private func previewErrors(_ renderer: Renderer, _ folder: String, _ report: inout BenchReport) async throws {
        let side = config.viewsPreviewSide
        for (label, radii) in [("large stamps", 12.0...60.0), ("small stamps", 1.0...4.0)] {
            log("views: preview error, \(label)")
            let path = try heavyDrawing(folder, side: side, strokes: config.viewsStrokes / 4, name: "preview-\(Int(radii.lowerBound))",
                                        radii: radii)
            let scene = try Scene(script: Script.load(path: path))
            for k in 1...6 {
                let view = try View(canvasWidth: side, canvasHeight: side, scale: 1 / Double(1 << k))
                var start = DispatchTime.now().uptimeNanoseconds
                let exact = try await renderer.render(scene, frame: 0, view: view)
                let exactSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                start = DispatchTime.now().uptimeNanoseconds
                let preview = try await renderer.renderPreview(scene, frame: 0, view: view)
                let previewSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                var sum = 0.0, squares = 0.0, most = 0
                for (a, b) in zip(exact.pixels, preview.pixels) {
                    let d = abs(Int(a) - Int(b))
                    sum += Double(d); squares += Double(d * d); most = max(most, d)
                }
                let n = Double(exact.pixels.count), mse = squares / n
                report.rows.append(BenchRow(scenario: "views", variant: "preview against exact, 1/\(1 << k)",
                                            workload: "\(label) (r \(Int(radii.lowerBound))–\(Int(radii.upperBound))), \(side)²",
                                            timing: Timing(samples: [previewSeconds]),
                                            figures: ["mean diff": sum / n, "max diff": Double(most),
                                                      "PSNR dB": mse > 0 ? 10 * log10(255 * 255 / mse) : 99,
                                                      "exact ms": exactSeconds * 1e3],
                                            note: "the preview's time; one run each"))
            }
        }
    }

    /// A script of `strokes` curvy strokes of 60 touch samples over a `side`² opaque canvas,
    /// radii in `radii` (default 12 to 60 pixels scaled with the canvas, as at 16384²), random colours.
    func heavyDrawing(_ folder: String, side: Int, strokes: Int, name: String = "drawing",
                              radii: ClosedRange<Double>? = nil) throws -> String {
        var rng = SplitMix64(seed: config.seed &+ UInt64(side))
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        let s = Double(side) / 16384
        let entries = (0..<strokes).map { _ -> String in
            var (x, y) = (unit() * Double(side), unit() * Double(side))
            var angle = unit() * 2 * Double.pi
            let step = (40 + 60 * unit()) * s, swing = 0.3 + 0.6 * unit(), phase = unit() * 2 * Double.pi
            let points = (0..<60).map { k -> String in
                defer {
                    angle += swing * sin(Double(k) * 0.5 + phase)
                    x = min(Double(side), max(0, x + cos(angle) * step)); y = min(Double(side), max(0, y + sin(angle) * step))
                }
                let pressure = 0.5 + 0.5 * pow(sin(Double(k) * 0.3 + phase), 2)
                return #"{"x": \#(x), "y": \#(y), "t": \#(Double(k) * 0.016), "pressure": \#(pressure)}"#
            }
            let colour = String(format: "#%02x%02x%02x", Int(unit() * 256), Int(unit() * 256), Int(unit() * 256))
            let radius = radii.map { $0.lowerBound + ($0.upperBound - $0.lowerBound) * unit() } ?? max(1, (12 + 48 * unit()) * s)
            return ##"{"brush": "soft", "color": "\##(colour)", "radius": \##(radius), "points": [\##(points.joined(separator: ","))]}"##
        }
        let path = (folder as NSString).appendingPathComponent("\(name).json")
        try """
            {"canvas": {"width": \(side), "height": \(side), "background": "#f4f0e8"},
             "brushes": {"soft": {"builtin": "soft-round", "size": 64}},
             "draw": [\(entries.joined(separator: ",\n"))]}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
