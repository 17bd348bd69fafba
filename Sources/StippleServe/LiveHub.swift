import Foundation
import Stipple
import Synchronization

/// What waits to be sent to one client, under a lock of its own: posting never waits on
/// another client or on an actor, and the client's writer takes everything waiting at once
/// and sends it as one WebSocket message, a line each, at most once every `pace` (events
/// that come meanwhile go out together in the next message, never a queue of messages a
/// line each).
package final class Outbox: Sendable {
    private let lines = Mutex<[String]?>([])
    private let wake: AsyncStream<Void>.Continuation
    /// Wakes the writer whenever something is posted.
    let wakes: AsyncStream<Void>

    /// At most this many lines wait: a client that reads nothing loses the oldest, never
    /// the server its memory.
    static let maxPending = 65_536

    /// The shortest time between two messages to one client: half a display frame. A whole
    /// frame (16 ms) would halve the messages again, and add as much again to the time a
    /// stroke takes to reach the other clients.
    static let pace = Duration.milliseconds(8)

    init() {
        (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    func post(_ line: String) {
        let posted = lines.withLock { pending -> Bool in
            guard pending != nil else { return false }
            pending!.append(line)
            if pending!.count > Outbox.maxPending { pending!.removeFirst(pending!.count - Outbox.maxPending) }
            return true
        }
        if posted { wake.yield() }
    }

    /// Lines waiting now.
    var waiting: Int { lines.withLock { $0?.count ?? 0 } }

    /// Everything waiting, oldest first; nil once closed.
    func take() -> [String]? {
        lines.withLock { pending in
            defer { if pending != nil { pending = [] } }
            return pending
        }
    }

    /// Sends what is posted through `write`, everything waiting as one message, at most one
    /// message each `pace`, until the outbox is closed. A line posted while the client is
    /// quiet goes at once; under a stream of strokes, the lines of each `pace` go together
    /// (a write and a read a frame, not a line).
    func deliver(every pace: Duration = Outbox.pace, _ write: ([String]) async throws -> Void) async throws {
        var sent = ContinuousClock.now - pace
        for await _ in wakes {
            let gap = sent + pace - ContinuousClock.now
            if gap > .zero { try await Task.sleep(for: gap) }
            guard let lines = take() else { return }
            guard !lines.isEmpty else { continue }
            try await write(lines)
            sent = ContinuousClock.now
        }
    }

    func close() {
        lines.withLock { $0 = nil }
        wake.finish()
    }
}

/// The clients connected over WebSocket, and the messages every one of them is sent.
package actor LiveHub {
    private var clients: [Int: Outbox] = [:]
    private var nextID = 0
    package private(set) var strokesAdded = 0, eventsRefused = 0

    package init() {}

    /// A new client: its number and its outbox.
    package func join() -> (Int, Outbox) {
        nextID += 1
        let outbox = Outbox()
        clients[nextID] = outbox
        return (nextID, outbox)
    }

    /// `client` has gone: `open`, the strokes it had not ended, are taken off the other
    /// pages (they never joined the drawing).
    package func leave(_ client: Int, open: [Int]) {
        clients.removeValue(forKey: client)?.close()
        for stroke in open { broadcast(#"{"aborted":{"client":\#(client),"stroke":\#(stroke)}}"#, except: client) }
    }

    package func broadcast(_ message: String, except: Int? = nil) {
        for (id, outbox) in clients where id != except { outbox.post(message) }
    }

    /// Sends `message` to one client, if it is still connected.
    package func send(_ message: String, to client: Int) {
        clients[client]?.post(message)
    }

    package var count: Int { clients.count }

    /// Lines waiting to be sent, all clients together, and the most one client has waiting.
    package var waiting: (total: Int, most: Int) {
        let each = clients.values.map(\.waiting)
        return (each.reduce(0, +), each.max() ?? 0)
    }

    package func counted(added: Int = 0, refused: Int = 0) {
        strokesAdded += added
        eventsRefused += refused
    }
}
