import Foundation
import Stipple
#if canImport(Glibc)
import Glibc
#endif

/// The clients of the load test, a thread each; what they measured, under a lock.
final class ServeLoad: @unchecked Sendable {
    // Unchecked: the recorded figures are guarded by `lock`; the rest is set in init.
    let port: Int, token: String, side: Int, topZoom: Int, seed: UInt64
    private let lock = NSLock()
    /// Request to answer: previews; exact tiles' first answers (exact or stale); and from the
    /// first request to the exact pixels, stale answers and asking again included.
    private var preview: [Double] = [], firstExact: [Double] = [], exact: [Double] = [], seen: [Double] = []
    /// Exact tiles answered with their last exact pixels, and those still stale when their
    /// viewer moved on.
    private var staleAnswers = 0, leftStale = 0
    /// The exact tiles' times, stale answers and tiles still stale when their viewer moved on,
    /// at each zoom (the low zooms change most often).
    private var exactByZoom: [Int: [Double]] = [:], staleByZoom: [Int: Int] = [:], leftByZoom: [Int: Int] = [:]
    private var errors = 0
    /// The errors by kind, and the first of each kind as it was seen.
    private var errorKinds: [String: (count: Int, first: String)] = [:]
    private var peakRSS = 0.0
    /// The server's memory a minute into the load and halfway, and the bytes its bounded tile
    /// caches (PNGs, kept pixels) held a minute in.
    private var minuteRSS = 0.0, halfwayRSS = 0.0, minuteCaches = 0.0
    /// The server's memory when its tile cache first held 90 % of its bound (the soak's
    /// baseline: from then on the caches hold what they can), and when that was (s).
    private var fullRSS = 0.0, fullAt = 0.0
    /// The most lines the server had waiting to go out to its WebSocket clients, all together.
    private var peakWaiting = 0.0
    private var mostQueued = 0
    private let epoch = ContinuousClock.now

    init(port: Int, token: String, side: Int, topZoom: Int, seed: UInt64) {
        self.port = port; self.token = token; self.side = side; self.topZoom = topZoom; self.seed = seed
    }

    func now() -> Double {
        let d = ContinuousClock.now - epoch
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    private func record(_ f: () -> Void) { lock.lock(); f(); lock.unlock() }

    struct Results {
        var preview: [Double], firstExact: [Double], exact: [Double], seen: [Double]
        var staleAnswers: Int, leftStale: Int
        var exactByZoom: [Int: [Double]], staleByZoom: [Int: Int], leftByZoom: [Int: Int]
        var errors: Int, mostQueued: Int
        var peakRSS: Double, minuteRSS: Double, halfwayRSS: Double, minuteCaches: Double, fullRSS: Double, fullAt: Double
        var peakWaiting: Double
        var errorKinds: [String: (count: Int, first: String)]
    }

    func results() -> Results {
        lock.lock(); defer { lock.unlock() }
        return Results(preview: preview, firstExact: firstExact, exact: exact, seen: seen, staleAnswers: staleAnswers, leftStale: leftStale,
                       exactByZoom: exactByZoom, staleByZoom: staleByZoom, leftByZoom: leftByZoom,
                       errors: errors, mostQueued: mostQueued, peakRSS: peakRSS, minuteRSS: minuteRSS, halfwayRSS: halfwayRSS, minuteCaches: minuteCaches, fullRSS: fullRSS, fullAt: fullAt, peakWaiting: peakWaiting, errorKinds: errorKinds)
    }

    /// Counts an error of `kind` (under the lock).
    /// The panning client saw `queued` renders waiting.
    func sawQueued(_ queued: Int) { record { mostQueued = max(mostQueued, queued) } }

    private func failed(_ kind: String, _ what: String) {
        errors += 1
        errorKinds[kind, default: (0, what)].count += 1
    }

    /// The server's figures (`/stats.json`); with `heap`, its heap's too (the C library walks the whole heap
    /// for them, under its locks: not for every sample).
    func stats(heap: Bool = false) -> [String: Double] {
        guard let r = try? LoopbackHTTP(port: port).get("/stats.json?token=\(token)\(heap ? "&heap=1" : "")", keepAlive: false),
              let json = try? JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any] else { return [:] }
        return json.compactMapValues { ($0 as? NSNumber)?.doubleValue }
    }

