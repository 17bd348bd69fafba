import Stipple
/// What `stipple bench` measures, and at what sizes. Every field has a default: the
/// standard set that `make bench` runs; `quick` is the seconds-long smoke run CI uses.
package struct BenchConfig: Sendable, Codable {
    package enum Scenario: String, Sendable, Codable, CaseIterable {
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
        /// A Periscope-style animation baked into 4:2:0 video, against PNGs + ffmpeg overlay;
        /// then the `bake` scenario.
        case video
        /// The bake against its floors: accumulating and dissolving sketches, kept and drawn
        /// whole, against the empty script's bake and ffmpeg's passthrough (BenchVideoGoals.swift).
        case bake
        /// Drawing sessions: undo latency against replaying every stroke, a long session's
        /// frame time and memory, many strokes' memory, frames while saving (SessionScenarios.swift).
        case session
        /// A canvas drawn in tiles against one pass (Mpx/s), and the peak memory of a large
        /// render streamed band by band to PNG (BenchTiles.swift).
        case tiles
        /// Stroke layers (brush modes) against the same strokes drawn stamp by stamp.
        case modes
        /// A Quick, Draw!-shaped dataset to 256×256 PNGs and a 28×28 .npy, against a Python
        /// pipeline (cairocffi, Pillow, numpy) on the same drawings (BenchInk.swift).
        case ink
        /// A heavy drawing looked at: a tile pyramid against render + `vips dzsave`, a view
        /// against its rectangle drawn alone, a huge pyramid's peak memory (BenchViews.swift).
        case views
        /// `stipple serve` under load on loopback: viewers asking for tiles of random views,
        /// drawers at touch rates, a client panning fast (BenchServe.swift).
        case serve
    }

    /// The standard set leaves `session`, `views` and `serve` to `make bench-session`, `make
    /// bench-views` and `make bench-serve` (they take minutes at full size), and `bake` to
    /// `video` (which runs it); `quick` runs every scenario.
    package var scenarios: [Scenario] = Scenario.allCases.filter { ![.session, .bake, .views, .serve].contains($0) }
    package var width = 1280
    package var height = 720
    package var stamps = 100_000
    package var radius: Float = 4
    package var brushSize = 32
    package var drawCallStamps = 16_384
    package var stampsPerDraw = [1, 4, 16, 64, 256, 1024, 16_384]
    package var liveCounts = [10_000, 100_000, 1_000_000]
    package var newPerFrame = 200
    package var animationFrames = 8
    package var readbackSizes = [[320, 568], [1280, 720], [1920, 1080]]
    package var sequenceFrames = 300
    /// Frames of the modes scenario's `--frames` run with and without "detect edges".
    package var edgesFrames = 120
    /// Frames of the video scenario (at width × height, 4:2:0).
    package var videoFrames = 150
    /// The bake against its floors: sizes (width, height, stroke radius), frames, repetitions.
    package var videoGoalSizes = [[1920, 1080, 12], [1280, 720, 8]]
    package var videoGoalFrames = 240
    package var videoGoalReps = 3
    /// Pairs (the empty script's bake, then the sketch's) behind an accumulating sketch's ratio:
    /// each bake takes under a second, and medians of three unpaired bakes gave one build 1.65×
    /// and 2.98× within an hour.
    package var videoGoalPairs = 9
    /// PNG compression of the sequence scenario's frames (see `PNGFile.encode`).
    package var compression: Int32 = PNGFile.defaultCompression
    package var warmup = 2
    package var reps = 7
    /// Pairs in the Stipple-against-C comparisons: their ratio is the noisiest figure.
    package var pairs = 11
    package var seed: UInt64 = 1
    /// The session scenario: strokes baked under the 30 undoable ones (undo latency), frames
    /// of the long session and its canvas (Periscope's), strokes of the many-strokes run,
    /// the side of the drawing saved while `saveFrames` frames are drawn.
    package var sessionBakedStrokes = 1_000
    package var sessionFrames = 3_000
    package var sessionWidth = 320
    package var sessionHeight = 568
    package var sessionStrokes = 1_000
    package var saveSide = 4_096
    package var saveFrames = 100
    /// The tiles scenario: the canvas side drawn in one pass and in tiles of `tileSides`,
    /// its stamps, and the side of the streamed render whose peak memory is measured (run by
    /// `stippleExecutable`, a child process; none: that row is skipped).
    package var tilesSide = 8_192
    package var tileSides = [2_048, 512]
    package var tilesStamps = 200_000
    package var streamSide = 32_768
    /// Stamps of the streamed render (few: a large script's own parsing would dominate its memory).
    package var streamStamps = 20_000
    package var stippleExecutable: String?
    /// The modes scenario's bake (width, height, frames) and one-frame render (width, height).
    package var modeBakeSize = [1280, 720, 150]
    package var modeRenderSize = [1920, 1080]
    /// The sequence scenario's PNG outputs (whole `render` processes, default compression
    /// against `--compression 0`): the still's side and strokes, and rounds of each.
    package var pngStillSide = 8_192
    package var pngStillStrokes = 1_500
    package var pngRounds = 2
    /// Drawings of the ink scenario, and its rounds (Stipple's runs and the peer's in turn).
    package var inkDrawings = 10_000
    package var inkRounds = 3
    /// The views scenario: the drawing's side and strokes, and the side of the pyramid whose
    /// peak memory is measured.
    package var viewsSide = 16_384
    package var viewsStrokes = 1_500
    package var viewsPeakSide = 65_536
    /// The side of the drawings a preview's error is measured on.
    package var viewsPreviewSide = 4_096
    /// The serve scenario: the drawing (`viewsSide`², `viewsStrokes`), its viewers and drawers,
    /// how long they run, a drawer's touch events a second, and the panning client's view
    /// changes a second.
    package var serveViewers = 50
    package var serveDrawers = 5
    package var serveSeconds = 60.0
    package var serveEventsPerSecond = 120.0
    package var servePansPerSecond = 60.0
    /// The stamps' spacing in the ink scenario (render's --spacing).
    package var inkSpacing = 0.3

    package init() {}

    /// A seconds-long run that exercises every scenario (CI's smoke run).
    package static var quick: BenchConfig {
        var c = BenchConfig()
        c.width = 320; c.height = 240
        c.stamps = 5_000
        c.drawCallStamps = 1_024
        c.stampsPerDraw = [1, 16, 1_024]
        c.liveCounts = [2_000, 20_000]
        c.animationFrames = 3
        c.readbackSizes = [[320, 568]]
        c.sequenceFrames = 12
        c.edgesFrames = 12
        c.videoFrames = 12
        c.videoGoalSizes = [[160, 90, 4]]
        c.videoGoalFrames = 12
        c.videoGoalReps = 1
        c.videoGoalPairs = 1
        c.warmup = 1
        c.reps = 3
        c.pairs = 3
        c.scenarios = Scenario.allCases.filter { $0 != .bake }  // video runs it
        c.sessionBakedStrokes = 20
        c.sessionFrames = 120
        c.sessionStrokes = 40
        c.saveSide = 128
        c.saveFrames = 3
        c.tilesSide = 512
        c.tileSides = [100]
        c.tilesStamps = 2_000
        c.streamSide = 1_024
        c.streamStamps = 2_000
        c.modeBakeSize = [160, 90, 12]
        c.modeRenderSize = [320, 240]
        c.inkDrawings = 200
        c.inkRounds = 1
        c.pngStillSide = 1_024
        c.pngStillStrokes = 60
        c.pngRounds = 1
        c.viewsSide = 2_048
        c.viewsStrokes = 40
        c.viewsPeakSide = 4_096
        c.viewsPreviewSide = 512
        c.serveViewers = 4
        c.serveDrawers = 1
        c.serveSeconds = 3
        return c
    }
}
