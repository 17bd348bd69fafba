import Stipple
import Foundation

/// Scenario `ink`: a Quick, Draw!-shaped dataset rendered in one run (docs/ink-formats.md),
/// 256×256 PNG files and one 28×28 `.npy` array, against what a Python user writes for
/// the same job (cairocffi lines 16 wide with round caps, Pillow's box resize, numpy.save),
/// run as a child process on the same drawings in the same run, in turn with Stipple's.
extension BenchSuite {
    func ink(_ renderer: Renderer, _ report: inout BenchReport) async throws {
        let count = config.inkDrawings
        // 30 000 files a run (tens of MB), in memory where the system has room (`outputFolder`:
        // an ext4 disk that deleted the last run's files minutes ago makes every new file slower
        // to create, for both tools alike).
        let folder = try BenchSuite.outputFolder("stipple-bench-ink", bytes: 128 << 20)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let base = (folder as NSString).deletingLastPathComponent
        let input = (folder as NSString).appendingPathComponent("drawings.ndjson")
        let text = BenchSuite.quickDrawShaped(count, seed: config.seed)
        try Data(text.utf8).write(to: URL(fileURLWithPath: input))
        let work = "\(count) drawings (~9 strokes, ~76 points), spacing \(config.inkSpacing)"

        // Lines 16 wide on the 256 box, as the peer draws them.
        var options = InkOptions()
        options.fit = .frame
        options.margin = 0
        options.radius = 8
        options.spacing = config.inkSpacing
        let peer = BenchSuite.inkPeer(folder: folder)
        let rounds = max(1, config.inkRounds)
        for (label, size, npy) in [("256×256 PNG files", 256, false), ("28×28 .npy", 28, true)] {
            // The same drawings as stamps of the hard round brush, then as lines (`--lines`),
            // then the peer: in turn, a round at a time, each ratio the median of the rounds'
            // (a run takes seconds, and this machine's speed moves by a fifth over a minute).
            let variants = [false, true].map { lines in (lines, "stipple\(lines ? " --lines" : ""), \(label)") }
            var seconds = [[Double]](repeating: [], count: variants.count), peerSeconds: [Double] = []
            var last: [(InkDataset.Summary, InkDataset)] = []
            var peerLast: InkPeer.Result?, peerFailure: Error?
            for round in 0..<rounds {
                last = []
                for (k, (lines, variant)) in variants.enumerated() {
                    log("ink: \(variant)" + (rounds > 1 ? ", round \(round + 1) of \(rounds)" : ""))
                    var o = options
                    o.radius = 8 * Double(size) / 256
                    o.lines = lines
                    let out = (folder as NSString).appendingPathComponent("stipple\(lines ? "-lines" : "")\(npy ? ".npy" : "")")
                    // Each round writes into an empty folder (the last round's files removed untimed).
                    try? FileManager.default.removeItem(atPath: out)
                    if !npy { try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true) }
                    let run = InkDataset(inputs: [input], output: npy ? .npy(out) : .folder(out), width: size, height: size, options: o)
                    let s = try await run.run(on: renderer)
                    seconds[k].append(s.seconds)
                    last.append((s, run))
                }
                guard let peer, peerFailure == nil else { continue }
                log("ink: python cairocffi, \(label)" + (rounds > 1 ? ", round \(round + 1) of \(rounds)" : ""))
                let output = (folder as NSString).appendingPathComponent(npy ? "python.npy" : "python")
                try? FileManager.default.removeItem(atPath: output)
                do {
                    let p = try peer.run(mode: npy ? "npy" : "png", input: input, output: output)
                    peerSeconds.append(p.seconds)
                    peerLast = p
                } catch {
                    peerFailure = error
                }
            }
            // Each variant's row: its times over the rounds; the steps' figures of the last round.
            for (k, (lines, variant)) in variants.enumerated() {
                let (s, run) = last[k]
                let t = s.timings, timing = Timing(samples: seconds[k])
                let rate = Double(s.drawings) / timing.median
                var row = BenchRow(scenario: "ink", variant: variant, workload: work, timing: timing,
                                   figures: ["drawings/s": rate, "read s": s.parseSeconds, "stamps s": t.stamp, "draw s": t.draw,
                                             "readback s": t.readback, "downscale s": t.downscale, "encode+write s": t.deliver,
                                             lines ? "chords/drawing" : "stamps/drawing": Double(t.drawn) / Double(max(1, s.drawings))])
                row.note = "files in \(base); \(t.pages) page\(t.pages == 1 ? "" : "s") of \(run.width * InkDataset.supersample(width: size, height: size))-pixel cells"
                    + (lines ? ", each stroke a line along its curve" : ", stamps")
                    + (rounds > 1 ? "; the steps' seconds are the last round's" : "")
                report.rows.append(row)
            }
            if let peerFailure {
                report.skipped.append("ink: python peer, \(label): \(peerFailure)")
                continue
            }
            guard let p = peerLast, peerSeconds.count == rounds else { continue }
            let peerTiming = Timing(samples: peerSeconds)
            let peerRate = Double(count) / peerTiming.median
            // A round's ratio of drawings a second: the peer's time over the variant's.
            func ratio(_ k: Int) -> Double {
                Timing(samples: (0..<rounds).map { r in Double(last[k].0.drawings) / seconds[k][r] / (Double(count) / peerSeconds[r]) }).median
            }
            var prow = BenchRow(scenario: "ink", variant: "python cairocffi, \(label)", workload: work, timing: peerTiming,
                                figures: ["drawings/s": peerRate, "draw s": p.draw, "encode+write s": p.encode])
            prow.ratio = ratio(0)
            prow.ratioTo = variants[0].1 + (rounds > 1 ? ", median of \(rounds) rounds" : "")
            if rounds > 1 { prow.note = "the steps' seconds are the last round's" }
            report.rows.append(prow)
            for k in variants.indices {
                report.targets.append(.init(name: "ink: \(variants[k].1.dropLast(label.count + 2)) / python drawings/s, \(label)",
                                            measured: ratio(k), limit: 3, atMost: false))
            }
        }
        if peer == nil {
            report.skipped.append("ink: the Python peer (python3 with cairocffi, numpy and pillow: pip install cairocffi numpy pillow)")
        }
    }

    /// `count` drawings shaped like Quick, Draw! simplified ones: 9 strokes and 76 points on
    /// average, whole coordinates 0…255, wandering lines; one ndjson line each, seeded.
    static func quickDrawShaped(_ count: Int, seed: UInt64) -> String {
        var rng = SplitMix64(seed: seed)
        var out = ""
        out.reserveCapacity(count * 700)
        for i in 0..<count {
            let strokes = 5 + Int(rng.next() % 9)          // 5…13, mean 9
            var parts: [String] = []
            for _ in 0..<strokes {
                let n = 2 + Int(rng.next() % 15)           // 2…16, mean 8.4 → ~76 a drawing
                var x = Double(rng.next() % 256), y = Double(rng.next() % 256)
                var angle = Double(rng.next() % 628) / 100
                var xs: [Int] = [], ys: [Int] = []
                for _ in 0..<n {
                    xs.append(Int(min(255, max(0, x)))); ys.append(Int(min(255, max(0, y))))
                    angle += (Double(rng.next() % 200) - 100) / 150
                    let step = 8 + Double(rng.next() % 24)
                    x += cos(angle) * step; y += sin(angle) * step
                }
                parts.append("[[\(xs.map(String.init).joined(separator: ","))],[\(ys.map(String.init).joined(separator: ","))]]")
            }
            out += "{\"word\":\"bench\",\"countrycode\":\"US\",\"recognized\":true,\"key_id\":\"\(6_000_000_000_000_000 + i)\",\"drawing\":[\(parts.joined(separator: ","))]}\n"
        }
        return out
    }
}
