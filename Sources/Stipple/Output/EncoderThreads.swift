import CStipple
import Foundation

/// Threads of their own, at a low priority, for output encoded and written while a renderer
/// draws the next frame. Where the driver rasterises on the CPU (llvmpipe), its threads and
/// these share the cores: at nice 19 the encoders take what the drawing leaves (its waits
/// between draws, its threads idle at a frame's end) and never make the renderer wait for a
/// core. On Linux, nice values weigh threads against the others of their session (the
/// scheduler's autogroups), so this orders the process's own work and does not hand its
/// share of the machine to other programs. Where the system refuses the nice value, the
/// threads run at the process's own.
///
/// Measured, 300 frames of 1280×720 to PNG files on two cores with llvmpipe (the same PNG
/// writer, one run each): with encoders on Dispatch's threads at the process's priority, the
/// frames took 1.48× and 1.60× the longer of rendering alone and encoding alone (spread over
/// the cores), 1.11× and 1.13× the floor that the CPU work of both sets; on these threads
/// 1.24–1.34× (three runs), 0.93–1.00× that floor.
final class EncoderThreads: @unchecked Sendable {
    /// One thread a core, at nice 19.
    static let shared = EncoderThreads(threads: max(1, ProcessInfo.processInfo.activeProcessorCount), niceness: 19,
                                       name: "stipple-png")

    /// Jobs waiting, first in first out; guarded by `ready`.
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private let ready = NSCondition()

    /// `name`: the threads' names, numbered (at most 15 bytes with the number, Linux's limit).
    init(threads: Int, niceness: Int32, name: String) {
        for n in 0..<max(1, threads) {
            let thread = Thread { [self] in
                // Named by the system's call, from within: Foundation's name does not reach a
                // Linux thread, which would keep its creator's (`perf` and `top` show this one).
                _ = stp_thread_set_name("\(name)-\(n)")
                _ = stp_thread_set_niceness(niceness)
                while true { next()() }
            }
            thread.start()
        }
    }

    /// Runs `body` on one of the threads and returns what it returns (or throws what it throws).
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<T, Error>) in
            submit { done.resume(with: Result { try body() }) }
        }
    }

    private func submit(_ job: @escaping @Sendable () -> Void) {
        ready.lock()
        jobs.append(job)
        ready.signal()
        ready.unlock()
    }

    private func next() -> @Sendable () -> Void {
        ready.lock()
        defer { ready.unlock() }
        while head == jobs.count { ready.wait() }
        let job = jobs[head]
        head += 1
        if head == jobs.count { jobs.removeAll(keepingCapacity: true); head = 0 }
        return job
    }
}
