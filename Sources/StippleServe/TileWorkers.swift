import CStipple
import Foundation

/// Where tile jobs run: threads of their own at the tiles' nice value (as llvmpipe's), not
/// the pool every other task shares, so a tile's CPU work (PNGs encoded and decoded, stamps
/// laid and binned, rows reduced) never holds up the relay of a stroke to the other clients
/// or the answer to a cached tile: when the cores are all busy, the live channel goes first.
final class TileWorkers: TaskExecutor, @unchecked Sendable {
    static let shared = TileWorkers(threads: 2 * max(1, ProcessInfo.processInfo.activeProcessorCount))
    /// Jobs waiting, first in first out; guarded by `ready`.
    private var jobs: [UnownedJob] = []
    private var head = 0
    private let ready = NSCondition()

    /// `threads` threads (a tile job's waits suspend it, its CPU work holds a thread: twice
    /// the cores keeps them busy while some wait on the render thread).
    init(threads: Int) {
        for n in 0..<threads {
            let thread = Thread { [self] in
                _ = stp_thread_set_niceness(StippleServer.tileNiceness)
                while true { next().runSynchronously(on: asUnownedTaskExecutor()) }
            }
            thread.name = "stipple-tiles-\(n)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        ready.lock()
        jobs.append(job)
        ready.signal()
        ready.unlock()
    }

    private func next() -> UnownedJob {
        ready.lock()
        defer { ready.unlock() }
        while head == jobs.count { ready.wait() }
        let job = jobs[head]
        head += 1
        if head == jobs.count { jobs.removeAll(keepingCapacity: true); head = 0 }
        return job
    }
}
