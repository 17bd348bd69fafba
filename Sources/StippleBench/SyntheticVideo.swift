import Stipple
import Foundation

/// A y4m stream made up on the spot and written into a pipe by a thread of its own (a
/// moving gradient: every frame differs, and no decoder is timed).
// Unchecked: its patterns are made in init and only read after; the writer thread it starts is its one user.
final class SyntheticVideo: @unchecked Sendable {
    let header: Y4MHeader
    let frames: Int
    private var patterns: [Y4MFrame] = []

    init(header: Y4MHeader, frames: Int) {
        self.header = header
        self.frames = frames
        for k in 0..<8 {
            var f = Y4MFrame(header: header)
            for y in 0..<header.height {
                for x in 0..<header.width { f.bytes[f.yOffset + y * header.width + x] = UInt8(truncatingIfNeeded: 16 + (x + y + k * 8) % 220) }
            }
            for i in 0..<header.chromaSize {
                f.bytes[f.cbOffset + i] = UInt8(truncatingIfNeeded: 100 + (i / header.chromaWidth + k) % 56)
                f.bytes[f.crOffset + i] = UInt8(truncatingIfNeeded: 110 + (i % header.chromaWidth) % 40)
            }
            patterns.append(f)
        }
    }

    /// Starts writing into a new pipe; returns its reading end.
    func start() throws -> Int32 {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw RenderError("cannot make a pipe for the synthetic video") }
        let writeEnd = fds[1]
        Thread.detachNewThread { [self] in
            feed(writeEnd)
            close(writeEnd)
        }
        return fds[0]
    }

    /// Writes the whole stream to `fd` (blocking).
    func feed(_ fd: Int32) {
        guard let writer = try? Y4MWriter(descriptor: fd, name: "pipe", header: header, owns: false) else { return }
        for n in 0..<frames {
            guard (try? writer.write(patterns[n % patterns.count])) != nil else { return }
        }
    }
}
