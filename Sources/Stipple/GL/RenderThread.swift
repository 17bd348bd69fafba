import CStipple
import Synchronization
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
///
/// Ending is a join, not a signal: `stop()` returns only once the OS thread has ended,
/// thread-exit destructors included. glvnd's libEGL frees each thread's EGL state in a
/// thread-exit destructor *and* frees every thread's state in its own library destructor
/// at `exit()`; a render thread still ending while another thread runs `exit()` let both
/// free the same block (`double free or corruption` at exit, about 1 run in 300). So a
/// stopped render thread has fully ended, and `exit()` itself first stops every render
/// thread still running (an `atexit` handler, which runs before any library destructor).
// Unchecked: its job queue is guarded by `condition`; the thread's handle and state are written
// by `start` and `stop` alone, which wait for the thread.
package final class RenderThread: SerialExecutor, @unchecked Sendable {
    package let name: String
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var blocks: [() -> Void] = []
    private var stopping = false
    private var joined = false
    /// The OS thread has been joined: it has ended, its thread-exit destructors run.
    private var ended = false
    private var threadID: pthread_t?

    /// What the OS thread runs, handed to it through `pthread_create`'s argument.
    // Unchecked: handed to the new OS thread once, through `pthread_create`, and used only there.
    private final class Body: @unchecked Sendable {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts the thread and runs `setUp` on it first (making the context current);
    /// returns once `setUp` has finished, rethrowing what it threw (the thread then ends).
    package init(name: String, setUp: @escaping @Sendable () throws -> Void,
                tearDown: @escaping @Sendable () -> Void) throws {
        self.name = name
        let ready = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var setUpError: Error?
        // The thread keeps this object alive until it ends.
        let body = Body {
            Thread.current.name = name
            _ = stp_thread_set_name(name)  // as the system shows it (`top`, `perf`): Foundation's name does not reach it
            do {
                try setUp()
            } catch {
                setUpError = error
                ready.signal()
                return
            }
            ready.signal()
            self.runLoop()
            tearDown()
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, 1 << 22)
        var thread = pthread_t()
        let box = Unmanaged.passRetained(body).toOpaque()
        // Held while the thread starts, so that it reads its own ID through `isCurrent`.
        condition.lock()
        let rc = pthread_create(&thread, &attributes, { raw in
            Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, box)
        pthread_attr_destroy(&attributes)
        guard rc == 0 else {
            condition.unlock()
            Unmanaged<Body>.fromOpaque(box).release()
            throw RenderError("cannot start the render thread: \(String(cString: strerror(rc)))")
        }
        threadID = thread
        condition.unlock()
        ready.wait()
        if let setUpError {
            condition.lock(); stopping = true; joined = true; condition.unlock()
            pthread_join(thread, nil)
            markEnded()
            throw setUpError
        }
        RenderThread.live.add(self)
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

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// True on this thread, false on any other: exact, not a hint.
    package var isCurrent: Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let id = threadID else { return false }
        return pthread_equal(id, pthread_self()) != 0
    }

    package func checkIsolated() {
        precondition(isCurrent, "Stipple: expected to run on render thread '\(name)', but this is another thread")
    }

    /// Runs `body` on the render thread and waits for its result. For synchronous callers
    /// (set-up, tear-down, tests); async code calls the `Renderer` actor instead.
    package func sync<T>(_ body: @escaping () throws -> T) throws -> T {
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

    /// Asks the thread to finish its queued work, tear down and end, and waits until the OS
    /// thread has ended (joined, its thread-exit destructors run). Called on the render
    /// thread itself it cannot wait for itself: it only asks, and another thread joins it.
    ///
    /// Called while another thread is joining it, it waits for that join: the thread stays
    /// among those `exit()` stops until it has ended, so a render thread that one thread is
    /// still stopping when another calls `exit()` has ended before the libraries'
    /// destructors run.
    package func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        guard let id = threadID else { condition.unlock(); return }
        let itself = pthread_equal(id, pthread_self()) != 0
        guard !joined else {
            while !ended && !itself { condition.wait() }
            condition.unlock()
            return
        }
        joined = true
        condition.unlock()
        guard !itself else {
            // It cannot wait for itself (a renderer whose last reference went on its own
            // thread): a thread of its own joins it, and until then exit() still waits for it.
            let reaper = Thread { [self] in
                pthread_join(id, nil)
                self.markEnded()
            }
            reaper.name = "\(name).join"
            reaper.start()
            return
        }
        pthread_join(id, nil)
        markEnded()
    }

    /// The OS thread has been joined: it is no longer among those exit() waits for, and
    /// every stop waiting for it returns.
    private func markEnded() {
        RenderThread.live.remove(self)
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    // MARK: ending before exit()

    /// Every render thread not yet stopped, for the `atexit` handler.
    private static let live = LiveThreads()

    /// Whether `exit()` would stop this thread (and wait for it) before the libraries'
    /// destructors run: from its start until it has been joined.
    package var awaitedAtExit: Bool { RenderThread.live.contains(self) }

    private final class LiveThreads: Sendable {
        private final class Entry { weak var thread: RenderThread?; init(_ t: RenderThread) { thread = t } }
        private struct State {
            var threads: [ObjectIdentifier: Entry] = [:]
            var registered = false
        }
        private let state = Mutex(State())

        func add(_ thread: RenderThread) {
            state.withLock { state in
                state.threads[ObjectIdentifier(thread)] = Entry(thread)
                if !state.registered {
                    state.registered = true
                    // Registered after libEGL was loaded, so it runs before libEGL's destructor.
                    atexit { RenderThread.live.stopAll() }
                }
            }
        }

        func contains(_ thread: RenderThread) -> Bool {
            state.withLock { $0.threads[ObjectIdentifier(thread)] != nil }
        }

        func remove(_ thread: RenderThread) {
            state.withLock { _ = $0.threads.removeValue(forKey: ObjectIdentifier(thread)) }
        }

        /// At exit: ends every render thread still running (each finishes what it is doing,
        /// tears its context down and ends) before the libraries' destructors run.
        func stopAll() {
            let running = state.withLock { state in
                defer { state.threads.removeAll() }
                return state.threads.values.compactMap(\.thread)
            }
            for thread in running { thread.stop() }
        }
    }
}
