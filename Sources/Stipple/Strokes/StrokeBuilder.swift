/// Turns one stroke's touch samples into stamps, live: each `add` returns the stamps that
/// sample makes new, and those already cover the sample (docs/reference.md §6).
///
/// Nothing emitted is ever taken back (see `CurveSmoother` for how the curve stays smooth
/// without re-shaping), so the stamps of `add`×n followed by `end()` are exactly the stamps of
/// `StrokeBuilder.stamps(for:…)`, bit for bit, and so are two builders fed the same samples.
///
/// Caller's contract (the script layer checks these and reports them as input errors first):
/// coordinates, times and pressures are finite, and times never go backwards; a breach is a
/// precondition failure here. Pressure outside 0…1 is clamped. A sample at the previous
/// sample's place (a resting finger) adds no stamps, but its time, pressure and speed become
/// the start of the next segment.
public struct StrokeBuilder: Sendable {
    /// The style every stamp of the stroke is made with.
    public let style: StrokeStyle
    /// Frames a second: a stamp is born at the frame of its touch time.
    public let fps: Double
    /// Every stamp made so far, in order.
    public private(set) var stamps: [Stamp] = []
    /// True once ``end()`` was called: the stroke takes no more samples.
    public private(set) var isEnded = false

    private var smoother: CurveSmoother
    private var stamper: StrokeStamper
    private var lastKnot: StrokeKnot?
    /// px/s at the last sample, for the speed mapping.
    private var lastSpeed: Double = 0

    /// `seed` is the script's seed and `strokeIndex` the stroke's place among the script's
    /// strokes: together they seed the stroke's dissolve angles.
    public init(style: StrokeStyle, fps: Double, seed: UInt64, strokeIndex: Int) {
        self.style = style
        self.fps = fps
        smoother = CurveSmoother(smoothing: style.smoothing)
        stamper = StrokeStamper(style: style, fps: fps,
                                random: SplitMix64(seed: seed, strokeIndex: strokeIndex))
    }

    /// Adds a sample; returns the stamps it makes new (empty for a resting sample).
    @discardableResult
    public mutating func add(_ sample: TouchSample) -> [Stamp] {
        precondition(!isEnded, "StrokeBuilder.add after end()")
        precondition(sample.x.isFinite && sample.y.isFinite && sample.t.isFinite
                     && (sample.pressure?.isFinite ?? true), "touch sample must be finite")
        let position = SIMD2(Double(sample.x), Double(sample.y))
        var speed = 0.0
        if let last = lastKnot {
            precondition(sample.t >= last.time,
                         "touch sample time \(sample.t) s is before the previous one, \(last.time) s")
            let dt = sample.t - last.time
            let delta = position - last.position
            // Same time, different place: no finite speed, keep the last one.
            speed = dt > 0 ? (delta * delta).sum().squareRoot() / dt : lastSpeed
        }
        var knot = knot(for: sample, at: position, speed: speed)

        var new: [Stamp] = []
        if let last = lastKnot {
            if let curve = smoother.add(position) {
                new = stamper.stamps(along: curve, from: last, to: knot)
            } else {
                knot.position = last.position // resting: the curve stays where it is
            }
        } else {
            _ = smoother.add(position)
            new = stamper.firstStamp(at: knot).map { [$0] } ?? []
        }
        lastKnot = knot
        lastSpeed = speed
        if !stamper.countOnly { stamps.append(contentsOf: new) }
        return new
    }

    /// Ends the stroke: returns the closing stamp exactly on the last sample, or nothing when
    /// a stamp already lies there (a single tap, or a stroke whose rhythm ended on it).
    /// Until then the last sample is covered by a stamp's square but the stamps' centres may
    /// stop up to one step short of it: live drawing cannot know the finger will lift.
    @discardableResult
    public mutating func end() -> [Stamp] {
        precondition(!isEnded, "StrokeBuilder.end called twice")
        isEnded = true
        guard let last = lastKnot, let closing = stamper.closingStamp(at: last) else { return [] }
        if !stamper.countOnly { stamps.append(closing) }
        return [closing]
    }

    /// A whole stroke at once; the same stamps as adding the samples one by one, then `end()`.
    public static func stamps(for samples: [TouchSample], style: StrokeStyle, fps: Double,
                              seed: UInt64, strokeIndex: Int) -> [Stamp] {
        var builder = StrokeBuilder(style: style, fps: fps, seed: seed, strokeIndex: strokeIndex)
        for sample in samples { builder.add(sample) }
        builder.end()
        return builder.stamps
    }

    /// What a stroke costs: `made` stamps (after culling) from `walked` places. A walk with
    /// limits stops early, with `overLimit`, once either passes its limit, so the answer comes
    /// in bounded time and memory whatever the samples.
    package struct Count: Equatable, Sendable {
        package var made: Int
        package var walked: Int
        package var overLimit: Bool
        /// Over the limit because one segment stays near the canvas too long (see
        /// `StrokeStamper.maxTableLeaves`), not because of the counts.
        public var nearCanvasTooLong = false
    }

    /// The stamps of `stamps(for:…)` and what they cost, in one walk, unless the walk passes
    /// a limit: then it stops there, with `overLimit`, and gives no stamps. Memory stays
    /// bounded by the limits (the stamps made before the walk stops).
    package static func stamps(for samples: [TouchSample], style: StrokeStyle, fps: Double, seed: UInt64,
                               strokeIndex: Int, madeLimit: Int, walkLimit: Int) -> (count: Count, stamps: [Stamp]?) {
        var builder = StrokeBuilder(style: style, fps: fps, seed: seed, strokeIndex: strokeIndex)
        builder.stamper.madeLimit = madeLimit
        builder.stamper.walkLimit = walkLimit
        for sample in samples {
            builder.add(sample)
            if builder.stamper.overLimit { break }
        }
        if !builder.stamper.overLimit { builder.end() }
        let count = Count(made: builder.stamper.made, walked: builder.stamper.walked,
                          overLimit: builder.stamper.overLimit, nearCanvasTooLong: builder.stamper.nearCanvasTooLong)
        return (count, count.overLimit ? nil : builder.stamps)
    }

    /// A builder that only counts, making no stamps, for a stroke whose samples arrive one
    /// by one (live events): `made`, `walked` and `overLimit` say what it has cost so far.
    package static func counter(style: StrokeStyle, fps: Double, seed: UInt64, strokeIndex: Int) -> StrokeBuilder {
        var builder = StrokeBuilder(style: style, fps: fps, seed: seed, strokeIndex: strokeIndex)
        builder.stamper.countOnly = true
        return builder
    }

    /// Stamps made (after culling) and places walked so far.
    package var made: Int { stamper.made }
    package var walked: Int { stamper.walked }
    /// True once `made` or `walked` passed its limit (or a segment was too long to walk).
    package var overLimit: Bool { stamper.overLimit }

    /// The most stamps and places this builder may reach in all; the walk stops past them.
    package mutating func setLimits(made: Int, walked: Int) {
        stamper.madeLimit = made
        stamper.walkLimit = walked
    }

    private func knot(for sample: TouchSample, at position: SIMD2<Double>, speed: Double) -> StrokeKnot {
        let factors = style.pressure.factors(pressure: sample.pressure)
        let speedFactor = style.speed?.radiusFactor(speed: speed) ?? 1
        let radius = Double(style.radius) * Double(factors.radius) * Double(speedFactor)
        return StrokeKnot(position: position, time: sample.t, radius: max(radius, 0),
                          opacity: Double(style.opacity) * Double(factors.opacity))
    }
}
