/// At most `count` tile renders at once; the rest wait in line, those someone asked for
/// (urgent) before those made for other tiles' sake (a tile below the top zoom made again
/// from its children), each in order, but one slot in `laterShare` goes to the second line
/// while both wait: a steady stream of requests never starves the tiles below the top zoom
/// (a page shows them stale until they are made). A waiter whose task is cancelled leaves
/// the line at once.
actor RenderSlots {
    private let count: Int
    private var running = 0
    private var urgent: [(id: Int, continuation: CheckedContinuation<Void, Error>)] = []
    private var later: [(id: Int, continuation: CheckedContinuation<Void, Error>)] = []
    /// Renders started, and waiters cancelled before they started.
    private(set) var started = 0, dropped = 0
    /// While both lines wait, every `laterShare`-th slot freed goes to the second.
    static let laterShare = 4
    private var turns = 0

    init(count: Int) { self.count = max(1, count) }

    /// How many wait for a slot, and how many hold one.
    var queued: Int { urgent.count + later.count }
    var active: Int { running }

    /// Waits for a slot, as waiter `id` (a number of the caller's, unique among those waiting).
    func acquire(id: Int, urgent isUrgent: Bool = true) async throws {
        try Task.checkCancellation()
        if running < count {
            running += 1
            started += 1
            return
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, Error>) in
                if isUrgent { urgent.append((id, c)) } else { later.append((id, c)) }
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    /// Someone now asks for waiter `id`'s render itself: it moves to the urgent line.
    func promote(_ id: Int) {
        guard let i = later.firstIndex(where: { $0.id == id }) else { return }
        urgent.append(later.remove(at: i))
    }

    func release() {
        if urgent.isEmpty && later.isEmpty {
            running -= 1
        } else {
            started += 1
            var fromLater = urgent.isEmpty
            if !urgent.isEmpty && !later.isEmpty {
                turns += 1
                fromLater = turns % Self.laterShare == 0
            }
            (fromLater ? later.removeFirst() : urgent.removeFirst()).continuation.resume()
        }
    }

    private func cancel(_ id: Int) {
        let waiter: CheckedContinuation<Void, Error>
        if let i = urgent.firstIndex(where: { $0.id == id }) {
            waiter = urgent.remove(at: i).continuation
        } else if let i = later.firstIndex(where: { $0.id == id }) {
            waiter = later.remove(at: i).continuation
        } else {
            return
        }
        dropped += 1
        waiter.resume(throwing: CancellationError())
    }
}
