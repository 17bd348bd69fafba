import Foundation
import Stipple

/// The clients connected over WebSocket: what each is drawing, and the messages every one
/// of them is sent (strokes as they are drawn, changes to the drawing), each client's in
/// order through a queue of its own so a slow one never holds up the others.
package actor LiveHub {
    private struct Client {
        let canDraw: Bool
        /// Wakes the client's writer; what it writes waits in `pending`.
        let wake: AsyncStream<Void>.Continuation
        var pending: [String] = []
        var strokes: [Int: ServedDrawing.PendingStroke] = [:]
    }

    private var clients: [Int: Client] = [:]
    private var nextID = 0
    package private(set) var strokesAdded = 0, eventsRefused = 0

    package init() {}

    /// A new client; returns its number and the stream that wakes its writer, which then
    /// takes everything waiting (`take`) and sends it as one WebSocket message, a line each:
    /// events that come while a message is being sent go out together in the next (the
    /// latest of everything, coalesced, never a queue of stale messages a frame each).
    package func join(canDraw: Bool) -> (Int, AsyncStream<Void>) {
        nextID += 1
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        clients[nextID] = Client(canDraw: canDraw, wake: continuation)
        return (nextID, stream)
    }

    /// What waits to be sent to `client`, oldest first; nil once it has gone.
    package func take(_ client: Int) -> [String]? {
        guard let lines = clients[client]?.pending else { return nil }
        clients[client]?.pending = []
        return lines
    }

    /// At most this many lines wait for one client: a client that reads nothing loses the
    /// oldest, never the server its memory.
    static let maxPending = 65_536

    private func post(_ message: String, to id: Int) {
        guard clients[id] != nil else { return }
        clients[id]!.pending.append(message)
        if clients[id]!.pending.count > LiveHub.maxPending { clients[id]!.pending.removeFirst(clients[id]!.pending.count - LiveHub.maxPending) }
        clients[id]!.wake.yield()
    }

    /// `client` has gone: the strokes it had not ended are dropped (and taken off the others' screens).
    package func leave(_ client: Int) {
        guard let c = clients.removeValue(forKey: client) else { return }
        c.wake.finish()
        for stroke in c.strokes.keys { broadcast(#"{"aborted":{"client":\#(client),"stroke":\#(stroke)}}"#, except: client) }
    }

    package func send(_ client: Int, _ message: String) { post(message, to: client) }

    package func broadcast(_ message: String, except: Int? = nil) {
        for id in clients.keys where id != except { post(message, to: id) }
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
