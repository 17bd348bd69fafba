import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A dedicated OS thread that owns one GL context and runs every job given to it, in
/// order. It is a Swift `SerialExecutor`: the `Renderer` actor runs on it, so the
/// compiler keeps GL work on the actor and the actor's jobs never run on a pool thread.
///
/// A serial dispatch queue is not enough: GCD may run its blocks on any thread, and an
/// EGL context is current on one thread only (Periscope's worst bug).
public final class RenderThread: SerialExecutor, @unchecked Sendable {
    public let name: String
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var blocks: [() -> Void] = []
    private var stopping = false
    private var threadID: pthread_t?
    /// Signalled once `tearDown` has run (or `setUp` failed): the context is released.
    private let ended = DispatchSemaphore(value: 0)

    /// Starts the thread and runs `setUp` on it first (making the context current);
    /// returns once `setUp` has finished, rethrowing what it threw (the thread then ends).
    public init(name: String, setUp: @escaping @Sendable () throws -> Void,
                tearDown: @escaping @Sendable () -> Void) throws {
        self.name = name
        let ready = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var setUpError: Error?
        // The thread keeps this object alive until it ends.
        let thread = Thread {
            self.condition.lock()
            self.threadID = pthread_self()
            self.condition.unlock()
            do {
                try setUp()
            } catch {
                setUpError = error
                ready.signal()
                self.ended.signal()
                return
            }
            ready.signal()
            self.runLoop()
            tearDown()
            self.ended.signal()
        }
        thread.name = name
        thread.stackSize = 1 << 22
        thread.start()
        ready.wait()
        if let setUpError { throw setUpError }
    }

    private func runLoop() {
        let executor = asUnownedSerialExecutor()
        while true {
            condition.lock()
            while jobs.isEmpty && blocks.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty && blocks.isEmpty && stopping { condition.unlock(); return }
            let nextJobs = jobs, nextBlocks = blocks
            jobs.removeAll(keepingCapacity: true)
            blocks.removeAll(keepingCapacity: true)
            condition.unlock()
            for block in nextBlocks { block() }
            for job in nextJobs { job.runSynchronously(on: executor) }
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// True on this thread, false on any other: exact, not a hint.
    public var isCurrent: Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let id = threadID else { return false }
        return pthread_equal(id, pthread_self()) != 0
    }

    public func checkIsolated() {
        precondition(isCurrent, "Stipple: expected to run on render thread '\(name)', but this is another thread")
    }

    /// Runs `body` on the render thread and waits for its result. For synchronous callers
    /// (set-up, tear-down, tests); async code calls the `Renderer` actor instead.
    public func sync<T>(_ body: @escaping () throws -> T) throws -> T {
        if isCurrent { return try body() }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<T, Error>?
        condition.lock()
        precondition(!stopping, "Stipple: render thread '\(name)' has stopped")
        blocks.append { result = Result { try body() }; done.signal() }
        condition.signal()
        condition.unlock()
        done.wait()
        return try result!.get()
    }

    /// Asks the thread to finish its queued work, tear down and end, and waits until it
    /// has torn down (unless called on the render thread itself): whoever closes the EGL
    /// display next (eglTerminate unloads the driver) must not race the thread's release
    /// of its context — that crashed `stipple` at exit (SIGSEGV, double free).
    public func stop() {
        condition.lock()
        let wasStopping = stopping
        stopping = true
        condition.signal()
        condition.unlock()
        if !wasStopping && !isCurrent { ended.wait() }
    }
}
