import ArgumentParser
import Stipple

/// `--frames A...B` or `--frames all`.
enum FrameSelection: ExpressibleByArgument, Sendable {
    case range(FrameRange)
    /// Frame 0 to the last frame that shows a stamp, or where the canvas settles (`SceneTimeline`).
    case all

    init?(argument: String) {
        guard let selection = try? FrameSelection.parse(argument) else { return nil }
        self = selection
    }

    /// `all`, or `A...B` with the range's own message when it is malformed.
    static func parse(_ argument: String) throws -> FrameSelection {
        argument == "all" ? .all : .range(try FrameRange.parse(argument))
    }

    func resolve(_ scene: Scene) -> FrameRange {
        switch self {
        case let .range(r): return r
        case .all:
            let frames = scene.timeline.allFrames
            return FrameRange(lower: frames.lowerBound, upper: frames.upperBound)
        }
    }

    /// A range given on the command line is bounded before any work (`all` once resolved).
    func validate() throws {
        if case let .range(r) = self { try r.validate() }
    }

    static var defaultValueDescription: String { "A...B|all" }
}
