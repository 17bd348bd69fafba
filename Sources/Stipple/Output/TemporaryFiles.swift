import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The temporary files an output is being written into (`.NAME.tmp-PID-N` beside it),
/// removed when the process is ended by SIGTERM, SIGINT or SIGHUP (`timeout`, Ctrl-C, a
/// closed terminal), so that a killed run leaves no hidden file behind (docs/limits.md).
///
/// Signals belong to the program, not to a library it links: the handlers are installed
/// only when the program asks (`removeOnFatalSignals()`, which the `stipple` command does).
/// In any other host, temporaries are tracked all the same and nothing changes its signals.
///
/// The handler is async-signal-safe: it only reads a fixed table of C strings (buffers that
/// are never freed, flagged live once written), calls unlink(2) on each live one, and
/// re-raises the signal with its default action (SA_RESETHAND), so the process still ends by
/// that signal.
package enum TemporaryFiles {
    static let capacity = 512
    /// Bytes a slot holds: PATH_MAX and its NUL. A longer path is written but not tracked.
    static let slotBytes = 4097
    /// The table the handler reads: a slot's buffer is allocated once and never freed, so
    /// the handler can never read freed memory; `live[i]` says whether slot i names a file
    /// now (set after the path is written, cleared before the slot is reused).
    nonisolated(unsafe) static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let p = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        p.initialize(repeating: nil, count: capacity)
        return p
    }()
    nonisolated(unsafe) static let live: UnsafeMutablePointer<Int32> = {
        let p = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        p.initialize(repeating: 0, count: capacity)
        return p
    }()
    private static let lock = NSLock()
    nonisolated(unsafe) private static var installed = false

    /// A registration: pass it to `forget` once the temporary is renamed or removed.
    package struct Ticket: Sendable { let slot: Int? }

    /// Installs the SIGTERM, SIGINT and SIGHUP handlers that remove registered temporaries
    /// (and kill registered children) before the process ends by the signal. For a program's
    /// entry point; a signal it already ignores stays ignored.
    package static func removeOnFatalSignals() {
        lock.lock(); defer { lock.unlock() }
        if !installed { _ = live; _ = children; installHandlers(); installed = true }
    }

    /// Registers `path` (before it is created) so that a fatal signal removes it.
    package static func track(_ path: String) -> Ticket {
        lock.lock(); defer { lock.unlock() }
        _ = live
        let bytes = Array(path.utf8CString)
        guard bytes.count <= slotBytes else { return Ticket(slot: nil) }
        for i in 0..<capacity where live[i] == 0 {
            if slots[i] == nil { slots[i] = UnsafeMutablePointer<CChar>.allocate(capacity: slotBytes) }
            bytes.withUnsafeBufferPointer { slots[i]!.update(from: $0.baseAddress!, count: $0.count) }
            live[i] = 1
            return Ticket(slot: i)
        }
        return Ticket(slot: nil)  // more files in flight than slots: still written, just not cleaned on a signal
    }

    /// Unregisters a temporary that was renamed into place or removed.
    package static func forget(_ ticket: Ticket) {
        guard let i = ticket.slot else { return }
        lock.lock(); defer { lock.unlock() }
        live[i] = 0
    }

    /// Child processes writing into a temporary (ffmpeg encoding a container): on a signal
    /// they are killed and reaped before the temporaries are removed, so that none writes a
    /// file back after it was removed.
    static let childCapacity = 64
    nonisolated(unsafe) static let children: UnsafeMutablePointer<Int32> = {
        let p = UnsafeMutablePointer<Int32>.allocate(capacity: childCapacity)
        p.initialize(repeating: 0, count: childCapacity)
        return p
    }()

    /// Registers a running child; pass the ticket to `forgetChild` once it has been waited for.
    package static func trackChild(_ pid: Int32) -> Ticket {
        lock.lock(); defer { lock.unlock() }
        _ = children
        for i in 0..<childCapacity where children[i] == 0 {
            children[i] = pid
            return Ticket(slot: i)
        }
        return Ticket(slot: nil)
    }

    package static func forgetChild(_ ticket: Ticket) {
        guard let i = ticket.slot else { return }
        lock.lock(); defer { lock.unlock() }
        children[i] = 0
    }

    /// Ends the process by `sig` now, as the handlers would: children killed, temporaries
    /// removed, the signal raised under its default action. For a program that catches a
    /// signal to stop gently and is sent it again.
    package static func endBySignal(_ sig: Int32) -> Never {
        signal(sig, SIG_DFL)
        removeTemporariesAndDie(sig)
        exit(128 + sig)
    }

    /// The paths registered now (for tests).
    static var pending: [String] {
        lock.lock(); defer { lock.unlock() }
        return (0..<capacity).compactMap { live[$0] != 0 ? slots[$0].map { String(cString: $0) } : nil }
    }

    /// Whether `sig` is ignored now (SIG_IGN): as a parent left it (nohup, a background job
    /// of a script), since a program that catches signals keeps an ignored one ignored.
    package static func isIgnored(_ sig: Int32) -> Bool {
        var current = sigaction()
        sigaction(sig, nil, &current)
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    private static func installHandlers() {
        _ = slots  // made before any handler can read it
        for sig in [SIGTERM, SIGINT, SIGHUP] {
            // A signal the parent had ignored (nohup) stays ignored.
            if isIgnored(sig) { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = removeTemporariesAndDie
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND) | UInt32(SA_NODEFER))
            sigaction(sig, &action, nil)
        }
    }
}

/// Kills and reaps every registered child, unlinks every registered temporary, then
/// re-raises `sig` under its default action.
private func removeTemporariesAndDie(_ sig: Int32) {
    let children = TemporaryFiles.children
    var c = 0
    while c < TemporaryFiles.childCapacity {
        let pid = children[c]
        if pid > 0 {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
        c += 1
    }
    let slots = TemporaryFiles.slots, live = TemporaryFiles.live
    var i = 0
    while i < TemporaryFiles.capacity {
        if live[i] != 0, let p = slots[i] { unlink(p) }
        i += 1
    }
    raise(sig)
}
