/// A stroke's stamps as the decoder made them, counting them against the script's budget,
/// with what they were made from: a scene made from the same stroke at the same rate and
/// seed takes these instead of stamping the stroke a second time. A script changed since
/// (its rate, seed, a stroke's samples or style) no longer matches, and is stamped again.
package struct MadeStamps: Sendable {
    let samples: [TouchSample]
    let style: StrokeStyle
    let index: Int
    let fps: Double
    let seed: UInt64
    /// The stamps, as a scene's batch holds them: each point, and each turn when any stamp turns.
    let points: [SketchPoint]
    let rotations: [Float]?

    init(stroke: StrokeSpec, fps: Double, seed: UInt64, stamps: [Stamp]) {
        samples = stroke.samples; style = stroke.style; index = stroke.index
        self.fps = fps; self.seed = seed
        (points, rotations) = MadeStamps.split(stamps)
    }

    /// True when `stroke` at `fps` and `seed` makes exactly these stamps.
    func matches(_ stroke: StrokeSpec, fps: Double, seed: UInt64) -> Bool {
        fps == self.fps && seed == self.seed && stroke.index == index && stroke.style == style && stroke.samples == samples
    }

    /// The points of `stamps`, and their turns when any turns.
    package static func split(_ stamps: [Stamp]) -> (points: [SketchPoint], rotations: [Float]?) {
        let turned = stamps.contains { $0.rotation != 0 }
        return (stamps.map(\.point), turned ? stamps.map(\.rotation) : nil)
    }
}
