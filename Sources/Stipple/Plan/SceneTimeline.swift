/// When a script's stamps are on the canvas, in render frames: the one answer to "which
/// frames" — what `stipple describe` prints, what `--frames all` renders, and the frames a
/// bake draws (outside them the sketch is empty and the video passes through).
package struct SceneTimeline: Sendable, Equatable {
    /// Every stamp and stroke stamp of the script.
    package var stamps: Int
    /// The first frame that shows a stamp; nil when none ever shows.
    package var firstFrame: Int?
    /// The last frame that shows a stamp; nil when stamps never die (`maxAge` 0): the
    /// canvas then stops changing at `settledFrame`.
    package var lastFrame: Int?
    /// The first frame from which nothing changes any more: the last birth or session entry
    /// (undo, redo, clear) when stamps never age, else the frame after the last death (an
    /// empty canvas).
    package var settledFrame: Int
    /// The last frame a stamp that is ever drawn is born in; nil when none is.
    package var lastBirth: Int?

    /// The frames worth rendering: first...last (or first...settled when stamps never die).
    package var liveFrames: ClosedRange<Int>? {
        guard let first = firstFrame else { return nil }
        return first...max(first, lastFrame ?? settledFrame)
    }

    /// `--frames all`: frame 0 through the last frame that shows a stamp, or, when stamps
    /// never die, the frame the canvas settles at (the last birth or session entry).
    package var allFrames: ClosedRange<Int> { 0...(liveFrames?.upperBound ?? 0) }

    /// Whether render frame `n` may show a stamp.
    package func mayShow(frame n: Int) -> Bool {
        guard let firstFrame, n >= firstFrame else { return false }
        return lastFrame.map { n <= $0 } ?? true
    }
}

extension Scene {
    /// Birth and death frames of every stamp, in render frames: render frame n is frame
    /// n + startFrame of the script's clock (docs/reference.md §12). A stamp of age a at clock
    /// frame 0 is born at the first render frame n ≥ 0 with a + n + startFrame ≥ 0 and dies at
    /// the first n with a + n + startFrame ≥ maxAge (docs/reference.md §3).
    package var timeline: SceneTimeline {
        let maxAge = effects.maxAge
        let start = session.startFrame
        var count = 0, first: Int?, last: Int?, lastBirth: Int?
        for batch in batches {
            for p in batch.stamps {
                count += 1
                let birth = max(0, Int((-p.age).rounded(.up)) - start)
                if maxAge > 0 {
                    let death = Int((maxAge - p.age).rounded(.up)) - start
                    guard death > birth else { continue }  // dead before it is ever drawn
                    last = max(last ?? 0, death - 1)
                }
                first = min(first ?? birth, birth)
                lastBirth = max(lastBirth ?? birth, birth)
            }
        }
        var settled = maxAge > 0 ? (last.map { $0 + 1 } ?? 0) : (lastBirth ?? 0)
        // Undo, redo and clear change the picture at their frames too: with stamps that never
        // die, the canvas settles only after the last of them (with ageing, one acting after
        // the last death finds an empty canvas).
        if maxAge == 0, first != nil {
            for op in session.ops where op.frame - start > settled { settled = op.frame - start }
        }
        return SceneTimeline(stamps: count, firstFrame: first, lastFrame: maxAge > 0 ? last : nil,
                             settledFrame: settled, lastBirth: lastBirth)
    }
}
