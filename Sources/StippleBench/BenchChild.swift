import Foundation
import Stipple
#if canImport(Glibc)
import Glibc
#endif

extension BenchSuite {
    /// Runs `args` (the program's path first) as a child process, its stderr discarded;
    /// returns its wall time, its peak resident memory in KiB (VmHWM, read from /proc while it
    /// runs: wait4's ru_maxrss would also count this process's peak, which the child shares
    /// until exec) and its exit status.
    static func runMeasured(_ args: [String]) throws -> (seconds: Double, peakKiB: Int, status: Int32) {
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        let start = DispatchTime.now().uptimeNanoseconds
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let rc = posix_spawn(&pid, args[0], &actions, nil, &argv, environ)
        guard rc == 0 else { throw RenderError("cannot start \(args[0]): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        var peak = 0
        while true {
            peak = max(peak, highWaterKiB(of: pid))
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done < 0 && errno != EINTR { throw RenderError("lost the child \(args[0]): \(String(cString: strerror(errno)))") }
            usleep(10_000)
        }
        return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, peak, status)
    }
}
