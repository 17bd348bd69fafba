import Foundation
import XCTest
@testable import Stipple

/// ffmpeg and y4m helpers for the video tests. ffmpeg is the independent oracle:
/// tests that need it skip, saying so, where it is not installed (`make test` installs it).
enum VideoTestSupport {
    static var ffmpeg: String? { FFmpegProcess.locate() }

    static func requireFFmpeg() throws -> String {
        guard let f = ffmpeg else {
            throw XCTSkip("skipped: ffmpeg is not on PATH (make test installs it: apt-get install ffmpeg)")
        }
        return f
    }

    /// Runs a shell command line; returns its status and stderr.
    @discardableResult
    static func shell(_ command: String, in dir: URL? = nil) throws -> (status: Int32, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        if let dir { p.currentDirectoryURL = dir }
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Makes a test video with ffmpeg's testsrc2: `pixFmt` yuv420p or yuv444p.
    static func makeVideo(_ path: String, width: Int, height: Int, frames: Int, pixFmt: String = "yuv420p",
                          rate: Int = 30, extra: String = "") throws {
        let strict = pixFmt == "yuv444p" ? "-strict -1" : ""
        let r = try shell("ffmpeg -v error -y -f lavfi -i testsrc2=size=\(width)x\(height):rate=\(rate) "
                          + "-frames:v \(frames) -pix_fmt \(pixFmt) \(extra) \(strict) -f yuv4mpegpipe '\(path)'")
        guard r.status == 0 else { throw VideoTestError("ffmpeg could not make \(path): \(r.stderr)") }
    }

    /// Every frame of a y4m file, planes only.
    static func read(_ path: String) throws -> (header: Y4MHeader, frames: [[UInt8]]) {
        let reader = try Y4MReader(path: path)
        var frame = Y4MFrame(header: reader.header)
        var frames: [[UInt8]] = []
        while try reader.read(into: &frame) { frames.append(Array(frame.planes)) }
        return (reader.header, frames)
    }
}

struct VideoTestError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
