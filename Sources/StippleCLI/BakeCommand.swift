import ArgumentParser
import Foundation
import Stipple

struct BakeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bake",
        abstract: "Composite a script's sketch over every frame of a video (docs/reference.md §11).",
        discussion: """
            Frame n of the video is the background of the script's frame n; the output has the \
            input's header and as many frames. IN and OUT are YUV4MPEG2 (y4m) files or - (stdin, \
            stdout); .mp4, .mov, .mkv, .webm and .gif go through ffmpeg, which must be on PATH. \
            Samples no stamp touches are written exactly as read. A script without "canvas" takes \
            the video's size. See docs/video.md.
            Examples:
              stipple bake sketch.json --video in.y4m -o out.y4m
              ffmpeg -i in.mp4 -f yuv4mpegpipe - | stipple bake sketch.json --video - -o - | ffmpeg -i - out.mp4
              stipple bake sketch.json --video in.mp4 -o out.mp4 --matrix bt709
              stipple bake sketch.json --video in.y4m --shard 3/8 -o part-3.y4m
            """)

    @Argument(help: "The JSON script to draw over the video (docs/reference.md §9).")
    var script: String

    @Option(help: "The input video: a y4m file, - for stdin, or a container ffmpeg reads (.mp4, .mov, .mkv, .webm).")
    var video: String

    @Option(name: .shortAndLong, help: "The output video: a y4m file, - for stdout, or .mp4/.mov/.mkv/.webm/.gif through ffmpeg.")
    var output: String

    @Option(help: "The Y'CbCr matrix: bt601 or bt709 (default: bt709 for 720 rows and up, bt601 below).")
    var matrix: ColorMatrix?

    @Option(help: "The sample range: limited or full (default: the header's XCOLORRANGE, else limited).")
    var range: ColorRange?

    @Option(help: "Touch events as JSON lines, read while frames stream (a file, a FIFO, or - for stdin); see docs/video.md.")
    var events: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Write only input frames A...B (the header as the input's); all is every frame.", valueName: "A...B|all"),
            transform: FrameSelection.parse)
    var frames: FrameSelection?

    @Option(help: ArgumentHelp("Write only the K-th of N contiguous parts of the input's frames (or of --frames), K from 1; the parts' frames appended after one header are the whole bake (docs/distributed.md).", valueName: "K/N"))
    var shard: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Timelapse: touch times, events and undo, redo and clear entries play F times faster (F > 0); stamps still age one frame a frame.", valueName: "F"))
    var speed: Double?

    @Option(help: "Draw stamps as point sprites (default) or quads.")
    var primitive: Primitive = .points

    func validate() throws {
        if video == "-" && events == "-" { throw ValidationError("Please give --video - or --events -, not both: stdin is one stream.") }
        if let shard, FrameShard(shard) == nil { throw ValidationError("--shard is K/N with 1 ≤ K ≤ N, such as 2/3 (got \(shard)).") }
        if let frames { try frames.validate() }
        if let speed, !(speed > 0 && speed.isFinite) { throw ValidationError("--speed is a number above 0, such as 20 (got \(speed)).") }
    }

    func run() async throws {
        signal(SIGPIPE, SIG_IGN)  // a closed pipe is an error with a message, not a silent death
        if output != "-" { try checkOutput(output, notAnyOf: [script, video] + (events.map { [$0] } ?? []),
                                           inputsAre: "an input of this bake") }
        let selected = try BakeFrames.resolve(frames: frames, shard: shard.flatMap(FrameShard.init), video: video) {
            if FFmpegProcess.isContainer(video) { return try BakeFrames.containerFrameCount(video) }
            guard video != "-", let header = try? Y4MReader(path: video).header else { return nil }
            return BakeFrames.y4mFileFrameCount(video, header)
        }
        // nil: an empty part; .some(nil): every frame.
        let part = selected ?? nil
        let input = try VideoInput(path: video, frames: FFmpegProcess.isContainer(video) ? part : nil)
        let header = input.reader.header
        let output: VideoOutput
        do {
            var loaded = try VideoBake.loadScript(script: script, header: header, video: video == "-" ? "on stdin" : video)
            if let speed { try loaded.play(atSpeed: speed) }
            let scene = try Scene(script: loaded)
            if self.output != "-" { try checkOutput(self.output, notAnyOf: scene.inputFiles) }
            // A file of events is read and checked before EGL is opened.
            let stream = try events.map { try EventStream(path: $0, script: loaded) }
            let renderer = try makeRenderer()
            let bake = try VideoBake(scene: scene, header: header, renderer: renderer, matrix: matrix, range: range,
                                     primitive: primitive)
            let live = try stream.map { try LiveStrokes(events: $0, script: loaded, renderer: renderer) }
            output = try VideoOutput(path: self.output, header: header, conversion: bake.conversion,
                                     audioFrom: FFmpegProcess.isContainer(video) && selected == .some(nil) ? video : nil)
            let progress = BakeProgress(total: part?.count ?? BakeFrames.y4mFileFrameCount(video, header), label: "baked")
            let frames: Int
            do {
                var extra: VideoBake.BeforeFrame?
                if let live { extra = { n in try await live.frame(n) } }
                if selected == nil {
                    frames = 0  // an empty part: the header alone
                } else {
                    frames = try await bake.run(reader: input.reader, writer: output.writer, extraLayers: extra,
                                                frames: part, readerAt: FFmpegProcess.isContainer(video) ? part?.lowerBound ?? 0 : 0,
                                                progress: { progress.update($0) })
                    if let part {
                        // A container's reader starts at the part's first frame (ffmpeg seeks).
                        let read = input.reader.framesRead + (FFmpegProcess.isContainer(video) ? part.lowerBound : 0)
                        try BakeFrames.checkEnded(written: frames, read: read, part: part,
                                                  frames: self.frames, video: video)
                    }
                }
                try input.finish()
                try output.finish()
            } catch {
                output.abandon()
                throw input.explain(output.explain(error))
            }
            let c = bake.conversion
            progress.finish(frames: frames, detail: "\(header.width)×\(header.height) "
                            + "\(header.chroma.name) \(c.matrix.rawValue) \(c.range.rawValue) → "
                            + (self.output == "-" ? "stdout" : self.output))
        } catch {
            input.abandon()
            throw error
        }
    }
}

extension ColorMatrix: ExpressibleByArgument {}
extension ColorRange: ExpressibleByArgument {}
