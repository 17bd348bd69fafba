import Stipple
/// What `stipple bench` measures, and at what sizes. Every field has a default: the
/// standard set that `make bench` runs; `quick` is the seconds-long smoke run CI uses.
public struct BenchConfig: Sendable, Codable {
    public enum Scenario: String, Sendable, Codable, CaseIterable {
        /// N stamps of radius r, one frame: stamps/s and filled pixels/s; points, quads,
        /// the C baseline and Cairo side by side.
        case stamps
        /// The same stamps in draws of 1, 4, 16… stamps: draw calls/s and the cost of a call.
        case drawcalls
        /// L live stamps, k new a frame: time and bytes uploaded a frame, resident vs reupload.
        case animation
        /// glReadPixels and PNG encoding at several canvas sizes.
        case readback
        /// subData vs bufferData vs orphaning for the stamps scenario's upload.
        case upload
        /// A frame sequence to PNG files: render only, encode only, and both overlapped.
        case sequence
        /// A Periscope-style animation baked into 4:2:0 video, against PNGs + ffmpeg overlay.
        case video
        /// Drawing sessions: undo latency against replaying every stroke, a long session's
        /// frame time and memory, many strokes' memory, frames while saving (SessionScenarios.swift).
        case session
        /// Stroke layers (brush modes) against the same strokes drawn stamp by stamp.
        case modes
    }

    /// The standard set leaves `session` to `make bench-session` (it takes minutes at full size);
    /// `quick` runs every scenario.
    public var scenarios: [Scenario] = Scenario.allCases.filter { $0 != .session }
    public var width = 1280
    public var height = 720
    public var stamps = 100_000
    public var radius: Float = 4
    public var brushSize = 32
    public var drawCallStamps = 16_384
    public var stampsPerDraw = [1, 4, 16, 64, 256, 1024, 16_384]
    public var liveCounts = [10_000, 100_000, 1_000_000]
    public var newPerFrame = 200
    public var animationFrames = 8
    public var readbackSizes = [[320, 568], [1280, 720], [1920, 1080]]
    public var sequenceFrames = 300
    /// Frames of the video scenario (at width × height, 4:2:0).
    public var videoFrames = 150
    /// PNG compression of the sequence scenario's frames (see `PNGFile.encode`).
    public var compression: Int32 = PNGFile.defaultCompression
    public var warmup = 2
    public var reps = 7
    /// Pairs in the Stipple-against-C comparisons: their ratio is the noisiest figure.
    public var pairs = 11
    public var seed: UInt64 = 1
    /// The session scenario: strokes baked under the 30 undoable ones (undo latency), frames
    /// of the long session and its canvas (Periscope's), strokes of the many-strokes run,
    /// the side of the drawing saved while `saveFrames` frames are drawn.
    public var sessionBakedStrokes = 1_000
    public var sessionFrames = 3_000
    public var sessionWidth = 320
    public var sessionHeight = 568
    public var sessionStrokes = 1_000
    public var saveSide = 4_096
    public var saveFrames = 100

    public init() {}

    /// A seconds-long run that exercises every scenario (CI's smoke run).
    public static var quick: BenchConfig {
        var c = BenchConfig()
        c.width = 320; c.height = 240
        c.stamps = 5_000
        c.drawCallStamps = 1_024
        c.stampsPerDraw = [1, 16, 1_024]
        c.liveCounts = [2_000, 20_000]
        c.animationFrames = 3
        c.readbackSizes = [[320, 568]]
        c.sequenceFrames = 12
        c.videoFrames = 12
        c.warmup = 1
        c.reps = 3
        c.pairs = 3
        c.scenarios = Scenario.allCases
        c.sessionBakedStrokes = 20
        c.sessionFrames = 120
        c.sessionStrokes = 40
        c.saveSide = 128
        c.saveFrames = 3
        return c
    }
}
