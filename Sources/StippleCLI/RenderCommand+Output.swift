import Foundation
import Stipple

/// `render`'s checks on its output folder and the line it prints when done; kept apart
/// from the command so that new outputs (video files) can be added beside them.
extension RenderCommand {
    /// Frame files (frame-NNNN.png, 4 digits or more) in the output folder that this run
    /// does not write: frames outside `range`, and frames of another digit width
    /// (`frame-00001.png` beside this run's `frame-0001.png`), an earlier render's.
    /// Refused unless --clean, which has them removed after this render.
    /// A stale frame that is one of the script's inputs (the script itself, a brush, a
    /// background named like a frame) is refused even with --clean: nothing a user gave is
    /// removed.
    func staleFrames(of sequence: FrameSequence, notAnyOf inputs: [String]) throws -> [String] {
        let range = sequence.frames
        let names = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
        let stale = names.filter { name in
            guard name.hasPrefix("frame-"), name.hasSuffix(".png"), name.count >= 14 else { return false }
            let digits = name.dropFirst(6).dropLast(4)
            guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(digits) else { return false }
            return !range.contains(n) || sequence.name(of: n) != name
        }.sorted()
        for name in stale {
            let path = (output as NSString).appendingPathComponent(name)
            if inputs.contains(where: { OutputFile.sameFile(path, $0) }) {
                throw InputError(file: path, "is named like an earlier render's frame but is an input of this script; "
                                 + "refusing to remove or overwrite it: render into another folder")
            }
        }
        guard !stale.isEmpty, !clean else { return stale }
        let shown = stale.count == 1 ? stale[0] : "\(stale[0]) … \(stale[stale.count - 1])"
        let outside = stale.allSatisfy { !range.contains(Int($0.dropFirst(6).dropLast(4)) ?? range.lowerBound) }
        let which = "outside \(range.lowerBound)...\(range.upperBound)"
            + (outside ? "" : " or numbered with another width than this run's \(sequence.name(of: range.lowerBound))")
        throw InputError(file: output, "holds \(stale.count) frame\(stale.count == 1 ? "" : "s") \(which) from an earlier render "
            + "(\(shown)); add --clean to remove them, or render into an empty folder")
    }

    func remove(_ stale: [String]) throws {
        for name in stale {
            try FileManager.default.removeItem(atPath: (output as NSString).appendingPathComponent(name))
        }
    }

    /// `out.png: frame 12 of demo.json, 320×240, 1204 stamps, points`.
    func summary(_ scene: Scene, frame n: Int) -> String {
        let live = scene.batches(atFrame: n).reduce(0) { $0 + $1.stamps.count }
        return "\(output): frame \(n) of \(script), \(scene.canvas.width)×\(scene.canvas.height), "
            + "\(live) stamp\(live == 1 ? "" : "s"), \(primitive.rawValue)"
    }

    /// `frames/: 120 frames (frame-0000.png … frame-0119.png) of anim.json, 320×240, points`:
    /// the names of the files written (`frame-09998.png` … `frame-10000.png`).
    func summary(_ scene: Scene, frames sequence: FrameSequence, removed: Int) -> String {
        let range = FrameRange(lower: sequence.frames.lowerBound, upper: sequence.frames.upperBound)
        let first = sequence.name(of: range.lower), last = sequence.name(of: range.upper)
        let files = range.count == 1 ? first : "\(first) … \(last)"
        return "\(output): \(range.count) frame\(range.count == 1 ? "" : "s") (\(files)) of \(script), "
            + "\(scene.canvas.width)×\(scene.canvas.height), \(primitive.rawValue)"
            + (removed > 0 ? "; removed \(removed) older frame\(removed == 1 ? "" : "s")" : "")
    }
}
