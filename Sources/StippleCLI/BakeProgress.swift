import Foundation
import Stipple

/// The progress of a video job on stderr: a line rewritten in place on a terminal (frames,
/// frames/s, ETA when the frame count is known), and a one-line summary at the end. Used by
/// the one task that runs the job.
final class BakeProgress {
    let total: Int?
    let label: String
    private let enabled = isatty(STDERR_FILENO) != 0
    private let start = Date()
    private var last = Date.distantPast
    private var shown = false

    init(total: Int?, label: String) { self.total = total; self.label = label }

    func update(_ done: Int) {
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(last) > 0.1 else { return }
        last = now
        let elapsed = now.timeIntervalSince(start)
        let fps = elapsed > 0 ? Double(done) / elapsed : 0
        var text = "\r\(InputError.escaped(label)) frame \(done)"
        if let total { text += "/\(total)" }
        text += String(format: ", %.1f fps", fps)
        if let total, fps > 0, done < total { text += String(format: ", ETA %.0f s", Double(total - done) / fps) }
        FileHandle.standardError.write(Data((text + "\u{1B}[K").utf8))
        shown = true
    }

    /// Clears the progress line and prints the summary.
    func finish(frames: Int, detail: String) {
        let elapsed = Date().timeIntervalSince(start)
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let fps = elapsed > 0 ? Double(frames) / elapsed : 0
        note(String(format: "%@ %d frame%@ in %.2f s (%.1f fps): %@", label, frames, frames == 1 ? "" : "s",
                    elapsed, fps, detail))
    }

    /// Frames in a y4m file of `size` bytes (exact when FRAME lines carry no tags).
    static func frameCount(fileSize: Int, headerLength: Int, frameSize: Int) -> Int {
        max(0, (fileSize - headerLength) / (frameSize + 6))
    }
}
