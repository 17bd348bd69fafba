import CStipple
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An EGL display, config and context, opened by the C shim, and the guard that proves a
/// GL call runs on the one thread that has this context current.
// Unchecked: its EGL handles are used only on the render thread that made the context current (`owner`, set
// once there; the guard checks every GL entry against it).
final class GLContext: @unchecked Sendable {
    private let egl: OpaquePointer
    let platform: EGLPlatform
    let platformReason: String
    let eglVersion: String
    let eglVendor: String
    let device: String
    let context: EGLContext?
    /// The thread that made the context current; set once, on that thread.
    private(set) var owner: pthread_t?

    init(platform request: EGLPlatform) throws {
        var err = [CChar](repeating: 0, count: 1024)
        guard let egl = stp_egl_open(request.cValue, &err, err.count) else {
            throw RenderError("no usable EGL: " + String(cBuffer: err))
        }
        self.egl = egl
        platform = EGLPlatform(stp_egl_platform(egl))
        platformReason = String(cString: stp_egl_reason(egl))
        eglVersion = String(cString: stp_egl_version(egl))
        eglVendor = String(cString: stp_egl_vendor(egl))
        device = String(cString: stp_egl_device(egl))
        context = stp_egl_context(egl)
    }

    /// Makes the context current on the calling thread, for good: the render thread calls it once.
    func makeCurrent() throws {
        var err = [CChar](repeating: 0, count: 512)
        guard stp_egl_make_current(egl, &err, err.count) == 0 else {
            throw RenderError(String(cBuffer: err))
        }
        owner = pthread_self()
    }

    private var closed = false

    /// Releases the context and destroys it (and the display, when no other context uses
    /// it). The render thread calls it as it ends, so that everything EGL and the driver
    /// hold is gone before the thread is: a process that exits while a driver is still
    /// tearing down on another thread can crash in its exit handlers.
    func close() {
        guard !closed else { return }
        closed = true
        stp_egl_release_current(egl)
        stp_egl_close(egl)
        // Last: destroying made EGL calls, which leave per-thread state behind; a thread
        // that ends holding it races glvnd's exit-time destructor (see RenderThread).
        stp_egl_release_thread()
    }

    deinit { if !closed { stp_egl_close(egl) } }

    /// True when the calling thread made this context current (Stipple's own thread-local
    /// record, one read): the check before every GL call.
    @inline(__always)
    func isCurrentHere() -> Bool {
        UnsafeRawPointer(stp_egl_current_here()) == UnsafeRawPointer(egl)
    }

    /// True when EGL itself agrees that this context is current here: checked once a frame,
    /// it catches code outside Stipple that made another context current on the render thread.
    func isCurrentInEGL() -> Bool { stp_egl_is_current_in_egl(egl) != 0 }
}

/// What happens when GL is called where it must not be. By default the process stops at
/// once with a message naming the call (a GL call on the wrong thread corrupts state
/// silently otherwise); tests install a handler that records the violation instead. In
/// either case the call itself is not made.
public enum GLGuard {
    /// A GL call refused by the guard: what was called and why it could not run.
    public struct Violation: Sendable, CustomStringConvertible {
        /// The GL function that was called, e.g. "glDrawArrays".
        public let call: String
        /// Why it was refused: from which thread, or with which context current.
        public let reason: String
        /// One line naming the call and the reason.
        public var description: String { "Stipple: \(call) called \(reason)" }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var handler: (@Sendable (Violation) -> Void)?

    /// Replaces the violation handler; nil restores the default (stop the process).
    public static func setViolationHandler(_ newHandler: (@Sendable (Violation) -> Void)?) {
        lock.lock(); handler = newHandler; lock.unlock()
    }

    static func report(_ violation: Violation) {
        lock.lock(); let h = handler; lock.unlock()
        if let h {
            h(violation)
        } else {
            fatalError(violation.description)
        }
    }
}

extension GLContext {
    /// A context opened on a short-lived thread at nice value `niceness`: the threads a CPU
    /// driver starts as it opens a context (llvmpipe's rasterisers, with the process's first)
    /// inherit that thread's priority, and the render thread that makes it current keeps its
    /// own. Where the system refuses the nice value, the context is opened all the same.
    static func made(niceness: Int32, platform: EGLPlatform) throws -> GLContext {
        // Written by the thread before it signals, read after the wait.
        nonisolated(unsafe) var result: Result<GLContext, Error>?
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            _ = stp_thread_set_name("stipple.context")
            _ = stp_thread_set_niceness(niceness)
            result = Result { try GLContext(platform: platform) }
            done.signal()
        }
        thread.start()
        done.wait()
        return try result!.get()
    }
}
