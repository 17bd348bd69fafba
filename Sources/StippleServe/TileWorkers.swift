import CStipple
import Foundation

/// Where tile jobs run: threads of their own at the tiles' nice value (as llvmpipe's), not
/// the pool every other task shares, so a tile's CPU work (PNGs encoded and decoded, stamps
/// laid and binned, rows reduced) never holds up the relay of a stroke to the other clients
/// or the answer to a cached tile: when the cores are all busy, the live channel goes first.
final class TileWorkers: TaskExecutor, @unchecked Sendable {
    static let shared = TileWorkers(threads: 2 * max(1, ProcessInfo.processInfo.activeProcessorCount))
    /// Jobs waiting, first in first out, in two lanes: those above medium priority (a
    /// preview's, a few milliseconds that a viewer waits on) go before the rest (exact tiles'
    /// renders and remakes, and work made for another tile's sake). Guarded by `ready`.
    private var lanes: [[UnownedJob]] = [[], []]
    private var heads = [0, 0]
    private let ready = NSCondition()

    /// `threads` threads at the tiles' nice value for both lanes (a tile job's waits suspend
    /// it, its CPU work holds a thread: twice the cores keeps them busy while some wait on the
    /// render thread), and one a core at the server's own priority for the first lane alone:
    /// a preview is as short as a stroke's relay, and a viewer waits on it.
    init(threads: Int) {
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        for n in 0..<(threads + cores) {
            let urgentOnly = n >= threads
            let name = urgentOnly ? "stipple-view-\(n - threads)" : "stipple-tiles-\(n)"
            let thread = Thread { [self] in
                _ = stp_thread_set_name(name)  // as the system shows it (Foundation's name does not reach it on Linux)
                if !urgentOnly { _ = stp_thread_set_niceness(StippleServer.tileNiceness) }
                while true { next(urgentOnly: urgentOnly).runSynchronously(on: asUnownedTaskExecutor()) }
            }
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let lane = job.priority.rawValue > TaskPriority.medium.rawValue ? 0 : 1
        let job = UnownedJob(job)
        ready.lock()
        lanes[lane].append(job)
        ready.broadcast()
        ready.unlock()
    }

    private func next(urgentOnly: Bool) -> UnownedJob {
        ready.lock()
        defer { ready.unlock() }
        while true {
            for lane in 0..<(urgentOnly ? 1 : 2) where heads[lane] < lanes[lane].count {
                let job = lanes[lane][heads[lane]]
                heads[lane] += 1
                if heads[lane] == lanes[lane].count { lanes[lane].removeAll(keepingCapacity: true); heads[lane] = 0 }
                return job
            }
            ready.wait()
        }
    }
}
