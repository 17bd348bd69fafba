/// The frames in which a scene shows anything: from the first stamp's birth to the last
/// stamp's death (docs/reference.md §3, §9). Outside them the sketch is empty, and a bake passes the
/// video's frames through without drawing.
package struct SceneSpan: Sendable, Equatable {
    /// The first frame with a live stamp; nil when the scene has no stamps.
    package var firstFrame: Int?
    /// The last frame with a live stamp or a stamp still to be born; nil when stamps never
    /// die (maxAge 0) and some are born at all (then: the last birth, see `lastBirth`).
    package var lastLiveFrame: Int?
    /// The frame of the last birth.
    package var lastBirth: Int?
    package var stampsNeverDie: Bool

    /// From the scene's timeline (render frames: `startFrame` taken into account).
    package init(scene: Scene) {
        let t = scene.timeline
        stampsNeverDie = scene.effects.maxAge <= 0
        firstFrame = t.firstFrame
        lastBirth = t.lastBirth
        lastLiveFrame = stampsNeverDie ? t.lastBirth : t.lastFrame
    }

    /// Whether frame `n` may show a stamp.
    package func mayDraw(frame n: Int) -> Bool {
        guard let firstFrame, n >= firstFrame else { return false }
        guard let lastLiveFrame else { return stampsNeverDie }
        return stampsNeverDie || n <= lastLiveFrame
    }

    /// `--frames all`: frame 0 through the last frame where a stamp is alive or still to be
    /// born (with maxAge 0: the last birth, after which the image no longer changes).
    package var allFrames: ClosedRange<Int> { 0...max(0, lastLiveFrame ?? 0) }
}
