import Foundation
import Synchronization
import XCTest
@testable import StippleServe

/// What the server sends one client: a line posted while the client is quiet goes at once,
/// alone; lines posted faster than the pace wait for it and go together, in order, in one
/// message.
final class OutboxTests: XCTestCase {
    private final class Messages: Sendable {
        private let sent = Mutex<[(lines: [String], at: ContinuousClock.Instant)]>([])
        func append(_ lines: [String]) { sent.withLock { $0.append((lines, .now)) } }
        var all: [(lines: [String], at: ContinuousClock.Instant)] { sent.withLock { $0 } }
    }

    func testLinesFasterThanThePaceGoTogether() async throws {
        let outbox = Outbox()
        let messages = Messages()
        // A long pace, so that the burst below is posted well within it however busy the machine.
        let pace = Duration.seconds(2)
        let writer = Task { try await outbox.deliver(every: pace) { messages.append($0) } }
        func wait(for count: Int) async throws {
            for _ in 0..<2_000 where messages.all.count < count { try await Task.sleep(for: .milliseconds(5)) }
        }
        let posted = ContinuousClock.now
        outbox.post("first")
        try await wait(for: 1)
        XCTAssertEqual(messages.all.map(\.lines), [["first"]], "a line to a quiet client goes alone")
        XCTAssertLessThan(messages.all[0].at - posted, pace / 2, "a line to a quiet client goes at once")
        let burst = (0..<99).map { #"{"live":\#($0)}"# }
        for line in burst { outbox.post(line) }
        try await wait(for: 2)
        let sent = messages.all
        XCTAssertEqual(sent.count, 2)
        XCTAssertEqual(sent.last?.lines, burst, "the burst in one message, in order")
        if sent.count == 2 { XCTAssertGreaterThanOrEqual(sent[1].at - sent[0].at, pace * 0.9, "the burst waited for the pace") }
        XCTAssertEqual(outbox.waiting, 0)
        outbox.close()
        writer.cancel()
        _ = await writer.result
    }
}
