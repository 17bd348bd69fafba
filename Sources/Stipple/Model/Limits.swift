/// Every limit Stipple puts on its input, in one place (docs/limits.md explains each).
/// Each is checked before the memory it guards is allocated, and its error names the
/// file, the place and the count.
package enum Limits {
    /// Stamps in one script, all draw entries together (inline, `.sketchpoints` files and
    /// the stamps strokes make after culling). A frame draws at most every stamp of its
    /// script, so this is also the limit per frame. 2^22: 151 MB of stamps.
    package static let maxStampsPerScript = 1 << 22
    /// Places a script's strokes may walk, stamps made and culled together: bounds the
    /// time a stroke with far-away samples takes, now that its unseen stamps cost no memory
    /// (a place far off the canvas is only counted: 2^26 of them take about a second).
    package static let maxStrokeWalkPerScript = 1 << 26
    /// Touch samples in one stroke.
    package static let maxSamplesPerStroke = 1 << 20
    /// The furthest frame a touch time may fall on, either side of frame 0: |t × fps| ≤ 2^24,
    /// where every frame number (and every age) is exact in a 32-bit float.
    package static let maxTouchFrame: Double = 16_777_216
    /// The last frame `render` draws (`--frame`, `--frames`): ages stay exact in Float32.
    package static let maxFrame = 16_777_215
    /// Frames one `render --frames` run writes.
    package static let maxFramesPerRun = 100_000
    /// Bytes read from a script, a `stipple-test.json` or a report.
    package static let maxTextFileBytes = 64 << 20
    /// Bytes read from a `.sketchpoints` file (every stamp a script may have).
    package static let maxSketchPointsBytes = maxStampsPerScript * SketchPoint.byteSize
    /// Bytes read from a PNG file.
    package static let maxPNGFileBytes = 256 << 20
    /// The largest PNG decoded: each side, and width × height (a 16384² image, 1 GiB as RGBA).
    package static let maxPNGSide = 16_384
    package static let maxPNGPixels = 1 << 28
    /// Live strokes (`bake --events`) open at once: started and not yet ended.
    package static let maxOpenLiveStrokes = 1024
    /// Live strokes one events source may start, ended or not: each is a layer of its own.
    package static let maxLiveStrokes = 16_384
    /// Events (non-blank lines) one events source may hold.
    package static let maxEvents = 1 << 20
    /// The largest video frame read (`bake --video`): each side (llvmpipe's largest canvas;
    /// a driver with a smaller one refuses it when EGL opens), and width × height: 2^25
    /// pixels (48 MiB a 4:2:0 frame, 128 MiB as RGBA) admits 8K UHD, 7680×4320.
    package static let maxVideoSide = 16_384
    package static let maxVideoPixels = 1 << 25
}
