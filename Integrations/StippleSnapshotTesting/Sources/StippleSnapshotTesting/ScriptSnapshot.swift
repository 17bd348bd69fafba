import Foundation
import SnapshotTesting
import Stipple
#if canImport(Testing)
import Testing
#endif

/// Renders script files for `.stippleScript`. swift-snapshot-testing waits for a snapshot by
/// blocking its test's thread, so the rendering runs on a task executor of its own (a
/// serial queue), never on the shared pool that blocked tests could exhaust.
enum ScriptSnapshot {
    static let renderer: Result<Renderer, any Error> = Result {
        let requested = ProcessInfo.processInfo.environment["STIPPLE_EGL_PLATFORM"] ?? ""
        return try Renderer(platform: EGLPlatform(rawValue: requested.lowercased()) ?? .automatic)
    }

    static let executor = QueueTaskExecutor()

    /// The image of the script at `path` at `frame`. A script that cannot be read or drawn
    /// is reported as the test's failure, and snapshots as an empty image.
    static func render(path: String, frame: Int, primitive: Primitive) -> Async<Image> {
        Async { callback in
            let done = Callback(callback)
            Task(executorPreference: executor) {
                do {
                    let scene = try Scene.load(path: path)
                    done.call(try await renderer.get().render(scene, frame: frame, primitive: primitive))
                } catch {
                    reportFailure("stippleScript: \(path): \(error)")
                    done.call(Image(width: 0, height: 0, pixels: []))
                }
            }
        }
    }

    /// To the running Swift Testing test (the task inherits it), and always to standard error.
    static func reportFailure(_ message: String) {
        FileHandle.standardError.write(Data("stipple: \(message)\n".utf8))
        #if canImport(Testing)
        if Test.current != nil { Issue.record(Comment(rawValue: message)) }
        #endif
    }
}

/// swift-snapshot-testing's completion, called once from the rendering task while the
/// test's thread waits for it (an `XCTestExpectation`, which is thread-safe).
struct Callback: @unchecked Sendable {
    let call: (Image) -> Void
    init(_ call: @escaping (Image) -> Void) { self.call = call }
}

/// Runs tasks' jobs one after another on a dispatch queue.
final class QueueTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "stipple.snapshot-testing")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
