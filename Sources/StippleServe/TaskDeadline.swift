import Synchronization

extension Task where Failure == Error, Success: Sendable {
    /// The task's result, or nil when it has none within `limit`; the task goes on either way.
    func result(within limit: Duration) async -> Result<Success, Error>? {
        let first = FirstOf<Result<Success, Error>?>()
        return await withCheckedContinuation { continuation in
            first.wait(continuation)
            Task<Void, Never> { first.resume(await self.result) }
            Task<Void, Never> {
                try? await Task<Never, Never>.sleep(for: limit)
                first.resume(nil)
            }
        }
    }
}

/// One continuation, resumed by whichever of several comes first.
private final class FirstOf<T: Sendable>: Sendable {
    private let waiting = Mutex<CheckedContinuation<T, Never>?>(nil)

    func wait(_ c: CheckedContinuation<T, Never>) { waiting.withLock { $0 = c } }

    func resume(_ value: T) { waiting.withLock { $0.take() }?.resume(returning: value) }
}
