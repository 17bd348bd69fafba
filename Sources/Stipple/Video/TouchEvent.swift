/// One live touch event (docs/video.md): a sample of a stroke, the stroke's end, or an
/// undo, redo or clear. Events
/// come as JSON lines while a video is baked, and each applies at the frame its time falls in.
package struct TouchEvent: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// A touch sample of stroke `stroke`; `start` is set on the stroke's first event.
        case sample(stroke: Int, TouchSample, start: StrokeStart?)
        case end(stroke: Int)
        /// An undo, redo or clear (docs/reference.md §12), placed in draw order after the
        /// script's entries and the live strokes that started before it.
        case session(SessionOp)
    }

    /// How a stroke is drawn: named on its first event, as a script's `points` entry does.
    package struct StrokeStart: Sendable, Equatable {
        package var brush: String
        package var style: StrokeStyle
    }

    package var kind: Kind
    /// Seconds since frame 0.
    package var t: Double
    /// The line it was read from (from 1), for messages.
    package var line: Int

    /// The frame whose time span [n / fps, (n + 1) / fps) holds `t`.
    package func frame(fps: Double) -> Int { Int((t * fps + 1e-9).rounded(.down)) }
}
