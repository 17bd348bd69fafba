import Synchronization
import Foundation

/// Renders a range of frames to PNG files, encoding off the render thread: while the
/// renderer draws frame n, earlier frames are encoded and written on other threads, at
/// most `encoders` at a time (memory stays bounded: one image per encoder in flight).
package struct FrameSequence: Sendable {
    package var frames: ClosedRange<Int>
    package var folder: String
    package var compression: Int32
    package var encoders: Int
    /// The last frame of the whole run this sequence is a part of (a shard): names take
    /// its digit width, so every part names its frames as the whole run does.
    package var lastFrameOfRun: Int

    package init(frames: ClosedRange<Int>, folder: String, compression: Int32 = PNGFile.defaultCompression,
                encoders: Int = ProcessInfo.processInfo.activeProcessorCount, lastFrameOfRun: Int? = nil) {
        self.frames = frames; self.folder = folder; self.compression = compression
        self.encoders = max(1, encoders)
        self.lastFrameOfRun = max(lastFrameOfRun ?? frames.upperBound, frames.upperBound)
    }

    /// Encoding runs on threads of its own (`EncoderThreads`), not Swift's cooperative pool:
    /// that pool has one thread a core, and an encoder holding every one of them would starve
    /// the loop that feeds the renderer (measured: the render thread then idled and the
    /// sequence ran about twice as long as its parts). Each frame is encoded on one thread,
    /// as many frames at once as there are encoders.
    static func encode(_ image: Image, to path: String, level: Int32, exclusive: Bool) async throws {
        try await EncoderThreads.shared.run {
            try PNGFile.write(image, to: path, compression: level, durable: false, exclusive: exclusive, onEveryCore: false)
        }
    }

    /// `DIR/frame-NNNN.png`: at least four digits, and as many as the range's last frame
    /// needs, so that every name of a run has the same width and they sort in frame order
    /// (`frame-00009.png` … `frame-10000.png`), a shard's as the whole run's (`lastFrameOfRun`).
    /// Frames are at most `Limits.maxFrame`.
    package func path(of frame: Int) -> String {
        (folder as NSString).appendingPathComponent(name(of: frame))
    }

    /// The file name alone: `frame-0007.png`, `frame-09998.png` in a run to 10000.
    package func name(of frame: Int) -> String {
        let digits = max(4, String(lastFrameOfRun).count)
        let number = String(frame)
        return "frame-" + String(repeating: "0", count: max(0, digits - number.count)) + number + ".png"
    }

    /// Checks every frame's file before the first is drawn: none may be an input, and,
    /// unless `overwrite`, none may exist (a user's own `frame-0001.png` is never replaced).
    package func checkTargets(notAnyOf inputs: [String], overwrite: Bool) throws {
        for n in frames {
            let path = self.path(of: n)
            try OutputFile.check(path, notAnyOf: inputs)
            if !overwrite && FileSystem.entry(at: path) != .missing {
                throw InputError(file: path, "exists; --frames never replaces a file it did not write in this run "
                                 + "(give --overwrite to replace earlier frames, or choose an empty folder)")
            }
        }
    }

    /// Draws each frame with `render` (on the renderer) and writes it; `progress` is called
    /// with the number of frames written so far.
    ///
    /// A run that fails removes every frame it wrote: a failed run leaves no partial sequence.
    /// Unless `overwrite`, no existing file is replaced (see `checkTargets`).
    package func run(overwrite: Bool = true, render: @Sendable (Int) async throws -> Image,
                    progress: @Sendable (Int) -> Void = { _ in }) async throws {
        do {
            try await runFrames(exclusive: !overwrite, render: render, progress: progress)
        } catch {
            // Every frame this run may have written: a frame that existed before was either
            // refused (exclusive) or is an earlier run's that this run replaced.
            for n in frames {
                let path = self.path(of: n)
                if FileSystem.entry(at: path) == .file, written.contains(path) { unlink(path) }
            }
            throw error
        }
    }

    /// The frames written so far by this sequence (shared with the encoders).
    private let writtenFrames = WrittenFrames()
    private var written: Set<String> { writtenFrames.all }

    private final class WrittenFrames: Sendable {
        private let paths = Mutex<Set<String>>([])
        func add(_ path: String) { paths.withLock { _ = $0.insert(path) } }
        var all: Set<String> { paths.withLock { $0 } }
    }

    private func runFrames(exclusive: Bool, render: @Sendable (Int) async throws -> Image,
                           progress: @Sendable (Int) -> Void) async throws {
        let level = compression
        let record = writtenFrames
        try await withThrowingTaskGroup(of: Void.self) { group in
            var inFlight = 0, done = 0
            for n in frames {
                let image = try await render(n)
                let path = self.path(of: n)
                group.addTask {
                    try await FrameSequence.encode(image, to: path, level: level, exclusive: exclusive)
                    record.add(path)
                }
                inFlight += 1
                if inFlight > encoders {
                    try await group.next()
                    inFlight -= 1; done += 1
                    progress(done)
                }
            }
            while try await group.next() != nil {
                done += 1
                progress(done)
            }
        }
    }
}
