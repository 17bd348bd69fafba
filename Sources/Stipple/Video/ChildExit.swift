import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Ending a child process without hanging. Foundation's `waitUntilExit` waits for its own
/// record of the exit, and a child it never saw reaped (ended by a signal we sent while its
/// exit raced Foundation's own reaping) leaves that record "running" for ever: the wait here
/// also asks the kernel whether the child is still there, and gives up after a deadline.
package extension Process {
    /// Waits until the child has ended; false when `timeout` seconds passed first.
    @discardableResult
    func waitForExit(timeout: Double) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
        let pid = processIdentifier
        while isRunning {
            // Gone altogether: reaped already, whoever reaped it.
            if pid > 0 && kill(pid, 0) != 0 && errno == ESRCH { return true }
            if DispatchTime.now().uptimeNanoseconds >= deadline { return false }
            usleep(5_000)
        }
        return true
    }

    /// Ends the child: SIGTERM, SIGKILL after `grace` seconds, and waits for it to go.
    func end(grace: Double = 5) {
        guard isRunning else { return }
        terminate()
        if waitForExit(timeout: grace) { return }
        kill(processIdentifier, SIGKILL)
        waitForExit(timeout: 10)
    }
}
