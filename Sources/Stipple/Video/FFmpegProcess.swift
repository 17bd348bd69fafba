import Foundation

/// ffmpeg as a child process on pipes: how containers other than y4m (.mp4, .mov, .mkv,
/// .webm, .gif) come in and go out. Decoding writes y4m to its stdout; encoding reads y4m
/// on its stdin. Its stderr is kept, so a failure shows ffmpeg's own last line.
// Unchecked: the stderr text is guarded by `stderrLock`; the pipes are set up before the process starts and
// used by one task after.
package final class FFmpegProcess: @unchecked Sendable {
    package let process = Process()
    /// Registered for a signal's clean-up while ffmpeg runs (see `TemporaryFiles`).
    private var child = TemporaryFiles.Ticket(slot: nil)
    /// What the process is for, in messages ("decoding in.mp4").
    package let purpose: String
    private let errors = Pipe()
    private let stderrLock = NSLock()
    private var stderrText = Data()
    private let stderrDone = DispatchSemaphore(value: 0)
    private var inputPipe: Pipe?
    private var outputPipe: Pipe?

    /// Containers that go through ffmpeg, by file extension.
    package static let containers = ["mp4", "mov", "mkv", "webm", "gif", "avi", "m4v"]

    /// Whether `path` names a container ffmpeg should read or write (not y4m, not a pipe).
    package static func isContainer(_ path: String) -> Bool {
        path != "-" && containers.contains((path as NSString).pathExtension.lowercased())
    }

    /// ffmpeg on PATH (or `STIPPLE_FFMPEG`), nil when there is none.
    package static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let forced = environment["STIPPLE_FFMPEG"] {
            return FileManager.default.isExecutableFile(atPath: forced) ? forced : nil
        }
        for dir in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(dir)/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static func missing(_ file: String) -> InputError {
        InputError(file: file, "reading or writing this container needs ffmpeg, which is not on PATH; "
                   + "install it (Debian: sudo apt-get install -y ffmpeg), or use y4m: "
                   + "ffmpeg -i IN -f yuv4mpegpipe - | stipple … --video - -o -")
    }

    init(arguments: [String], purpose: String, file: String, stdinPipe: Bool, stdoutPipe: Bool) throws {
        guard let ffmpeg = FFmpegProcess.locate() else { throw FFmpegProcess.missing(file) }
        self.purpose = purpose
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-hide_banner", "-loglevel", "error", "-nostdin"] + arguments
        if stdinPipe { inputPipe = Pipe(); process.standardInput = inputPipe }
        else { process.standardInput = FileHandle.nullDevice }
        if stdoutPipe { outputPipe = Pipe(); process.standardOutput = outputPipe }
        else { process.standardOutput = FileHandle.nullDevice }
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw InputError(file: file, "cannot start ffmpeg for \(purpose): \(error.localizedDescription)")
        }
        child = TemporaryFiles.trackChild(process.processIdentifier)
        let handle = errors.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                stderrLock.lock(); stderrText.append(chunk)
                if stderrText.count > 65536 { stderrText.removeFirst(stderrText.count - 65536) }
                stderrLock.unlock()
            }
            stderrDone.signal()
        }
    }

    /// ffmpeg decoding `input` (any container it reads) to 8-bit y4m on a pipe.
    /// With `frames`, only those frames (numbered from 0 in decode order) come out: ffmpeg
    /// seeks by a `select` filter, exact to the frame.
    package static func decoder(input: String, frames: ClosedRange<Int>? = nil) throws -> FFmpegProcess {
        guard FileManager.default.fileExists(atPath: input) else { throw InputError(file: input, "file not found") }
        let select = frames.map { ["-vf", "select=between(n\\,\($0.lowerBound)\\,\($0.upperBound))", "-fps_mode", "passthrough"] } ?? []
        return try FFmpegProcess(arguments: ["-i", input, "-map", "0:v:0"] + select + ["-pix_fmt", "yuv420p",
                                             "-f", "yuv4mpegpipe", "-"],
                                 purpose: "decoding \(input)", file: input, stdinPipe: false, stdoutPipe: true)
    }

    /// ffmpeg encoding y4m from a pipe into `output` (by extension, with sane defaults: H.264
    /// CRF 18 in mp4/mov/mkv, VP9 in webm, a generated palette for gif); `audioFrom` is a
    /// container whose audio is copied in. The colour matrix and range are written into the
    /// stream so players decode what was encoded.
    /// `name` is the file the user asked for, for messages (`output` may be a temporary).
    package static func encoder(output: String, name: String, format: String, header: Y4MHeader,
                               conversion: YCbCrConversion, audioFrom: String? = nil) throws -> FFmpegProcess {
        var args = ["-f", "yuv4mpegpipe", "-i", "-"]
        let ext = (name as NSString).pathExtension.lowercased()  // output may be a temporary or /dev/null
        let audio = audioFrom != nil && ext != "gif"
        if let audioFrom, audio { args += ["-i", audioFrom, "-map", "0:v:0", "-map", "1:a?"] }
        let space = conversion.matrix == .bt709 ? "bt709" : "smpte170m"
        let range = conversion.range == .full ? "pc" : "tv"
        switch ext {
        case "gif":
            args += ["-filter_complex", "[0:v]split[a][b];[a]palettegen[p];[b][p]paletteuse", "-loop", "0"]
        case "webm":
            args += ["-c:v", "libvpx-vp9", "-crf", "30", "-b:v", "0", "-pix_fmt", "yuv420p",
                     "-colorspace", space, "-color_range", range]
            if audio { args += ["-c:a", "libopus"] }
        default:
            args += ["-c:v", "libx264", "-crf", "18", "-preset", "medium", "-pix_fmt", "yuv420p",
                     "-colorspace", space, "-color_range", range]
            if audio { args += ["-c:a", "copy"] }
        }
        args += ["-f", format, "-y", output]
        return try FFmpegProcess(arguments: args, purpose: "encoding \(name)", file: name,
                                 stdinPipe: true, stdoutPipe: false)
    }

    /// ffmpeg's muxer name for a file extension.
    package static func muxer(for path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "mkv": return "matroska"
        case "m4v": return "mp4"
        case let ext: return ext
        }
    }

    /// The pipe ffmpeg writes y4m to (decoding).
    package var stdoutDescriptor: Int32 { outputPipe!.fileHandleForReading.fileDescriptor }
    /// The pipe ffmpeg reads y4m from (encoding).
    package var stdinDescriptor: Int32 { inputPipe!.fileHandleForWriting.fileDescriptor }

    /// Closes our end of ffmpeg's stdin: end of stream.
    package func closeInput() { try? inputPipe?.fileHandleForWriting.close() }

    /// Waits for ffmpeg to end; a failure is an error with its last stderr line.
    package func wait(file: String) throws {
        waitForExit()
        stderrDone.wait()
        stderrDone.signal()
        guard process.terminationStatus == 0 else { throw failure(file: file) }
    }

    /// Stops ffmpeg (after an error of ours) and waits for it.
    package func terminate() {
        closeInput()
        process.end()
        TemporaryFiles.forgetChild(child)
    }

    /// Waits for ffmpeg to end; from then on a signal's clean-up no longer kills it.
    private func waitForExit() {
        process.waitUntilExit()
        TemporaryFiles.forgetChild(child)
    }

    /// Whether ffmpeg has ended with a failure (checked after a read error: ffmpeg's message says more).
    package func failedError(file: String) -> InputError? {
        waitForExit()
        stderrDone.wait()
        stderrDone.signal()
        return process.terminationStatus == 0 ? nil : failure(file: file)
    }

    private func failure(file: String) -> InputError {
        stderrLock.lock(); defer { stderrLock.unlock() }
        let lines = String(decoding: stderrText, as: UTF8.self).split(whereSeparator: \.isNewline)
        // ffmpeg's last line is often generic ("Error initializing output stream…"); the one
        // before it says why.
        let last = lines.suffix(2).joined(separator: " / ")
        return InputError(file: file, "ffmpeg failed \(purpose) (exit \(process.terminationStatus)): \(last.isEmpty ? "no message" : last)")
    }
}
