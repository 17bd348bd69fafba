import Foundation
import Stipple
#if canImport(Glibc)
import Glibc
#endif

/// Scenario `serve`: `stipple serve` (a child process) under load on loopback, on the views
/// scenario's heavy drawing, every client a thread of this process:
/// - viewers, each on a random view (4 × 3 tiles at one of the four zooms nearest the
///   canvas), sending its view over the WebSocket, then asking for each tile's preview and
///   then its exact pixels on one kept-alive connection, again and again;
/// - drawers, each drawing strokes of 40 touch events at a touch device's rate over the
///   WebSocket; every other client times how long each event took to reach it;
/// - then one client panning at 60 view changes a second, asking for each view's tiles and
///   dropping them (closing their connections) at the next: the server's queue of renders
///   is sampled throughout, and the renders still running after the pan stops are counted.
extension BenchSuite {
    func serve(_ report: inout BenchReport) async throws {
        guard let exe = config.stippleExecutable, exe.hasSuffix("stipple") else {
            report.skipped.append("serve: the server runs as a child process (needs the stipple executable)")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stipple-bench-serve-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let side = config.viewsSide
        log("serve: writing a \(side)² drawing of \(config.viewsStrokes) strokes")
        let script = try heavyDrawing(folder, side: side, strokes: config.viewsStrokes)
        let started = ContinuousClock.now
        let server = try ServeChild(exe: exe, script: script, journal: (folder as NSString).appendingPathComponent("live.jsonl"))
        defer { server.stop() }
        let info = try JSONSerialization.jsonObject(with: Data(try LoopbackHTTP(port: server.port).get("/drawing.json").body)) as? [String: Any]
        guard let top = info?["topZoom"] as? Int else { throw RenderError("serve: no drawing.json") }
        let load = ServeLoad(port: server.port, token: server.token, side: side, topZoom: top, seed: config.seed)
        // The server writes the drawing's pyramid at the start; the load begins once it is
        // whole (how long that took is a row of its own).
        while load.stats()["pyramidReady"] != 1, ContinuousClock.now - started < .seconds(600) {
            try await Task.sleep(for: .milliseconds(100))
        }
        let warm = ContinuousClock.now - started
        let warmSeconds = Double(warm.components.seconds) + Double(warm.components.attoseconds) / 1e18
        log("serve: \(config.serveViewers) viewers and \(config.serveDrawers) drawers for \(Int(config.serveSeconds)) s")
        let rss0 = load.stats()["residentBytes"] ?? 0
        load.run(viewers: config.serveViewers, drawers: config.serveDrawers, seconds: config.serveSeconds,
                 eventsPerSecond: config.serveEventsPerSecond, progress: log)
        log("serve: a client panning at \(Int(config.servePansPerSecond)) views a second")
        let pan = load.pan(seconds: min(10, config.serveSeconds), perSecond: config.servePansPerSecond)
        let workload = "\(config.serveViewers) viewers, \(config.serveDrawers) drawers at \(Int(config.serveEventsPerSecond))/s, "
            + "\(Int(config.serveSeconds)) s, \(side)² of \(config.viewsStrokes) strokes"
        func percentiles(_ name: String, _ samples: [Double], target: Double?, note: String = "from request to answer, on loopback; every client a thread of the bench",
                         more: [String: Double] = [:], unfinished: Int = 0) {
            guard !samples.isEmpty else {
                report.skipped.append("serve: no \(name) was measured")
                return
            }
            // What never finished counts as slower than everything that did.
            let ranked = ServeLoad.ranked(samples, unfinished: unfinished)
            func p(_ q: Double) -> Double { ServeLoad.percentile(ranked, q) * 1e3 }
            report.rows.append(BenchRow(scenario: "serve", variant: name, workload: workload, timing: Timing(samples: samples),
                                        figures: ["p50 ms": p(0.5), "p95 ms": p(0.95), "p99 ms": p(0.99), "count": Double(samples.count)]
                                            .merging(more) { a, _ in a },
                                        note: note))
            if let target { report.targets.append(.init(name: "serve: \(name), p95 ms", measured: p(0.95), limit: target, atMost: true)) }
        }
        report.rows.append(BenchRow(scenario: "serve", variant: "pyramid written at the start", workload: "\(side)² of \(config.viewsStrokes) strokes",
                                    timing: Timing(samples: [warmSeconds]), figures: ["s": warmSeconds],
                                    note: "from starting the server to its pyramid being whole; tiles asked for meanwhile are drawn on demand"))
        let r = load.results()
        percentiles("preview tile", r.preview, target: 50)
        percentiles("exact tile", r.exact, target: 250,
                    note: "from the first request to the exact pixels: a tile answered stale (its last exact pixels) is asked for again as the page does; "
                        + "one still stale when its viewer moved on counts as never answered",
                    more: ["still stale when the viewer moved on": Double(r.leftStale)].merging(ServeLoad.byZoom(r, top: top)) { a, _ in a },
                    unfinished: r.leftStale)
        percentiles("exact tile, first answer", r.firstExact, target: nil,
                    note: "the exact pixels, or the last exact pixels (stale) of a low-zoom tile that could not be made again within 250 ms",
                    more: ["stale answers": Double(r.staleAnswers)])
        percentiles("stroke event seen by another client", r.seen, target: 100)
        report.targets.append(.init(name: "serve: errors under load (failed requests, refused events, lost connections)",
                                    measured: Double(r.errors), limit: 0, atMost: true))
        for (kind, e) in r.errorKinds.sorted(by: { $0.key < $1.key }) {
            log("serve: \(e.count) \(kind), the first: \(e.first.prefix(200))")
            report.notes = (report.notes ?? []) + ["serve under load: \(e.count) \(kind); the first: \(e.first.prefix(200))"]
        }
        // One exact tile's time: the server's median exact render (drawn from the canvas).
        let after = load.stats(heap: true)
        let renderSeconds = (after["renderMs"] ?? 0) / 1e3
        report.rows.append(BenchRow(scenario: "serve", variant: "panning at \(Int(config.servePansPerSecond)) views/s",
                                    workload: "\(pan.views) views, 12 tiles each, each view's tiles dropped at the next",
                                    timing: Timing(samples: [min(10, config.serveSeconds)]),
                                    figures: ["most renders queued": Double(pan.maxQueued), "renders dropped": Double(pan.dropped),
                                              "renders run": Double(pan.rendered), "settle ms": pan.settleSeconds * 1e3,
                                              "exact render p50 ms": renderSeconds * 1e3],
                                    note: "the time is the pan's, begun once the load's work is done; settle: from the last view change until no render runs"))
        report.targets.append(.init(name: "serve: renders queued while panning at 60 views/s, most", measured: Double(pan.maxQueued),
                                    limit: 8, atMost: true))
        if renderSeconds > 0 {
            report.targets.append(.init(name: "serve: renders left after a fast pan stop within one exact tile's time (settle / render p50)",
                                        measured: pan.settleSeconds / renderSeconds, limit: 1, atMost: true))
        }
        let endRSS = after["residentBytes"] ?? 0
        let endCaches = ServeLoad.caches(after)
        if config.serveSeconds >= 300, r.halfwayRSS > 0 {
            // The soak: once the caches are full, memory does not grow. The tile cache is
            // bounded in bytes and fills at the pace of the requests (three minutes and more
            // of this load), and the heap grows with it; the baseline is the memory when it
            // first holds 90 % of its bound, or halfway through when it never does (changes
            // empty it as fast as requests fill it).
            let full = r.fullRSS > 0 && r.fullAt <= config.serveSeconds / 2
            report.targets.append(.init(name: "serve: memory at the end / " + (full ? "when the tile cache was full" : "halfway")
                                            + ", \(Int(config.serveSeconds)) s of load",
                                        measured: endRSS / (full ? r.fullRSS : r.halfwayRSS), limit: 1.1, atMost: true))
        }
        var memory = ["RSS at start MiB": rss0 / 1048576, "RSS peak MiB": max(r.peakRSS, endRSS) / 1048576,
                      "RSS at end MiB": endRSS / 1048576, "strokes drawn": after["strokesAdded"] ?? 0,
                      "live lines waiting, most": r.peakWaiting, "RSS halfway MiB": r.halfwayRSS / 1048576,
                      "the drawing at end MiB": (after["drawingBytes"] ?? 0) / 1048576,
                      "heap used at end MiB": (after["heapUsedBytes"] ?? 0) / 1048576,
                      "heap held at end MiB": (after["heapHeldBytes"] ?? 0) / 1048576]
        // Only a load longer than a minute has a minute in.
        memory["tile caches at end MiB"] = endCaches / 1048576
        if r.fullRSS > 0 {
            memory["RSS when the tile cache was full MiB"] = r.fullRSS / 1048576
            memory["tile cache full after s"] = r.fullAt
        }
        if r.minuteRSS > 0 {
            memory["RSS a minute in MiB"] = r.minuteRSS / 1048576
            memory["tile caches a minute in MiB"] = r.minuteCaches / 1048576
            memory["RSS at end / a minute in"] = endRSS / r.minuteRSS
            memory["beyond the tile caches, at end / a minute in"] = (endRSS - endCaches) / (r.minuteRSS - r.minuteCaches)
        }
        report.rows.append(BenchRow(scenario: "serve", variant: "server memory", workload: workload,
                                    timing: Timing(samples: [config.serveSeconds]), figures: memory,
                                    note: "the server's VmRSS, sampled every 100 ms"))
    }
}
