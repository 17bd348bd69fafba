import Foundation
import XCTest
@testable import Stipple
import CStipple

/// The threads PNG frames are encoded on: a job's value and error come back to the caller,
/// jobs run at once on as many threads as there are cores, and at nice 19.
final class EncoderThreadsTests: XCTestCase {
    func testJobsReturnTheirValuesAndErrorsAtNice19OnThreadsOfTheirOwn() async throws {
        let (name, nice) = try await EncoderThreads.shared.run { () -> (String, Int32) in
            var name = [CChar](repeating: 0, count: 16)
            _ = stp_thread_name(&name, name.count)
            // Linux answers for the calling thread alone when asked about process 0.
            return (String(cBuffer: name), getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
        }
        XCTAssertTrue(name.hasPrefix("stipple-png-"), name)
        XCTAssertEqual(nice, 19)
        do {
            _ = try await EncoderThreads.shared.run { () -> Int in throw RenderError("no such frame") }
            XCTFail("the job's error was lost")
        } catch {
            XCTAssertEqual("\(error)", "\(RenderError("no such frame"))")
        }
    }

    func testAsManyJobsRunAtOnceAsThereAreCores() async throws {
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        // Each job waits until all have started: with fewer threads than jobs this would hang.
        let started = DispatchSemaphore(value: 0), go = DispatchSemaphore(value: 0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<cores {
                group.addTask {
                    try await EncoderThreads.shared.run {
                        started.signal()
                        _ = go.wait(timeout: .now() + 20)
                    }
                }
            }
            for _ in 0..<cores {
                XCTAssertEqual(started.wait(timeout: .now() + 20), .success, "a job did not start while the others ran")
            }
            for _ in 0..<cores { go.signal() }
            try await group.waitForAll()
        }
    }
}
