import XCTest
@testable import Stipple
@testable import StippleBench

/// A 32768 × 32768 render (4 GiB as RGBA) streamed to PNG stays within 1 GiB of memory.
/// Minutes long in a debug build, so it runs only when STIPPLE_LARGE_TESTS=1 (`stipple
/// bench --scenario tiles` measures the same in every bench run).
final class LargeRenderMemoryTests: XCTestCase {
    func testA32768SquareRenderStaysWithinOneGiB() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["STIPPLE_LARGE_TESTS"] == "1",
                          "set STIPPLE_LARGE_TESTS=1 to render 32768×32768")
        let dir = try TestSupport.temporaryDirectory(self, "large-render")
        let script = dir.appendingPathComponent("large.json").path
        var rng = SplitMix64(seed: 9)
        let stamps = (0..<20_000).map { _ in
            "[\(rng.next() % 32768).5, \(rng.next() % 32768).25, \(1 + rng.next() % 100), 0, 0, 0.7, 0.2, 0.4, 0.8]"
        }
        try """
            {"canvas": {"width": 32768, "height": 32768, "background": "#ffffff"},
             "brushes": {"s": {"builtin": "soft-round", "size": 64}},
             "draw": [{"brush": "s", "stamps": [\(stamps.joined(separator: ","))]}]}
            """.write(toFile: script, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("large.png").path
        let process = Process()
        process.executableURL = TestSupport.stippleBinary
        process.arguments = ["render", script, "-o", out]
        process.standardError = FileHandle.nullDevice
        try process.run()
        var peak = 0
        while process.isRunning {
            peak = max(peak, BenchSuite.highWaterKiB(of: process.processIdentifier))
            usleep(20_000)
        }
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertGreaterThan(peak, 0, "the child's VmHWM was read")
        XCTAssertLessThan(peak, 1 << 20, "peak resident memory in KiB")
        // A whole PNG of the canvas's size: the header's size and the closing IEND chunk.
        let png = try FileHandle(forReadingFrom: URL(fileURLWithPath: out))
        defer { try? png.close() }
        let head = try XCTUnwrap(try png.read(upToCount: 24))
        XCTAssertEqual(Array(head[16..<24]), [0, 0, 0x80, 0, 0, 0, 0x80, 0])
        try png.seek(toOffset: try png.seekToEnd() - 8)
        XCTAssertEqual(String(decoding: try XCTUnwrap(try png.read(upToCount: 4)), as: UTF8.self), "IEND")
    }
}
