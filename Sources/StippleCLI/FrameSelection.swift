import ArgumentParser
import Stipple

/// `--frames A...B` or `--frames all`.
enum FrameSelection: ExpressibleByArgument, Sendable {
    case range(FrameRange)
    /// Frame 0 to the last frame where any stamp is alive or still to be born (`SceneSpan`).
    case all

    init?(argument: String) {
        if argument == "all" { self = .all; return }
        guard let r = FrameRange(argument: argument) else { return nil }
        self = .range(r)
    }

    func resolve(_ scene: Scene) -> FrameRange {
        switch self {
        case let .range(r): return r
        case .all:
            let frames = SceneSpan(scene: scene).allFrames
            return FrameRange(argument: "\(frames.lowerBound)...\(frames.upperBound)")!
        }
    }

    static var defaultValueDescription: String { "A...B|all" }
}
