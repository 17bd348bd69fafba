import Foundation
import XCTest
@testable import Stipple

/// A save killed mid-way (SIGKILL, in a child process that saves over and over) leaves a
/// save that loads and renders: the previous one or the new one, whole.
final class SessionKillTests: XCTestCase {
    func testKillingMidSaveLeavesALoadableSave() async throws {
        let dir = try TestSupport.temporaryDirectory(self)
        let path = dir.appendingPathComponent("d.json").path
        let renderer = try Renderer()
        for round in 0..<6 {
            let process = Process()
            process.executableURL = TestSupport.stippleBinary
            process.arguments = ["_save-loop", path, "--side", "384"]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Wait for the first save of this child (each round saves over the last round's),
            // then kill it at a moment spread over a save's length.
            let first = out.fileHandleForReading.availableData
            XCTAssertTrue(String(decoding: first, as: UTF8.self).hasPrefix("saved"), "round \(round)")
            try await Task.sleep(nanoseconds: UInt64(7 + round * 13) * 1_000_000)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal)
            let image = try await renderer.render(try Scene.load(path: path), frame: 0)
            XCTAssertEqual(image.width, 384)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            XCTAssertLessThanOrEqual(leftovers.filter { $0.hasPrefix("d.backing-") }.count, 2, "\(leftovers)")
        }
    }
}
