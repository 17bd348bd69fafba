import Stipple
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Scenario `tiles`: the same stamps drawn in one pass and in tiles (every band read back,
/// as a streamed render does), in megapixels a second; and a large render streamed to PNG
/// by `stipple render` in a child process, with the child's peak resident memory.
extension BenchSuite {
    func tiles(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        let side = config.tilesSide
        let canvas = Canvas(width: side, height: side, background: .color(Color(hex: "#f4f0e8")!))
        let stamps = randomStamps(config.tilesStamps, radius: 12, width: side, height: side)
        let batches = [StampBatch(brushKey: "bench", brush: brush, stamps: stamps)]
        let work = "N=\(stamps.count) r=12 \(side)×\(side)"
        let mpx = Double(side * side) / 1e6
        var base: Double?
        let limit = renderer.info.maxCanvasSide
        if side <= limit.width && side <= limit.height {
            log("tiles: one pass \(side)×\(side)")
            let t = try await renderer.measure(warmup: 1, reps: max(3, config.reps / 2)) {
                _ = try $0.renderPremultiplied(canvas: canvas, batches: batches)
            }
            base = t.median
            report.rows.append(BenchRow(scenario: "tiles", variant: "one pass + read-back", workload: work, timing: t,
                                        figures: ["Mpx/s": mpx / t.median, "ms": t.median * 1e3]))
        }
        for tile in config.tileSides {
            log("tiles: \(tile)×\(tile) tiles")
            let t = try await renderer.measure(warmup: 1, reps: max(3, config.reps / 2)) { r in
                let plan = try r.planTiles(canvas: canvas, batches: batches, tile: tile)
                for n in 0..<plan.bandCount { _ = try r.renderBand(plan, n) }
            }
            var row = BenchRow(scenario: "tiles", variant: "tiles \(tile)×\(tile) + read-back", workload: work, timing: t,
                               figures: ["Mpx/s": mpx / t.median, "ms": t.median * 1e3])
            if let base { row.ratio = t.median / base; row.ratioTo = "one pass" }
            report.rows.append(row)
        }
        guard let exe = config.stippleExecutable, exe.hasSuffix("stipple") else {
            report.skipped.append("tiles: streamed render's peak memory (needs the stipple executable)")
            return
        }
        log("tiles: streamed render \(config.streamSide)×\(config.streamSide)")
        let (seconds, peak) = try streamedRender(exe, side: config.streamSide)
        report.rows.append(BenchRow(scenario: "tiles", variant: "render -o PNG, streamed (child process)",
                                    workload: "N=\(config.streamStamps) r=12 \(config.streamSide)×\(config.streamSide)",
                                    timing: Timing(samples: [seconds]),
                                    figures: ["peak RSS MiB": Double(peak) / 1024,
                                              "Mpx/s": Double(config.streamSide * config.streamSide) / 1e6 / seconds],
                                    note: "the child's peak resident memory (VmHWM)"))
    }

    /// Runs `stipple render` on a script of random stamps over a `side`² canvas into a
    /// temporary folder; returns its wall time and peak RSS in KiB.
    private func streamedRender(_ exe: String, side: Int) throws -> (Double, Int) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stipple-bench-tiles-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stamps = randomStamps(config.streamStamps, radius: 12, width: side, height: side)
        let rows = stamps.map { p in "[\(p.x),\(p.y),\(p.radius),0,0,\(p.red),\(p.green),\(p.blue),\(p.alpha)]" }
        let script = folder.appendingPathComponent("large.json").path
        try """
            {"canvas": {"width": \(side), "height": \(side), "background": "#f4f0e8"},
             "brushes": {"s": {"builtin": "soft-round", "size": \(config.brushSize)}},
             "draw": [{"brush": "s", "stamps": [\(rows.joined(separator: ","))]}]}
            """.write(toFile: script, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("large.png").path
        // A canvas that one pass could draw is tiled on purpose, so the quick run streams too.
        let args = [exe, "render", script, "-o", out] + (side * side > Renderer.onePassPixels ? [] : ["--tile", "256"])
        let (seconds, peak, status) = try BenchSuite.runMeasured(args)
        guard status == 0 else { throw RenderError("stipple render of a \(side)² canvas failed (status \(status))") }
        return (seconds, peak)
    }

    /// VmHWM of process `pid` in KiB (0 when it cannot be read).
    static func highWaterKiB(of pid: pid_t) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") ?? 0
    }
}
