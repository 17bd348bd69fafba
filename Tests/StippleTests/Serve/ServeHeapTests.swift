import CStipple
import XCTest
@testable import StippleServe

/// The server's heap settings take effect where the C library has them (glibc): each call
/// says whether it did anything, and a heap that says nothing has not been asked.
final class ServeHeapTests: XCTestCase {
    func testTheHeapIsSeenAndItsSettingsTakeEffect() throws {
        #if canImport(Glibc)
        let (used, held) = ServeStatistics.heap()
        XCTAssertGreaterThan(used, 0, "the heap's live bytes")
        XCTAssertGreaterThanOrEqual(held, used)
        // glibc's own default (eight arenas a core): set, and nothing changes for the tests.
        XCTAssertEqual(stp_heap_limit_arenas(Int32(8 * ProcessInfo.processInfo.activeProcessorCount)), 1)
        // Freed pages given back: a large block's worth of small allocations freed first.
        var blocks = (0..<4096).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 4000, alignment: 16) }
        for b in blocks { b.storeBytes(of: 1, as: UInt8.self) }
        for b in blocks.dropFirst() { b.deallocate() }
        blocks = [blocks[0]]
        XCTAssertEqual(stp_heap_trim(), 1, "16 MiB freed, some of it given back")
        blocks[0].deallocate()
        #else
        throw XCTSkip("the heap's figures and settings are glibc's")
        #endif
    }
}
