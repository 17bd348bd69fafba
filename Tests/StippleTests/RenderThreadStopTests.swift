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

    func testASecondStopWaitsForTheThreadToEnd() throws {
        let tearingDown = DispatchSemaphore(value: 0)
        let tornDown = Flag()
        // No GL: the thread's tear-down is slow, as a context's can be.
        let thread = try RenderThread(name: "stop-test", setUp: {}, tearDown: {
            tearingDown.signal()
            Thread.sleep(forTimeInterval: 0.3)
            tornDown.set()
        })
        let first = Thread { thread.stop() }
        first.start()
        XCTAssertTrue(thread.awaitedAtExit)
        // The first stop is joining the thread, which is tearing down: exit() would still
        // wait for it, and so does a second stop.
        XCTAssertEqual(tearingDown.wait(timeout: .now() + 10), .success)
        XCTAssertTrue(thread.awaitedAtExit, "a thread being joined is left out of those exit() waits for")
        thread.stop()
        XCTAssertTrue(tornDown.isSet, "the second stop returned while the thread was still ending")
        XCTAssertFalse(thread.awaitedAtExit)
    }

    func testAThreadStoppedFromItselfIsStillAwaitedUntilItEnds() throws {
        let tornDown = Flag()
        let thread = try RenderThread(name: "stop-test-itself", setUp: {}, tearDown: {
            Thread.sleep(forTimeInterval: 0.3)
            tornDown.set()
        })
        // As a renderer whose last reference goes on its own thread stops it.
        try thread.sync { thread.stop() }
        XCTAssertTrue(thread.awaitedAtExit, "a thread stopped from itself is left out of those exit() waits for")
        thread.stop()
        XCTAssertTrue(tornDown.isSet, "a stop returned while the thread was still ending")
        XCTAssertFalse(thread.awaitedAtExit)
    }

    func testStopOnAThreadThatEndedReturns() throws {
        let thread = try RenderThread(name: "stop-test-twice", setUp: {}, tearDown: {})
        thread.stop()
        thread.stop()
    }
}
