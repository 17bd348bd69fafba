import Foundation
import Synchronization
import SnapshotTesting
import Stipple
import XCTest
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

    /// The image of the script at `path` at `frame`, rendered while the test's thread waits.
    /// A script that cannot be read or drawn fails the test with its error, every time: the
    /// failure is recorded on the test's thread (Swift Testing or XCTest) and no image is
    /// delivered, so swift-snapshot-testing neither compares nor records anything (it adds
    /// that the snapshot timed out).
    static func render(path: String, frame: Int, primitive: Primitive) -> Async<Image> {
        Async { callback in
            let outcome = RenderOutcome()
            let done = DispatchSemaphore(value: 0)
            Task(executorPreference: executor) {
                do {
                    let scene = try Scene.load(path: path)
                    outcome.set(.success(try await renderer.get().render(scene, frame: frame, primitive: primitive)))
                } catch {
                    outcome.set(.failure(error))
                }
                done.signal()
            }
            done.wait()
            switch outcome.get() {
            case let .success(image)?: callback(image)
            case let .failure(error)?: reportFailure("stippleScript: \(path): \(error)")
            case nil: reportFailure("stippleScript: \(path): the render gave no result")
            }
        }
    }

    /// Records a failure of the running test (Swift Testing's issue, else XCTest's), and
    /// writes it to standard error.
    static func reportFailure(_ message: String, file: StaticString = #filePath, line: UInt = #line) {
        FileHandle.standardError.write(Data("stipple: \(message)\n".utf8))
        #if canImport(Testing)
        if Test.current != nil {
            Issue.record(Comment(rawValue: message))
            return
        }
        #endif
        XCTFail(message, file: file, line: line)
    }
}

/// The render's result, handed from the rendering task to the waiting test thread.
final class RenderOutcome: Sendable {
    private let value = Mutex<Result<Image, any Error>?>(nil)
    func set(_ result: Result<Image, any Error>) { value.withLock { $0 = result } }
    func get() -> Result<Image, any Error>? { value.withLock { $0 } }
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
