import Foundation

/// Walks a stroke's curve and puts a stamp every `spacing × diameter` of arc length.
///
/// - The step after a stamp is `spacing × 2 × radius` of that stamp (at least
///   `minimumStep`), measured along the curve, so stamps neither clump when the finger slows
///   nor gap when it speeds up. The distance still to go is carried across segments, so the
///   rhythm is even over joints.
/// - Radius, opacity and time are linear in arc length between the two samples of a segment:
///   a taper looks even however the Bézier's parameter speeds up or slows down.
/// - A stamp's birth frame is `floor(time × fps + 1e-9)` (the epsilon keeps a time that is an
///   exact frame, like 0.1 s at 30 fps, from falling into the frame before it) and its
///   `age` is minus that: its age at frame 0 (docs/reference.md §9).
/// - The first sample always gets a stamp, and so does the last (`closingStamp`), so a
///   stroke starts and ends exactly where the finger did.
/// - dissolveAngle is uniform in [0, 2π), one draw per stamp from the stroke's SplitMix64,
///   in stamp order.
/// - With `style.cull`, a stamp that can never touch the canvas is not made (it still takes
///   its random draw); a segment whose control points all lie that far out is walked without
///   placing a stamp at all, and a piece of a segment that far out is measured coarsely (its
///   length within 0.1 %), so a far excursion costs time in proportion to its stamp places,
///   not to its length in half pixels.
package struct StrokeStamper: Sendable {
    /// Floor for the step, px: a zero radius must not make infinitely many stamps.
    package static let minimumStep: Double = 0.05
    /// The longest segment between two touch samples a counted walk accepts (its chord, px).
    package static let maxSegmentLength: Double = 100_000_000
    /// The most intervals an arc table of one segment may hold where stamps can show: about
    /// a million pixels of curve near the canvas, 64 MB.
    package static let maxTableLeaves = 1 << 21

    package let style: StrokeStyle
    package let fps: Double
    private var random: SplitMix64
    /// Arc length from the end of the last segment walked to the next stamp.
    private var distanceToNextStamp: Double = 0
    /// Arc length from the last stamp to the end of the last segment walked.
    private var distanceSinceLastStamp: Double = 0
    /// The curve's direction at the end of the last segment walked.
    private var endDirection: SIMD2<Double>?
    /// Stamp places walked so far: stamps made plus stamps culled.
    package private(set) var walked = 0
    /// Stamps made so far (not culled).
    package private(set) var made = 0
    /// Counting only: `stamps(along:)` returns nothing, and `made` still counts.
    package var countOnly = false
    /// The walk stops (and `overLimit` becomes true) once `walked` or `made` passes these.
    package var walkLimit = Int.max
    package var madeLimit = Int.max
    package private(set) var overLimit = false
    /// Why: a segment stays near the canvas for more than `maxTableLeaves` intervals.
    package private(set) var nearCanvasTooLong = false

    package init(style: StrokeStyle, fps: Double, random: SplitMix64) {
        precondition(style.spacing > 0 && style.spacing.isFinite, "spacing must be > 0")
        precondition(fps > 0 && fps.isFinite, "fps must be > 0")
        self.style = style; self.fps = fps; self.random = random
    }

    /// The stamp on the first sample of a stroke: a single tap is exactly this one stamp.
    /// Nil when the stamp is culled (see `StrokeCull`).
    package mutating func firstStamp(at knot: StrokeKnot) -> Stamp? {
        let stamp = place(at: knot.position, radius: knot.radius, opacity: knot.opacity,
                          time: knot.time, direction: nil)
        distanceToNextStamp = step(radius: knot.radius)
        distanceSinceLastStamp = 0
        return stamp
    }

    /// The stamp that ends a stroke exactly on its last sample, or nil when the last stamp
    /// already lies there (less than `minimumStep` of arc before it). Only the spacing to this
    /// last stamp is uneven; a single tap gets none.
    package mutating func closingStamp(at knot: StrokeKnot) -> Stamp? {
        guard distanceSinceLastStamp >= Self.minimumStep else { return nil }
        distanceSinceLastStamp = 0
        let direction = endDirection
        return place(at: knot.position, radius: knot.radius, opacity: knot.opacity,
                     time: knot.time, direction: direction)
    }

    /// The stamps along `curve`, which runs from knot `a` to knot `b`.
    package mutating func stamps(along curve: CubicBezier, from a: StrokeKnot, to b: StrokeKnot) -> [Stamp] {
        var stamps: [Stamp] = []
        if walkLimit != .max && !overLimit {
            // Bounded before any work: the segment is at least its chord long, and walking it
            // takes at least chord / (largest step) places and chord / 0.5 px of arc table.
            let d = curve.p3 - curve.p0
            let chord = (d * d).sum().squareRoot()
            let largest = max(step(radius: a.radius), step(radius: b.radius))
            let places = chord / largest
            if Double(walked) + places > Double(walkLimit) || chord > Self.maxSegmentLength {
                walked += Int(min(places, Double(walkLimit) + 1))
                overLimit = true
                return []
            }
        }
        let culled: Bool
        if let cull = style.cull {
            culled = !cull.mayTouch(min: curve.minCorner, max: curve.maxCorner, radius: max(a.radius, b.radius))
        } else {
            culled = false
        }
        let unseen = style.cull.map { StrokeCull.Region(cull: $0, radius: max(a.radius, b.radius)) }
        let table: ArcLengthTable? = culled ? nil : ArcLengthTable(curve, unseen: unseen, maxLeaves: Self.maxTableLeaves)
        if let table, !table.isComplete {
            // Near the canvas for millions of pixels (a stamp so wide nothing is culled): over
            // the limit, like a walk that is too long.
            overLimit = true
            nearCanvasTooLong = true
            return []
        }
        let total = table?.totalLength ?? ArcLengthTable.totalLength(of: curve, unseen: unseen, whollyUnseen: true)
        var s = distanceToNextStamp
        var lastStampAt: Double? = nil
        if culled {
            // Nothing here can show: the same walk, the same arithmetic, no curve and no stamp.
            skipUnseen(&s, through: total, total: total, from: a, to: b, lastStampAt: &lastStampAt)
        } else {
            // Room for every place the walk can reach (steps are at least the shorter end's),
            // made once rather than grown stamp by stamp.
            let places = (total - s) / min(step(radius: a.radius), step(radius: b.radius)) + 1
            if !countOnly, places >= 1 { stamps.reserveCapacity(Int(min(places, 4096))) }
            let runs = table!.unseenRuns
            var run = 0
            while s <= total && !overLimit {
                while run < runs.count && runs[run].upperBound < s { run += 1 }
                if run < runs.count && runs[run].lowerBound <= s {
                    // A far piece of the curve: its places are walked, not evaluated.
                    skipUnseen(&s, through: runs[run].upperBound, total: total, from: a, to: b, lastStampAt: &lastStampAt)
                    continue
                }
                let u = total > 0 ? s / total : 1
                let t = table!.parameter(atLength: s)
                let radius = a.radius + (b.radius - a.radius) * u
                if let stamp = place(at: curve.point(at: t), radius: radius,
                                     opacity: a.opacity + (b.opacity - a.opacity) * u,
                                     time: a.time + (b.time - a.time) * u,
                                     direction: curve.direction(at: t) as SIMD2<Double>?) {
                    stamps.append(stamp)
                }
                lastStampAt = s
                s += step(radius: radius)
            }
        }
        distanceToNextStamp = s - total
        distanceSinceLastStamp = total - (lastStampAt ?? -distanceSinceLastStamp)
        endDirection = curve.direction(at: 1)
        return stamps
    }

    /// Walks the places from `s` through arc length `end` where nothing can show: each is
    /// counted and takes its random draw (all at once), none is evaluated.
    private mutating func skipUnseen(_ s: inout Double, through end: Double, total: Double,
                                     from a: StrokeKnot, to b: StrokeKnot, lastStampAt: inout Double?) {
        let bound = min(end, total)
        var n = 0
        while s <= bound && !overLimit {
            let u = total > 0 ? s / total : 1
            let radius = a.radius + (b.radius - a.radius) * u
            n += 1
            walked += 1
            if walked > walkLimit { overLimit = true }
            lastStampAt = s
            s += step(radius: radius)
        }
        random.skip(n)
    }

    package func step(radius: Double) -> Double {
        max(Double(style.spacing) * 2 * radius, Self.minimumStep)
    }

    /// The stamp at `p`, or nil when it is culled, only counted, or past a limit; the
    /// random draw is taken in every case.
    private mutating func place(at p: SIMD2<Double>, radius: Double, opacity: Double,
                                time: Double, direction: @autoclosure () -> SIMD2<Double>?) -> Stamp? {
        walked += 1
        if walked > walkLimit { overLimit = true }
        if let cull = style.cull, !cull.mayTouch(p, radius: radius) {
            _ = random.next()
            return nil
        }
        made += 1
        if made > madeLimit { overLimit = true }
        if countOnly || overLimit {
            _ = random.next()
            return nil
        }
        return makeStamp(at: p, radius: radius, opacity: opacity, time: time, direction: direction())
    }

    private mutating func makeStamp(at p: SIMD2<Double>, radius: Double, opacity: Double,
                                    time: Double, direction: SIMD2<Double>?) -> Stamp {
        let birthFrame = (time * fps + 1e-9).rounded(.down)
        let rotation: Float
        switch style.rotation {
        case .none: rotation = 0
        case let .fixed(angle): rotation = angle
        case .followStroke: rotation = direction.map { Float(atan2($0.y, $0.x)) } ?? 0
        }
        let alpha = min(max(Double(style.color.alpha) * opacity, 0), 1)
        let point = SketchPoint(
            x: Float(p.x), y: Float(p.y), radius: Float(radius),
            age: birthFrame == 0 ? 0 : Float(-birthFrame),
            dissolveAngle: Float(random.nextUnitDouble() * 2 * Double.pi),
            red: style.color.red, green: style.color.green, blue: style.color.blue,
            alpha: Float(alpha))
        return Stamp(point: point, rotation: rotation)
    }
}
