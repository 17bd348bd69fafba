import CStipple
import Foundation
import XCTest
@testable import Stipple

/// The context guard: GL from any thread but the render thread is caught, never run.
final class GLGuardTests: XCTestCase {
    private final class Recorder: @unchecked Sendable {
        let lock = NSLock()
        var violations: [GLGuard.Violation] = []
        func add(_ v: GLGuard.Violation) { lock.lock(); violations.append(v); lock.unlock() }
        var all: [GLGuard.Violation] { lock.lock(); defer { lock.unlock() }; return violations }
    }

    func testCallFromWrongThreadIsCaughtAndNotMade() throws {
        let context = try GLContext(platform: .automatic)
        let thread = try RenderThread(name: "guard-test", setUp: { try context.makeCurrent() },
                                      tearDown: { context.close() })
        defer { thread.stop() }
        let gl = GL(context: context)
        let recorder = Recorder()
        GLGuard.setViolationHandler { recorder.add($0) }
        defer { GLGuard.setViolationHandler(nil) }

        // On the render thread: allowed, counted.
        let renderer = try thread.sync { gl.getString(GLenum(0x1F01)) }  // GL_RENDERER
        XCTAssertFalse(renderer.isEmpty)
        XCTAssertTrue(recorder.all.isEmpty)
        let callsBefore = try thread.sync { gl.stats.calls }

        // From the test's own thread: caught, named, and not made.
        gl.clear(red: 1, green: 0, blue: 0, alpha: 1)
        gl.drawArrays(0, first: 0, count: 3)
        let caught = recorder.all
        XCTAssertEqual(caught.map(\.call), ["glClearColor", "glDrawArrays"])
        XCTAssertTrue(caught[0].description.contains("not from the render thread"), caught[0].description)
        XCTAssertEqual(try thread.sync { gl.stats.calls }, callsBefore, "a guarded call was made anyway")
    }

    func testRenderThreadIsTheOnlyIsolatedThread() throws {
        let context = try GLContext(platform: .automatic)
        let thread = try RenderThread(name: "iso-test", setUp: { try context.makeCurrent() },
                                      tearDown: { context.close() })
        defer { thread.stop() }
        XCTAssertFalse(thread.isCurrent)
        XCTAssertTrue(try thread.sync { thread.isCurrent })
        XCTAssertTrue(try thread.sync { context.isCurrentHere() })
        XCTAssertFalse(context.isCurrentHere())
    }

    /// In a child process with the default handler, a wrong-thread call stops the process
    /// with a message that names the call.
    func testWrongThreadCallStopsTheProcessByDefault() throws {
        if ProcessInfo.processInfo.environment["STIPPLE_GUARD_CHILD"] == "1" {
            let context = try GLContext(platform: .automatic)
            let thread = try RenderThread(name: "child", setUp: { try context.makeCurrent() },
                                          tearDown: { context.close() })
            _ = thread
            GL(context: context).drawArrays(0, first: 0, count: 1)
            XCTFail("the guard let a wrong-thread call through")
            return
        }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["StippleTests.GLGuardTests/testWrongThreadCallStopsTheProcessByDefault"]
        var env = ProcessInfo.processInfo.environment
        env["STIPPLE_GUARD_CHILD"] = "1"
        // The trap is what is tested, not Swift's backtracer (which, under AddressSanitizer,
        // trips ASan reading the crashed process's memory and then hangs).
        env["SWIFT_BACKTRACE"] = "enable=no"
        child.environment = env
        let stderr = Pipe(), stdout = Pipe()
        child.standardError = stderr
        child.standardOutput = stdout
        try child.run()
        let (_, errData) = TestSupport.collect(child, out: stdout, err: stderr)
        let err = String(decoding: errData, as: UTF8.self)
        XCTAssertNotEqual(child.terminationStatus, 0)
        XCTAssertTrue(err.contains("Stipple: glDrawArrays called from"), "stderr:\n\(err)")
        if let sanitizer = ["AddressSanitizer", "ThreadSanitizer"].first(where: { err.contains("ERROR: \($0)") || err.contains("WARNING: \($0)") }) {
            // A sanitizer that catches the trap's signal reports it and exits (its way of
            // stopping the process); the trap itself must be what stopped it.
            XCTAssertTrue(err.contains("SIGILL") || err.contains("ILL") || err.contains("signal"),
                          "\(sanitizer) stopped the child, but not on the trap:\n\(err)")
        } else {
            XCTAssertEqual(child.terminationReason, .uncaughtSignal, "expected a trap; stderr:\n\(err)")
        }
    }

    /// A renderer's methods all run on its render thread: a render from a pool thread
    /// causes no violation.
    func testRendererCallsFromAnyTaskStayOnItsThread() async throws {
        let recorder = Recorder()
        GLGuard.setViolationHandler { recorder.add($0) }
        defer { GLGuard.setViolationHandler(nil) }
        let renderer = try Renderer()
        let stamps = [SketchPoint(x: 8, y: 8, radius: 4)]
        for _ in 0..<3 {
            _ = try await Task.detached {
                try await renderer.render(canvas: Canvas(width: 16, height: 16),
                                          batches: [StampBatch(brushKey: "b", brush: .builtin(.hardRound, size: 8), stamps: stamps)])
            }.value
        }
        XCTAssertTrue(recorder.all.isEmpty, "\(recorder.all)")
    }
}
