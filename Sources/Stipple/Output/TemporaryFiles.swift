import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The temporary files an output is being written into (`.NAME.tmp-PID-N` beside it),
/// removed when the process is ended by SIGTERM, SIGINT or SIGHUP (`timeout`, Ctrl-C, a
/// closed terminal), so that a killed run leaves no hidden file behind (docs/limits.md).
///
/// The handler is async-signal-safe: it only reads a fixed table of C strings made before
/// the signal could name them, calls unlink(2) on each, and re-raises the signal with its
/// default action (SA_RESETHAND), so the process still ends by that signal.
public enum TemporaryFiles {
    static let capacity = 512
    /// The table the handler reads: a slot is a strdup'ed path or nil.
    nonisolated(unsafe) static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let p = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        p.initialize(repeating: nil, count: capacity)
        return p
    }()
    private static let lock = NSLock()
    nonisolated(unsafe) private static var installed = false

    /// A registration: pass it to `forget` once the temporary is renamed or removed.
    public struct Ticket: Sendable { let slot: Int? }

    /// Registers `path` (before it is created) so that a fatal signal removes it.
    public static func track(_ path: String) -> Ticket {
        lock.lock(); defer { lock.unlock() }
        if !installed { installHandlers(); installed = true }
        for i in 0..<capacity where slots[i] == nil {
            slots[i] = strdup(path)
            return Ticket(slot: i)
        }
        return Ticket(slot: nil)  // more files in flight than slots: still written, just not cleaned on a signal
    }

    /// Unregisters a temporary that was renamed into place or removed.
    public static func forget(_ ticket: Ticket) {
        guard let i = ticket.slot else { return }
        lock.lock(); defer { lock.unlock() }
        let p = slots[i]
        slots[i] = nil
        free(p)
    }

    /// The paths registered now (for tests).
    static var pending: [String] {
        lock.lock(); defer { lock.unlock() }
        return (0..<capacity).compactMap { slots[$0].map { String(cString: $0) } }
    }

    private static func installHandlers() {
        _ = slots  // made before any handler can read it
        for sig in [SIGTERM, SIGINT, SIGHUP] {
            var old = sigaction()
            sigaction(sig, nil, &old)
            // A signal the parent had ignored (nohup) stays ignored.
            if unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = removeTemporariesAndDie
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND) | UInt32(SA_NODEFER))
            sigaction(sig, &action, nil)
        }
    }
}

/// Unlinks every registered temporary, then re-raises `sig` under its default action.
private func removeTemporariesAndDie(_ sig: Int32) {
    let slots = TemporaryFiles.slots
    var i = 0
    while i < TemporaryFiles.capacity {
        if let p = slots[i] { unlink(p) }
        i += 1
    }
    raise(sig)
}
