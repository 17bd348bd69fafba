import Foundation
import Stipple

/// One WebSocket client: what it may do, and the strokes it is drawing (its own, checked
/// event by event, joining the drawing at their end).
struct LiveConnection {
    let server: StippleServer
    let canDraw: Bool
    var client = 0
    var outbox: Outbox?
    var strokes: [Int: ServedDrawing.PendingStroke] = [:]

    init(server: StippleServer, canDraw: Bool) { self.server = server; self.canDraw = canDraw }

    private func refuse(_ reason: String) async { await server.refused(outbox, reason) }

    /// One message: a view, a touch event, or an undo, redo or clear.
    mutating func handle(_ text: String) async {
        let bytes = Array(text.utf8)
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, file: "message")
        } catch {
            return await refuse(error.message)
        }
        guard case let .object(members) = value.kind else { return await refuse("a message is a JSON object") }
        func member(_ k: String) -> JSONValue? { members.first { $0.key == k }?.value }
        if let view = member("view") {
            guard let v = ServeMessages.view(view) else {
                return await refuse("a view is {\"z\": Z, \"x0\": X0, \"x1\": X1, \"y0\": Y0, \"y1\": Y1}")
            }
            await server.tiles.viewChanged(client: client, z: v.z, xs: v.xs, ys: v.ys, seq: v.seq)
            return
        }
        guard canDraw else { return await refuse("drawing needs the token serve printed") }
        for verb in ["undo", "redo", "clear"] where member(verb) != nil {
            var count = 1
            if verb != "clear", case let .number(n, _) = member(verb)!.kind { count = Int(exactly: n) ?? 0 }
            do {
                await server.changed(try await server.drawing.session(verb, count: count))
            } catch {
                await refuse(error.message)
            }
            return
        }
        if let end = member("end") {
            guard case let .number(n, _) = end.kind, let id = Int(exactly: n), let stroke = strokes.removeValue(forKey: id) else {
                return await refuse("\"end\" names a stroke this client has open")
            }
            do {
                let change = try await server.drawing.commit(stroke)
                await server.hub.counted(added: 1)
                await server.hub.broadcast(#"{"ended":{"client":\#(client),"stroke":\#(id),"version":\#(change.version)}}"#)
                await server.changed(change)
            } catch {
                await refuse(error.message)
                await server.hub.broadcast(#"{"aborted":{"client":\#(client),"stroke":\#(id)}}"#, except: client)
            }
            return
        }
        guard let s = member("stroke"), case let .number(n, _) = s.kind, let id = Int(exactly: n) else {
            return await refuse("a touch event names its \"stroke\" (a whole number), or is a view, an end, an undo, a redo or a clear")
        }
        var stroke: ServedDrawing.PendingStroke
        if let open = strokes[id] { stroke = open } else { stroke = await server.drawing.beginStroke() }
        do {
            try server.drawing.check(bytes, into: &stroke)
            strokes[id] = stroke
            await server.hub.broadcast(#"{"live":{"client":\#(client),"stroke":\#(id),"event":\#(text)}}"#, except: client)
        } catch {
            await refuse(error.message)
        }
    }
}

/// The JSON messages the server sends and reads besides touch events.
enum ServeMessages {
    static func error(_ reason: String) -> String {
        #"{"error":{"reason":\#(JSONValue.quoted(reason))}}"#
    }

    static func changed(_ change: ServedDrawing.Change) -> String {
        let box = change.box.map { "[\($0.x0),\($0.y0),\($0.x1),\($0.y1)]" } ?? "null"
        return #"{"changed":{"version":\#(change.version),"box":\#(box)}}"#
    }

    /// Tile `key`, answered stale before, has been made: ask for it again.
    static func ready(_ key: ServedTiles.Key) -> String {
        #"{"ready":{"z":\#(key.z),"x":\#(key.x),"y":\#(key.y)}}"#
    }

    static func view(_ v: JSONValue) -> (z: Int, xs: ClosedRange<Int>, ys: ClosedRange<Int>, seq: Int?)? {
        guard case let .object(members) = v.kind else { return nil }
        func int(_ k: String) -> Int? {
            guard let m = members.first(where: { $0.key == k }), case let .number(n, _) = m.value.kind else { return nil }
            return Int(exactly: n)
        }
        guard let z = int("z"), let x0 = int("x0"), let x1 = int("x1"), let y0 = int("y0"), let y1 = int("y1"),
              x0 <= x1, y0 <= y1 else { return nil }
        return (z, x0...x1, y0...y1, int("seq"))
    }
}

/// At most `perSecond` messages in any second (a token bucket that refills continuously).
struct RateLimiter {
    let perSecond: Int
    private var tokens: Double
    private var last = ContinuousClock.now
    init(perSecond: Int) { self.perSecond = perSecond; tokens = Double(perSecond) }
    mutating func allow() -> Bool {
        let now = ContinuousClock.now
        let dt = Double((now - last).components.attoseconds) / 1e18 + Double((now - last).components.seconds)
        last = now
        tokens = min(Double(perSecond), tokens + dt * Double(perSecond))
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