    /// Opens the live socket; its client number, and the drawing's version it was greeted with.
    func join(_ path: String) throws -> (LoopbackWebSocket, Int, Int) {
        let ws = try LoopbackWebSocket(port: port, path: path)
        func number(_ name: String, in text: String) -> Int? {
            text.range(of: #"""# + name + #"":(\d+)"#, options: .regularExpression).flatMap { Int(text[$0].split(separator: ":").last!) }
        }
        guard let hello = ws.next(containing: "hello"), let client = number("client", in: hello), let version = number("version", in: hello) else {
            throw LoopbackSocket.Failure("no hello")
        }
        return (ws, client, version)
    }

    /// Reads `ws` until it closes, timing the touch events other clients drew; the tiles the
    /// server says are made go to `ready`.
    private func drain(_ ws: LoopbackWebSocket, until deadline: Double, ready: ReadyTiles? = nil, version: SeenVersion? = nil) {
        // Many thousands of lines a second on the same two cores as the server: read with a
        // byte scan, not a JSON parser or a regular expression.
        let live = Array(#"{"live""#.utf8), error = Array(#"{"error""#.utf8), t = Array(#""t":"#.utf8)
        let made = Array(#"{"ready""#.utf8), changed = Array(#"{"changed":{"version":"#.utf8)
        while let m = ws.next() {
            let bytes = Array(m.utf8)
            if let version, bytes.starts(with: changed) {
                // {"changed":{"version":N,"box":…}}
                if let n = Int(String(decoding: bytes[changed.count...].prefix { $0 >= 0x30 && $0 <= 0x39 }, as: UTF8.self)) { version.saw(n) }
                continue
            }
            if let ready, bytes.starts(with: made) {
                // {"ready":{"z":Z,"x":X,"y":Y}}
                let n = m.split(whereSeparator: { !$0.isNumber }).map(String.init)
                if n.count == 3 { ready.post("/tiles/\(n[0])/\(n[1])/\(n[2]).png") }
                continue
            }
            if bytes.starts(with: live), let at = ServeLoad.find(t, in: bytes) {
                var end = at + t.count
                while end < bytes.count, bytes[end] != 0x2C, bytes[end] != 0x7D { end += 1 }
                if let sent = Double(String(decoding: bytes[(at + t.count)..<end], as: UTF8.self)) {
                    let dt = now() - sent
                    record { seen.append(dt) }
                }
            } else if bytes.starts(with: error) {
                record { failed("events refused", m) }
            }
            if now() > deadline + 2 { return }
        }
        // The socket closed, or nothing came for the receive timeout (live strokes come
        // several times a second while the load runs).
        if now() < deadline {
            record { failed("lost connections", "a socket ended \(Int(deadline - now())) s before the load did (close code \(ws.closeCode.map(String.init) ?? "none"))") }
        }
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { i in needle.indices.allSatisfy { bytes[i + $0] == needle[$0] } }
    }

    func thread(_ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        Thread.detachNewThread { body(); group.leave() }
    }

    /// Runs the load; `progress` hears the server's figures every 30 s.
    func run(viewers: Int, drawers: Int, seconds: Double, eventsPerSecond: Double, progress: @escaping @Sendable (String) -> Void = { _ in }) {
        let group = DispatchGroup()
        let deadline = now() + seconds
        let tiles = 256
        for v in 0..<viewers {
            thread(group) { [self] in
                var rng = SplitMix64(seed: seed &+ UInt64(v) &* 7919)
                guard let (ws, client, version) = try? join("/live") else { return record { failed("sockets refused", "a viewer's") } }
                let reader = DispatchGroup()
                let ready = ReadyTiles(), seen = SeenVersion(version)
                thread(reader) { [self] in drain(ws, until: deadline, ready: ready, version: seen) }
                let http = LoopbackHTTP(port: port)
                var seq = 0
                while now() < deadline {
                    seq += 1
                    let z = max(0, topZoom - Int(rng.next() % 4))
                    let level = (side + (1 << (topZoom - z)) - 1) >> (topZoom - z)
                    let count = max(1, (level + tiles - 1) / tiles)
                    let x0 = Int(rng.next() % UInt64(max(1, count - 3))), y0 = Int(rng.next() % UInt64(max(1, count - 2)))
                    let xs = x0...min(count - 1, x0 + 3), ys = y0...min(count - 1, y0 + 2)
                    try? ws.send(#"{"view":{"seq":\#(seq),"z":\#(z),"x0":\#(xs.lowerBound),"x1":\#(xs.upperBound),"y0":\#(ys.lowerBound),"y1":\#(ys.upperBound)}}"#)
                    // Tiles answered with their last exact pixels (stale), and when each was first asked for.
                    var staleTiles: [(path: String, asked: Double)] = []
                    func ask(_ path: String, exactSince: Double? = nil) {
                        let t0 = now()
                        var answer: (status: Int, headers: [String: String], body: [UInt8])?, failure = ""
                        do { answer = try http.get(path) } catch { failure = "\(error)" }
                        let dt = now() - t0
                        let kind = answer?.headers["x-stipple-tile"] ?? ""
                        if kind == "stale" { staleTiles.append((path, exactSince ?? t0)) }
                        record {
                            if answer?.status == 200 {
                                if kind == "preview" { preview.append(dt) } else { firstExact.append(dt) }
                                if kind == "exact" {
                                    exact.append(now() - (exactSince ?? t0))
                                    exactByZoom[z, default: []].append(exact.last!)
                                } else if kind == "stale" {
                                    staleAnswers += 1
                                    staleByZoom[z, default: 0] += 1
                                }
                            } else if let answer {
                                failed("tiles answered \(answer.status)", path)
                            } else {
                                failed("tiles unanswered", "\(path) after \(Int(dt)) s: \(failure)")
                            }
                        }
                    }
                    ready.clear()
                    for pass in ["&preview=1", ""] {
                        for y in ys { for x in xs {
                            guard now() < deadline else { break }
                            // As the page does: the version it knows the tile at (the latest it
                            // was told of; asked again, the same).
                            ask("/tiles/\(z)/\(x)/\(y).png?c=\(client)&v=\(seen.version)&w=\(seq)\(pass)")
                        } }
                    }
                    // As the page does: stale tiles asked for again once the server says they
                    // are made, or else less often each time, for as long as the view lasts (up
                    // to 10 s).
                    let viewEnds = now() + 10
                    // A tile's path without its query: what the server's message names.
                    func tile(_ path: String) -> String { String(path.prefix { $0 != "?" }) }
                    var wait = 0.25, timer = now() + wait
                    while !staleTiles.isEmpty, timer < min(viewEnds, deadline) {
                        let made = ready.wait(for: Set(staleTiles.map { tile($0.path) }), until: timer, now: now)
                        let timedOut = made.isEmpty
                        if timedOut {
                            wait = min(4, wait * 2)
                            timer = now() + wait
                        }
                        let again = staleTiles.filter { timedOut || made.contains(tile($0.path)) }
                        staleTiles.removeAll { t in again.contains { $0.path == t.path } }
                        for t in again { ask(t.path, exactSince: t.asked) }
                    }
                    record {
                        leftStale += staleTiles.count
                        leftByZoom[z, default: 0] += staleTiles.count
                    }
                    Thread.sleep(forTimeInterval: 0.3)
                }
                shutdown(ws.socket.fd, Int32(SHUT_RDWR))
                reader.wait()
            }
        }
        for d in 0..<drawers {
            thread(group) { [self] in
                var rng = SplitMix64(seed: seed &+ 1_000 &+ UInt64(d))
                guard let (ws, _, _) = try? join("/live?token=\(token)") else { return record { failed("sockets refused", "a drawer's") } }
                let reader = DispatchGroup()
                thread(reader) { [self] in drain(ws, until: deadline) }
                var stroke = 0
                let interval = 1 / eventsPerSecond
                var next = now()
                // A send that fails (the server closed the socket) ends the drawer, counted.
                func send(_ line: String) -> Bool {
                    do {
                        try ws.send(line)
                        return true
                    } catch {
                        record { failed("lost connections", "a drawer's send failed: \(error)") }
                        return false
                    }
                }
                drawing: while now() < deadline {
                    stroke += 1
                    var (x, y) = (Double(rng.next() % UInt64(side)), Double(rng.next() % UInt64(side)))
                    for k in 0..<40 {
                        x = min(Double(side - 1), max(0, x + Double(Int(rng.next() % 41) - 20)))
                        y = min(Double(side - 1), max(0, y + Double(Int(rng.next() % 41) - 20)))
                        let style = k == 0 ? #","brush":"soft","radius":8"# : ""
                        guard send(#"{"t":\#(now()),"stroke":\#(stroke),"x":\#(x),"y":\#(y),"pressure":0.6\#(style)}"#) else { break drawing }
                        next += interval
                        let wait = next - now()
                        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
                    }
                    guard send(#"{"end":\#(stroke)}"#) else { break }
                }
                shutdown(ws.socket.fd, Int32(SHUT_RDWR))
                reader.wait()
            }
        }
        // The server's memory, every 100 ms.
        let minute = now() + 60
        let start = now()
        thread(group) { [self] in
            var told = start
            while now() < deadline {
                let tell = now() - told >= 30
                let figures = stats(heap: tell)
                if tell {
                    told += 30
                    func f(_ k: String, _ scale: Double = 1) -> Int { Int((figures[k] ?? 0) / scale) }
                    progress("serve: \(Int(told - start)) s, RSS \(f("residentBytes", 1_048_576)) MiB, \(f("strokesAdded")) strokes, "
                             + "\(f("linesWaiting")) live lines waiting, \(f("begun")) renders begun (\(f("rendered")) kept), \(f("queued")) queued, "
                             + "\(f("drawnOver")) drawn over (\(figures["drawOverMs"].map { String(format: "%.1f", $0) } ?? "?") ms, whole \(figures["drawWholeMs"].map { String(format: "%.1f", $0) } ?? "?") ms), \(f("stale")) stale answers, the drawing \(f("drawingBytes", 1_048_576)) MiB, "
                             + "tile cache \(f("cacheBytes", 1_048_576)) MiB, pixels kept \(f("keptPixelBytes", 1_048_576)) MiB, "
                             + "heap \(f("heapUsedBytes", 1_048_576)) MiB used of \(f("heapHeldBytes", 1_048_576)) MiB held")
                }
                let rss = figures["residentBytes"] ?? 0
                record {
                    peakRSS = max(peakRSS, rss)
                    peakWaiting = max(peakWaiting, figures["linesWaiting"] ?? 0)
                    if minuteRSS == 0 && now() >= minute {
                        minuteRSS = rss
                        minuteCaches = ServeLoad.caches(figures)
                    }
                    if halfwayRSS == 0 && now() >= start + seconds / 2 { halfwayRSS = rss }
                    if fullRSS == 0, let limit = figures["cacheLimitBytes"], limit > 0, (figures["cacheBytes"] ?? 0) >= 0.9 * limit {
                        fullRSS = rss
                        fullAt = now() - start
                    }
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        group.wait()
    }

    /// Each zoom's exact-tile p95 (a tile still stale when its viewer moved on counts as never
    /// answered, as in the whole row) and stale answers, named by levels below the top zoom
    /// (where the drawing changes under a tile most often, its p95 is the first to grow).
    static func byZoom(_ r: Results, top: Int) -> [String: Double] {
        var figures: [String: Double] = [:]
        for (z, times) in r.exactByZoom {
            let below = top - z == 0 ? "top zoom" : "top − \(top - z)"
            figures["p95 ms at \(below)"] = percentile(ranked(times, unfinished: r.leftByZoom[z] ?? 0), 0.95) * 1e3
            figures["stale answers at \(below)"] = Double(r.staleByZoom[z] ?? 0)
        }
        return figures
    }

    /// `samples` in order, then `unfinished` more, slower than every one that finished.
    static func ranked(_ samples: [Double], unfinished: Int) -> [Double] {
        samples.sorted() + Array(repeating: Double.infinity, count: unfinished)
    }

    /// The `q` quantile of `ranked` samples (`ranked(_:unfinished:)`), nearest rank below.
    static func percentile(_ ranked: [Double], _ q: Double) -> Double {
        ranked[min(ranked.count - 1, Int(Double(ranked.count) * q))]
    }

    /// The bytes the server's bounded tile caches hold: the PNGs cached, the pixels kept.
    static func caches(_ figures: [String: Double]) -> Double { (figures["cacheBytes"] ?? 0) + (figures["keptPixelBytes"] ?? 0) }
}
