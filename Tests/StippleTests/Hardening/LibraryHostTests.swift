import Foundation
import XCTest
@testable import Stipple

/// A program that links Stipple keeps its own process state: writing files through the
/// library installs no signal handler (only the `stipple` command asks for them).
final class LibraryHostTests: XCTestCase {
    private func handlers() -> [Int] {
        [SIGTERM, SIGINT, SIGHUP].map { sig in
            var old = sigaction()
            sigaction(sig, nil, &old)
            return unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self)
        }
    }

    func testWritingAPNGLeavesTheHostsSignalHandlersAlone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("library-host-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = handlers()
        let image = Image(width: 4, height: 4, pixels: [UInt8](repeating: 200, count: 64))
        try PNGFile.write(image, to: folder.appendingPathComponent("a.png").path)
        XCTAssertEqual(handlers(), before, "a library write changed the host's SIGTERM/SIGINT/SIGHUP handlers")
        XCTAssertTrue(TemporaryFiles.pending.isEmpty)
    }
}
