import Foundation

/// The fast pan, after the load: one client changing its view many times a second, and
/// what the server still renders for views it has left.
extension ServeLoad {
    /// One client panning: a view every 1/`perSecond` s, each view's 12 tiles asked for on
    /// connections of their own and dropped at the next view.
    func pan(seconds: Double, perSecond: Double) -> (views: Int, maxQueued: Int, dropped: Int, rendered: Int, settleSeconds: Double) {
        // The load's work carried on past its end (tiles made again whoever waits) first:
        // what is queued from here on is the pan's.
        for _ in 0..<1200 {
            let s = stats()
            if (s["queued"] ?? 0) == 0 && (s["running"] ?? 0) == 0 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let before = stats()
        guard let (ws, client, _) = try? join("/live") else { return (0, 0, 0, 0, 0) }
        let sampling = DispatchGroup()
        let stop = now() + seconds
        thread(sampling) { [self] in
            while now() < stop {
                sawQueued(Int(stats()["queued"] ?? 0))
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        var views = 0
        var open: [LoopbackSocket] = []
        let z = topZoom
        let count = (side + 255) / 256
        var (x0, y0) = (0, 0)
        var next = now()
        while now() < stop {
            views += 1
            x0 = (x0 + 1) % max(1, count - 4)
            if x0 == 0 { y0 = (y0 + 1) % max(1, count - 3) }
            try? ws.send(#"{"view":{"z":\#(z),"x0":\#(x0),"x1":\#(x0 + 3),"y0":\#(y0),"y1":\#(y0 + 2)}}"#)
            var fresh: [LoopbackSocket] = []
            for y in y0...(y0 + 2) { for x in x0...(x0 + 3) {
                if let s = try? LoopbackSocket(port: port) {
                    try? s.send(Array("GET /tiles/\(z)/\(x)/\(y).png?c=\(client) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
                    fresh.append(s)
                }
            } }
            open = fresh  // the last view's connections close here, as a browser drops their tiles
            next += 1 / perSecond
            let wait = next - now()
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        }
        let stopped = now()
        open = []
        try? ws.send(#"{"view":{"z":0,"x0":0,"x1":0,"y0":0,"y1":0}}"#)
        sampling.wait()
        // Until no render runs or waits.
        var last = stats(), settled = stopped
        for _ in 0..<500 {
            if (last["queued"] ?? 0) == 0 && (last["running"] ?? 0) == 0 { break }
            Thread.sleep(forTimeInterval: 0.005)
            settled = now()
            last = stats()
        }
        shutdown(ws.socket.fd, Int32(SHUT_RDWR))
        _ = open
        return (views, results().mostQueued, Int((last["cancelled"] ?? 0) - (before["cancelled"] ?? 0)),
                Int((last["rendered"] ?? 0) - (before["rendered"] ?? 0)), max(0, settled - stopped))
    }
}
