import Foundation
import Stipple

/// `render`'s checks on its output folder and the line it prints when done; kept apart
/// from the command so that new outputs (video files) can be added beside them.
extension RenderCommand {
    /// Frame files (frame-NNNN.png) in the output folder outside `range`: an earlier,
    /// longer render's. Refused unless --clean, which has them removed after this render.
    func staleFrames(outside range: FrameRange) throws -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
        let stale = names.filter { name in
            guard name.hasPrefix("frame-"), name.hasSuffix(".png"),
                  let n = Int(name.dropFirst(6).dropLast(4)), name.count >= 14 else { return false }
            return n < range.lower || n > range.upper
        }.sorted()
        guard !stale.isEmpty, !clean else { return stale }
        let shown = stale.count == 1 ? stale[0] : "\(stale[0]) … \(stale[stale.count - 1])"
        throw InputError(file: output, "holds \(stale.count) frame\(stale.count == 1 ? "" : "s") outside "
            + "\(range.lower)...\(range.upper) from an earlier render (\(shown)); add --clean to remove them, "
            + "or render into an empty folder")
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

    /// `frames/: 120 frames (frame-0000.png … frame-0119.png) of anim.json, 320×240, points`.
    func summary(_ scene: Scene, frames range: FrameRange, removed: Int) -> String {
        let first = String(format: "frame-%04d.png", range.lower), last = String(format: "frame-%04d.png", range.upper)
        let files = range.count == 1 ? first : "\(first) … \(last)"
        return "\(output): \(range.count) frame\(range.count == 1 ? "" : "s") (\(files)) of \(script), "
            + "\(scene.canvas.width)×\(scene.canvas.height), \(primitive.rawValue)"
            + (removed > 0 ? "; removed \(removed) older frame\(removed == 1 ? "" : "s")" : "")
    }
}
