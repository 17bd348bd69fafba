import Foundation
import Synchronization
import XCTest
@testable import StippleServe

/// What the server sends one client: a line posted while the client is quiet goes at once,
/// alone; lines posted faster than the pace go together, in order, in the next message.
final class OutboxTests: XCTestCase {
    private final class Messages: Sendable {
        private let sent = Mutex<[[String]]>([])
        func withLock<T>(_ body: (inout [[String]]) -> T) -> T { sent.withLock { body(&$0) } }
    }

    func testLinesFasterThanThePaceGoTogether() async throws {
        let outbox = Outbox()
        let messages = Messages()
        // A long pace, so that the burst below is posted well within it however busy the machine.
        let writer = Task { try await outbox.deliver(every: .seconds(1)) { lines in messages.withLock { $0.append(lines) } } }
        func wait(for count: Int) async throws {
            for _ in 0..<2_000 where messages.withLock({ $0.count }) < count { try await Task.sleep(for: .milliseconds(5)) }
        }
        outbox.post("first")
        try await wait(for: 1)
        XCTAssertEqual(messages.withLock { $0 }, [["first"]], "a line to a quiet client goes at once, alone")
        let burst = (0..<99).map { #"{"live":\#($0)}"# }
        for line in burst { outbox.post(line) }
        try await wait(for: 2)
        XCTAssertEqual(messages.withLock { $0.count }, 2)
        XCTAssertEqual(messages.withLock { $0.last }, burst, "the burst in one message, in order")
        XCTAssertEqual(outbox.waiting, 0)
        outbox.close()
        try await writer.value
    }
}
