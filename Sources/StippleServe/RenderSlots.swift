/// At most `count` tile renders at once; the rest wait in order. A waiter whose task is
/// cancelled leaves the line at once.
actor RenderSlots {
    private let count: Int
    private var running = 0
    private var waiting: [(id: Int, continuation: CheckedContinuation<Void, Error>)] = []
    private var nextID = 0
    /// Renders started, and waiters cancelled before they started.
    private(set) var started = 0, dropped = 0

    init(count: Int) { self.count = max(1, count) }

    /// How many wait for a slot, and how many hold one.
    var queued: Int { waiting.count }
    var active: Int { running }

    func acquire() async throws {
        try Task.checkCancellation()
        if running < count {
            running += 1
            started += 1
            return
        }
        nextID += 1
        let id = nextID
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, Error>) in
                waiting.append((id, c))
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            started += 1
            waiting.removeFirst().continuation.resume()
        }
    }

    private func cancel(_ id: Int) {
        guard let i = waiting.firstIndex(where: { $0.id == id }) else { return }
        dropped += 1
        waiting.remove(at: i).continuation.resume(throwing: CancellationError())
    }
}
