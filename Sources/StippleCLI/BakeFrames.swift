import ArgumentParser
import Foundation
import Stipple

/// Which input frames `bake --frames A...B` and `bake --shard K/N` write.
enum BakeFrames {
    /// The frames to bake, or nil for every frame. `count` counts the input's frames when
    /// it can (a regular y4m file from its size, a container with ffprobe), for `--shard`
    /// without `--frames` and for `--frames all`.
    static func resolve(frames: FrameSelection?, shard: FrameShard?, video: String,
                        count: () throws -> Int?) throws -> ClosedRange<Int>?? {
        var whole: ClosedRange<Int>?
        switch frames {
        case let .range(r)?:
            whole = r.lower...r.upper
            // A range past the input's last frame is refused before any work when the count
            // is known; a stream that ends early is refused when it ends (`checkEnded`).
            if let total = try count(), r.upper >= total {
                throw pastEnd(r, total: total, video: video)
            }
        case .all?, nil:
            guard shard != nil || frames != nil else { return .some(nil) }
            guard let total = try count() else {
                throw InputError(file: video == "-" ? "stdin" : video,
                                 "cannot count the frames of a stream; give --frames A...B with --shard")
            }
            guard total > 0 else { return nil }
            whole = 0...(total - 1)
        }
        guard let whole else { return nil }
        guard let shard else { return .some(whole) }
        // An empty part (more parts than frames) writes a header and no frame.
        return shard.part(of: whole).map { .some($0) } ?? nil
    }

    static func pastEnd(_ r: FrameRange, total: Int, video: String) -> InputError {
        InputError(file: video == "-" ? "stdin" : video,
                   "has \(total == 0 ? "no frames" : "\(counted(total, "frame")) (0...\(total - 1))"), and --frames \(r.lower)...\(r.upper) "
                   + "goes past its last frame; give a range within it")
    }

    /// After a bake of `part` that wrote `written` frames, the input having `read` frames in
    /// all when it ended: an input that ended before the range did is an error (the output is
    /// removed), never a shorter video without a word.
    static func checkEnded(written: Int, read: Int, part: ClosedRange<Int>, frames: FrameSelection?, video: String) throws {
        guard written < part.count, case let .range(r)? = frames else { return }
        throw pastEnd(r, total: read, video: video)
    }

    /// The frames of the y4m file at `path` whose header is `header`, from its size (exact
    /// when FRAME lines carry no tags); nil for stdin, a container, or a size not known.
    static func y4mFileFrameCount(_ path: String, _ header: Y4MHeader) -> Int? {
        guard path != "-", !FFmpegProcess.isContainer(path),
              let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else { return nil }
        return BakeProgress.frameCount(fileSize: size, headerLength: header.line.utf8.count, frameSize: header.frameSize)
    }

    /// The video's frames where they can be counted without reading the stream: a y4m file
    /// from its size, a container with ffprobe; nil for stdin, or where ffprobe cannot tell.
    static func videoFrameCount(_ path: String, _ header: Y4MHeader) -> Int? {
        FFmpegProcess.isContainer(path) ? try? containerFrameCount(path) : y4mFileFrameCount(path, header)
    }

    /// The number of video frames in a container, counted by ffprobe (decoding nothing:
    /// packets are counted).
    static func containerFrameCount(_ path: String) throws -> Int {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["ffprobe", "-v", "error", "-select_streams", "v:0", "-count_packets",
                           "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", path]
        let pipe = Pipe()
        probe.standardOutput = pipe
        probe.standardError = FileHandle.nullDevice
        try probe.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        probe.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard probe.terminationStatus == 0, let n = Int(text.split(separator: ",").first ?? "") else {
            throw InputError(file: path, "ffprobe could not count its video frames; give --frames A...B")
        }
        return n
    }
}
