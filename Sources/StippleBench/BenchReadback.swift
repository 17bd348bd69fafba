import Stipple
import CStipple
import CStippleBench
import Foundation

/// Scenarios `readback` (glReadPixels, un-premultiplying, PNG encoding) and `upload`
/// (how the immediate buffers are written).
extension BenchSuite {
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
            try encoders(image, work: "sketch \(work)", &report)
            try encoders(BenchSuite.busyImage(width: w, height: h, seed: config.seed), work: "busy \(work)", &report)
            try encoders(BenchSuite.textureImage(width: w, height: h, seed: config.seed), work: "texture \(work)", &report)
        }
    }

    /// A frame as busy as a photo background: noise at 32 levels, opaque.
    static func busyImage(width: Int, height: Int, seed: UInt64) -> Image {
        var state = seed | 1
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            for c in 0..<3 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                pixels[i + c] = UInt8(truncatingIfNeeded: (state >> 59) << 3)
            }
        }
        return Image(width: width, height: height, pixels: pixels)
    }

    /// A frame of a generated texture: one 61×43 patch of noise at 32 levels, opaque, tiled.
    /// Its rows repeat across at a distance no run sees (the patch's width), as a generated
    /// background's or a screenshot's do.
    static func textureImage(width: Int, height: Int, seed: UInt64) -> Image {
        let (pw, ph) = (61, 43)
        let patch = busyImage(width: pw, height: ph, seed: seed ^ 0x7E47)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let from = ((y % ph) * pw + x % pw) * 4, to = (y * width + x) * 4
                for c in 0..<4 { pixels[to + c] = patch.pixels[from + c] }
            }
        }
        return Image(width: width, height: height, pixels: pixels)
    }

    /// Stipple's PNG encoder against libpng on one image: libpng at levels 1 and 6 with its own
    /// filters, libpng with Stipple's fast profile on one thread, and Stipple's default (the
    /// fast profile in segments on every core) and level 9. Goals: the default encodes at 3×
    /// libpng level 1's throughput or more, in no more bytes, and within a tenth of level 6's.
    func encoders(_ image: Image, work: String, _ report: inout BenchReport) throws {
        log("readback: PNG encoders, \(work)")
        let megabytes = Double(image.pixels.count) / 1e6
        func row(_ variant: String, _ body: () throws -> Int) throws -> (row: BenchRow, bytes: Int) {
            var bytes = 0
            let t = try Timing.measure(warmup: 1, reps: max(3, config.reps / 2)) { bytes = try body() }
            return (BenchRow(scenario: "readback", variant: "PNG encoder: " + variant, workload: work, timing: t,
                             figures: ["ms": t.median * 1e3, "MB/s": megabytes / t.median, "bytes": Double(bytes)]), bytes)
        }
        let l1 = try row("libpng level 1 (its filters)") { try PNGFile.encodeWithLibpng(image, level: 1, fast: false).count }
        let l6 = try row("libpng level 6 (its filters)") { try PNGFile.encodeWithLibpng(image, level: 6, fast: false).count }
        var single = try row("libpng, Sub + RLE, one thread") { try PNGFile.encodeWithLibpng(image, level: 1, fast: true).count }
        var fast = try row("stipple default (None/Sub/Up/Paeth rows, run-length Huffman, every core)") { try PNGFile.encode(image).count }
        var nine = try row("stipple --compression 9") { try PNGFile.encode(image, compression: 9).count }
        for r in [l1, l6] { report.rows.append(r.row) }
        single.row.ratio = single.row.timing.median / l1.row.timing.median; single.row.ratioTo = "libpng level 1"
        fast.row.ratio = fast.row.timing.median / l1.row.timing.median; fast.row.ratioTo = "libpng level 1"
        fast.row.note = String(format: "size %.2f× libpng level 1's, %.2f× level 6's", Double(fast.bytes) / Double(l1.bytes),
                               Double(fast.bytes) / Double(l6.bytes))
        nine.row.note = String(format: "size %.2f× libpng level 6's", Double(nine.bytes) / Double(l6.bytes))
        report.rows += [single.row, fast.row, nine.row]
        try deflaters(image, work: work, against: l1.row, &report, row)
        report.targets.append(.init(name: "png: default encode speed / libpng level 1, \(work)",
                                    measured: l1.row.timing.median / fast.row.timing.median, limit: 3, atMost: false))
        report.targets.append(.init(name: "png: default size / libpng level 1 size, \(work)",
                                    measured: Double(fast.bytes) / Double(l1.bytes), limit: 1, atMost: true))
        report.targets.append(.init(name: "png: default size / libpng level 6 size, \(work)",
                                    measured: Double(fast.bytes) / Double(l6.bytes), limit: 1.1, atMost: true))
    }

    /// The deflate coders side by side on one thread and the same filtered rows (Stipple's
    /// None/Sub/Up/Paeth choice, the image as one segment): Stipple's at levels 1 and 2 (a
    /// whole PNG, on one thread) and libdeflate, a library built for speed, at levels 1, 6 and
    /// 12, where it is installed. Figures only: what the default coder was chosen against.
    func deflaters(_ image: Image, work: String, against l1: BenchRow, _ report: inout BenchReport,
                   _ row: (String, () throws -> Int) throws -> (row: BenchRow, bytes: Int)) throws {
        for level: Int32 in [1, 2] {
            var r = try row("stipple --compression \(level), one thread") {
                try PNGFile.encode(image, compression: level, onEveryCore: false).count
            }
            r.row.ratio = r.row.timing.median / l1.timing.median; r.row.ratioTo = "libpng level 1"
            report.rows.append(r.row)
        }
        var err = [CChar](repeating: 0, count: 256)
        guard stp_libdeflate_available(&err, err.count) == 0 else {
            report.skipped.append("readback: libdeflate rows, \(work): \(String(cBuffer: err))")
            return
        }
        var filtered = [UInt8](repeating: 0, count: (image.width * 4 + 1) * image.height)
        image.pixels.withUnsafeBufferPointer { px in
            filtered.withUnsafeMutableBufferPointer { stp_png_filter_image(px.baseAddress, nil, Int32(image.width), 4, Int32(image.height), $0.baseAddress) }
        }
        for level: Int32 in [1, 6, 12] {
            var r = try row("libdeflate level \(level), Stipple's filtered rows, one thread") {
                filtered.withUnsafeBufferPointer { stp_libdeflate_zlib($0.baseAddress, $0.count, level) }
            }
            r.row.ratio = r.row.timing.median / l1.timing.median; r.row.ratioTo = "libpng level 1"
            report.rows.append(r.row)
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
}
