import Stipple
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
