import Foundation
import XCTest
@testable import Stipple

/// The bake's frames read on a thread of their own: the same frames in the same order as
/// reading in line, never one past the frames asked for, errors after the frames before them.
final class FrameReadAheadTests: XCTestCase {
    /// `frames` frames of `header` whose samples differ from frame to frame, as a y4m stream's bytes.
    private func stream(_ header: Y4MHeader, frames: Int) -> (bytes: [UInt8], frames: [Y4MFrame]) {
        var bytes = Array(header.line.utf8), written: [Y4MFrame] = []
        for n in 0..<frames {
            var f = Y4MFrame(header: header)
            for i in f.yOffset..<f.bytes.count { f.bytes[i] = UInt8(truncatingIfNeeded: i * 7 + n * 13) }
            bytes += f.bytes
            written.append(f)
        }
        return (bytes, written)
    }

    private func file(_ bytes: [UInt8]) throws -> String {
        let path = try TestSupport.temporaryDirectory(self, "readahead").appendingPathComponent("in.y4m").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testEveryFrameInOrderThenTheEnd() throws {
        let header = Y4MHeader(width: 6, height: 4)
        let (bytes, written) = stream(header, frames: 5)
        let reader = try Y4MReader(path: try file(bytes))
        let input = FrameReadAhead(reader: reader, limit: .max)
        var frame = Y4MFrame(header: header)
        for n in 0..<5 {
            XCTAssertTrue(try input.next(into: &frame), "frame \(n)")
            XCTAssertEqual(frame.bytes, written[n].bytes, "frame \(n)")
        }
        XCTAssertFalse(try input.next(into: &frame))
        XCTAssertFalse(try input.next(into: &frame), "the end stays the end")
        input.finish()
        XCTAssertEqual(reader.framesRead, 5)
    }

    func testNeverReadsPastTheLimit() throws {
        let header = Y4MHeader(width: 4, height: 2)
        let (bytes, written) = stream(header, frames: 6)
        let reader = try Y4MReader(path: try file(bytes))
        try reader.skip(1)
        let input = FrameReadAhead(reader: reader, limit: 3)
        var frame = Y4MFrame(header: header)
        for n in 1...3 {
            XCTAssertTrue(try input.next(into: &frame))
            XCTAssertEqual(frame.bytes, written[n].bytes, "frame \(n)")
        }
        XCTAssertFalse(try input.next(into: &frame), "three frames asked for")
        input.finish()
        XCTAssertEqual(reader.framesRead, 4, "the skipped frame and the three: none read ahead past them")
        // The stream goes on where the bake stopped.
        XCTAssertTrue(try reader.read(into: &frame))
        XCTAssertEqual(frame.bytes, written[4].bytes)
    }

    func testATruncatedStreamFailsAfterTheFramesBeforeIt() throws {
        let header = Y4MHeader(width: 4, height: 4)
        var (bytes, written) = stream(header, frames: 3)
        bytes.removeLast(10)
        let path = try file(bytes)
        let input = FrameReadAhead(reader: try Y4MReader(path: path), limit: .max)
        var frame = Y4MFrame(header: header)
        for n in 0..<2 {
            XCTAssertTrue(try input.next(into: &frame))
            XCTAssertEqual(frame.bytes, written[n].bytes, "frame \(n)")
        }
        XCTAssertThrowsError(try input.next(into: &frame)) { error in
            XCTAssertEqual("\(error)", "\(path):byte \(bytes.count): frame 2 is truncated: 14 of its 24 bytes of planes "
                           + "(4×4 4:2:0) before the end of the stream")
        }
        input.finish()
    }

    /// A bake that stops early on a pipe that has not sent its next frame does not wait for it.
    func testCancelDoesNotWaitForAPipe() throws {
        let header = Y4MHeader(width: 4, height: 2)
        let (bytes, written) = stream(header, frames: 2)
        let pipe = Pipe()
        let frameSize = 6 + header.frameSize
        pipe.fileHandleForWriting.write(Data(bytes.dropLast(frameSize)))  // the header and frame 0
        let reader = try Y4MReader(descriptor: pipe.fileHandleForReading.fileDescriptor, name: "the pipe", owns: false)
        let input = FrameReadAhead(reader: reader, limit: .max)
        var frame = Y4MFrame(header: header)
        XCTAssertTrue(try input.next(into: &frame))
        XCTAssertEqual(frame.bytes, written[0].bytes)
        // The read thread waits inside read(2) for frame 1.
        input.waitUntilReading()
        let start = Date()
        input.cancel()
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "cancel returned without the pipe")
        // Frame 1 arrives: the read the thread was in ends, and so does the thread.
        pipe.fileHandleForWriting.write(Data(bytes.suffix(frameSize)))
        try pipe.fileHandleForWriting.close()
        input.finish()
        XCTAssertEqual(reader.framesRead, 2, "the read it was in, and no more")
    }
}
