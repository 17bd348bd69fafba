import Synchronization
import ArgumentParser
import Foundation
import Stipple

extension Primitive: ExpressibleByArgument {}
extension UploadStrategy: ExpressibleByArgument {}

/// Opens a renderer on the platform `STIPPLE_EGL_PLATFORM` asks for.
func makeRenderer(niceness: Int32 = 0) throws -> Renderer {
    try Renderer(platform: EGLPlatform.fromEnvironment(ProcessInfo.processInfo.environment), niceness: niceness)
}

/// Refuses an output path before any work is done (see `OutputFile.check`: the one place
/// that says what may be written).
func checkOutput(_ output: String, notAnyOf inputs: [String], inputsAre what: String = "an input of this script") throws {
    try OutputFile.check(output, notAnyOf: inputs, inputsAre: what)
}

/// `A...B`, both whole frame numbers from 0, A ≤ B.
struct FrameRange: ExpressibleByArgument, Sendable {
    var lower: Int
    var upper: Int

    init(lower: Int, upper: Int) { self.lower = lower; self.upper = upper }

    init?(argument: String) {
        guard let range = try? FrameRange.parse(argument) else { return nil }
        self = range
    }

    /// Parses `A...B`; the error says which form is wanted and why this one is not it.
    static func parse(_ argument: String) throws -> FrameRange {
        // Spaces are refused, as in every number on the command line (`--frame " 3"`, `--shard " 1/2"`).
        let text = argument
        // ArgumentParser prefixes "The value 'X' is invalid for '--frames <A...B>': ".
        let wanted = "give whole frames from 0 as A...B with three dots and A ≤ B, e.g. 0...119"
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace }) {
            throw ValidationError("\(wanted) (without spaces)")
        }
        if let single = Int(text) {
            throw ValidationError("\(wanted) (for frame \(single) alone: --frames \(single)...\(single), or --frame \(single))")
        }
        let parts = text.components(separatedBy: "...")
        guard parts.count == 2 else {
            let dots = ["..<", "..", "-", ":", ","].first { text.contains($0) }
            throw ValidationError(dots.map { "\(wanted) (\"\($0)\" is not \"...\")" } ?? wanted)
        }
        guard let a = Int(parts[0]), let b = Int(parts[1]) else {
            throw ValidationError("\(wanted) (these are not whole numbers)")
        }
        guard a >= 0 else { throw ValidationError("\(wanted) (frames start at 0)") }
        guard a <= b else { throw ValidationError("\(wanted) (\(a) is after \(b): did you mean \(b)...\(a)?)") }
        // Bounded here, before any count or shard arithmetic can overflow.
        guard b <= Limits.maxFrame else { throw ValidationError(pastLastFrame(a, b)) }
        return FrameRange(lower: a, upper: b)
    }

    var count: Int { upper - lower + 1 }

    static func pastLastFrame(_ lower: Int, _ upper: Int) -> String {
        "--frames \(lower)...\(upper) goes past frame \(Limits.maxFrame), the last frame Stipple renders."
    }
    static var defaultValueDescription: String { "A...B" }

    /// The documented bounds (docs/limits.md): frames up to `Limits.maxFrame`, at most
    /// `Limits.maxFramesPerRun` a run (`written`: the frames this run writes, a shard's part).
    func validate(written: Int? = nil) throws {
        guard upper <= Limits.maxFrame else { throw ValidationError(Self.pastLastFrame(lower, upper)) }
        let count = written ?? self.count
        guard count <= Limits.maxFramesPerRun else {
            throw ValidationError("--frames \(lower)...\(upper) is \(count) frames\(written == nil ? "" : " in this shard"); "
                                  + "one run writes at most \(Limits.maxFramesPerRun) (--shard K/N splits a range into N runs).")
        }
    }
}

/// Progress on stderr, safe to update from any task: on a terminal, one line rewritten in
/// place; otherwise (a log, a notebook cell, `nohup`) a line every few seconds
/// (`STIPPLE_PROGRESS_INTERVAL` seconds, default 5). Both say the rate and the time left.
final class ProgressLine: Sendable {
    let total: Int
    let label: String
    private let terminal = isatty(STDERR_FILENO) != 0
    /// Seconds between lines in a log.
    private let interval: Double
    /// When the work started (the first update) and when a line was last written.
    private let state = Mutex((start: Date?.none, last: Date.distantPast))

    init(total: Int, label: String) {
        self.total = total; self.label = label
        interval = ProcessInfo.processInfo.environment["STIPPLE_PROGRESS_INTERVAL"].flatMap(Double.init)
            .flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? 5
    }

    /// As `update`, when the total is known only as the work goes.
    func update(_ done: Int, of total: Int) {
        state.withLock { state in
            let now = Date()
            let start = state.start ?? now
            state.start = start
            if terminal {
                guard done == total || now.timeIntervalSince(state.last) > 0.1 else { return }
            } else {
                // A log gets a line when the interval has passed, never a line at the very start or end.
                if state.last == .distantPast { state.last = start }
                guard done < total, now.timeIntervalSince(state.last) >= interval else { return }
            }
            state.last = now
            let line = "\(InputError.escaped(label)) \(done)/\(total)" + ProgressLine.pace(done: done, total: total,
                                                                                    seconds: now.timeIntervalSince(start))
            if terminal {
                FileHandle.standardError.write(Data("\r\(line)\u{1B}[K".utf8))
                if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
            } else {
                FileHandle.standardError.write(Data("\(line)\n".utf8))
            }
        }
    }

    func update(_ done: Int) { update(done, of: total) }

    /// ", 52%, 120/s, about 14 s left": nothing until a second's work shows the rate.
    static func pace(done: Int, total: Int, seconds: Double) -> String {
        guard total > 0, done > 0, seconds >= 1 else { return "" }
        let rate = Double(done) / seconds
        let percent = Int((100 * Double(done) / Double(total)).rounded(.down))
        let shown = rate >= 10 ? String(Int(rate.rounded())) : String(format: "%.1f", rate)
        let left = Double(total - done) / rate
        let eta = done >= total ? "" : ", about " + duration(left) + " left"
        return ", \(percent)%, \(shown)/s" + eta
    }

    static func duration(_ s: Double) -> String {
        if s < 90 { return "\(Int(s.rounded(.up))) s" }
        if s < 5400 { return "\(Int((s / 60).rounded())) min" }
        return String(format: "%.1f h", s / 3600)
    }
}
