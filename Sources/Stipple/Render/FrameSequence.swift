import Foundation

/// Renders a range of frames to PNG files, encoding off the render thread: while the
/// renderer draws frame n, earlier frames are encoded and written on other threads, at
/// most `encoders` at a time (memory stays bounded: one image per encoder in flight).
public struct FrameSequence: Sendable {
    public var frames: ClosedRange<Int>
    public var folder: String
    public var compression: Int32
    public var encoders: Int

    public init(frames: ClosedRange<Int>, folder: String, compression: Int32 = PNGFile.defaultCompression,
                encoders: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.frames = frames; self.folder = folder; self.compression = compression
        self.encoders = max(1, encoders)
    }

    /// Encoding runs on Dispatch's threads, not Swift's cooperative pool: that pool has one
    /// thread a core, and an encoder holding every one of them would starve the loop that
    /// feeds the renderer (measured: the render thread then idled and the sequence ran
    /// about twice as long as its parts).
    private static let encoders = DispatchQueue(label: "stipple.png-encode", attributes: .concurrent)

    static func encode(_ image: Image, to path: String, level: Int32) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, Error>) in
            encoders.async {
                do {
                    try PNGFile.write(image, to: path, compression: level, durable: false)
                    done.resume()
                } catch {
                    done.resume(throwing: error)
                }
            }
        }
    }

    /// `DIR/frame-NNNN.png`.
    public func path(of frame: Int) -> String {
        (folder as NSString).appendingPathComponent(String(format: "frame-%04d.png", frame))
    }

    /// Draws each frame with `render` (on the renderer) and writes it; `progress` is called
    /// with the number of frames written so far.
    public func run(render: @Sendable (Int) async throws -> Image,
                    progress: @Sendable (Int) -> Void = { _ in }) async throws {
        let level = compression
        try await withThrowingTaskGroup(of: Void.self) { group in
            var inFlight = 0, done = 0
            for n in frames {
                let image = try await render(n)
                let path = self.path(of: n)
                group.addTask { try await FrameSequence.encode(image, to: path, level: level) }
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
