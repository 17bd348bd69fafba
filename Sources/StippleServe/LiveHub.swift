import Foundation
import Stipple

/// The clients connected over WebSocket: what each is drawing, and the messages every one
/// of them is sent (strokes as they are drawn, changes to the drawing), each client's in
/// order through a queue of its own so a slow one never holds up the others.
package actor LiveHub {
    private struct Client {
        let canDraw: Bool
        let outbox: AsyncStream<String>.Continuation
        var strokes: [Int: ServedDrawing.PendingStroke] = [:]
    }

    private var clients: [Int: Client] = [:]
    private var nextID = 0
    package private(set) var strokesAdded = 0, eventsRefused = 0

    package init() {}

    /// A new client; returns its number and the stream of messages to send it.
    package func join(canDraw: Bool) -> (Int, AsyncStream<String>) {
        nextID += 1
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        clients[nextID] = Client(canDraw: canDraw, outbox: continuation)
        return (nextID, stream)
    }

    /// `client` has gone: the strokes it had not ended are dropped (and taken off the others' screens).
    package func leave(_ client: Int) {
        guard let c = clients.removeValue(forKey: client) else { return }
        c.outbox.finish()
        for stroke in c.strokes.keys { broadcast(#"{"aborted":{"client":\#(client),"stroke":\#(stroke)}}"#, except: client) }
    }

    package func send(_ client: Int, _ message: String) { clients[client]?.outbox.yield(message) }

    package func broadcast(_ message: String, except: Int? = nil) {
        for (id, c) in clients where id != except { c.outbox.yield(message) }
    }

    package var count: Int { clients.count }

    package func canDraw(_ client: Int) -> Bool { clients[client]?.canDraw ?? false }

    /// The stroke `stroke` of `client` so far (a new one when it has none).
    package func pending(_ client: Int, _ stroke: Int, drawing: ServedDrawing) async -> ServedDrawing.PendingStroke? {
        if let s = clients[client]?.strokes[stroke] { return s }
        guard clients[client] != nil else { return nil }
        let s = await drawing.beginStroke()
        // The client may have left while the stroke began.
        guard clients[client] != nil else { return nil }
        if let existing = clients[client]?.strokes[stroke] { return existing }
        clients[client]?.strokes[stroke] = s
        return s
    }

    package func update(_ client: Int, _ stroke: Int, _ pending: ServedDrawing.PendingStroke) {
        guard clients[client] != nil else { return }
        clients[client]?.strokes[stroke] = pending
    }

    /// Takes the stroke off the client's list (it has ended, or is dropped).
    package func take(_ client: Int, _ stroke: Int) -> ServedDrawing.PendingStroke? {
        clients[client]?.strokes.removeValue(forKey: stroke)
    }

    package func counted(added: Int = 0, refused: Int = 0) {
        strokesAdded += added
        eventsRefused += refused
    }
}
