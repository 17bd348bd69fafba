import Foundation
import Synchronization
import XCTest
@testable import Stipple

/// Ending a render thread: `stop()` returns once the thread has ended, whoever else is
/// stopping it at the same time, and a thread stopped from itself (a renderer released on
/// its own thread) stays among those `exit()` waits for until another thread has joined it.
/// `exit()` stops every render thread first, before libEGL's destructor frees every thread's
/// EGL state: a render thread still ending then was a double free at exit.
final class RenderThreadStopTests: XCTestCase {
    private final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        func set() { value.store(true, ordering: .sequentiallyConsistent) }
        var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
    }

    /// A render thread whose tear-down waits for `release`; `tearingDown` is signalled as it
    /// begins, `tornDown` set as it ends.
    private func heldThread(_ name: String, release: DispatchSemaphore, tearingDown: DispatchSemaphore? = nil,
                            tornDown: Flag) throws -> RenderThread {
        // No GL: a tear-down that takes as long as the test says, as a context's can be slow.
        try RenderThread(name: name, setUp: {}, tearDown: {
            tearingDown?.signal()
            release.wait()
            tornDown.set()
        })
    }

    /// Releases `thread`'s tear-down in 0.3 s and stops it meanwhile, from a thread of the
    /// test's own: that stop returns (within ten seconds; one waiting for a join nobody
    /// makes would not), only after the tear-down, and exit() no longer waits for the thread.
    private func assertStopWaitsForTheEnd(_ thread: RenderThread, release: DispatchSemaphore, tornDown: Flag,
                                          file: StaticString = #filePath, line: UInt = #line) {
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { release.signal() }
        let stopped = DispatchSemaphore(value: 0)
        Thread { thread.stop(); stopped.signal() }.start()
        XCTAssertEqual(stopped.wait(timeout: .now() + 10), .success, "a stop never returned", file: file, line: line)
        XCTAssertTrue(tornDown.isSet, "a stop returned while the thread was still ending", file: file, line: line)
        XCTAssertFalse(thread.awaitedAtExit, file: file, line: line)
    }

    func testASecondStopWaitsForTheThreadToEnd() throws {
        let release = DispatchSemaphore(value: 0), tearingDown = DispatchSemaphore(value: 0)
        let tornDown = Flag()
        let thread = try heldThread("stop-test", release: release, tearingDown: tearingDown, tornDown: tornDown)
        XCTAssertTrue(thread.awaitedAtExit)
        let first = Thread { thread.stop() }
        first.start()
        // The first stop is joining the thread, which is tearing down: exit() would still
        // wait for it, and so does a second stop.
        XCTAssertEqual(tearingDown.wait(timeout: .now() + 10), .success)
        XCTAssertTrue(thread.awaitedAtExit, "a thread being joined is left out of those exit() waits for")
        assertStopWaitsForTheEnd(thread, release: release, tornDown: tornDown)
    }

    func testAThreadStoppedFromItselfIsStillAwaitedUntilItEnds() throws {
        let release = DispatchSemaphore(value: 0)
        let tornDown = Flag()
        let thread = try heldThread("stop-test-itself", release: release, tornDown: tornDown)
        // As a renderer whose last reference goes on its own thread stops it.
        try thread.sync { thread.stop() }
        XCTAssertTrue(thread.awaitedAtExit, "a thread stopped from itself is left out of those exit() waits for")
        assertStopWaitsForTheEnd(thread, release: release, tornDown: tornDown)
    }

    func testStopOnAThreadThatEndedReturns() throws {
        let thread = try RenderThread(name: "stop-test-twice", setUp: {}, tearDown: {})
        thread.stop()
        thread.stop()
    }
}
