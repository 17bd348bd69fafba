import ArgumentParser
import Foundation
import Stipple

struct DescribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Tell what a script draws and which frames show it (how long it runs).",
        discussion: """
            Reads and checks the script (nothing is rendered) and prints its canvas, brushes, \
            stamps, and the first and last frames that show a stamp, with the render command \
            for all of them. With maxAge 0 stamps never die: the last frame is then the one \
            from which the canvas stops changing. A script baked over a video takes its \
            canvas size and fps from the video: give it with --video (only its header is read; \
            its frames are counted from a y4m file's size, or by ffprobe for a container, to \
            say when the script runs past the video's end).
            Examples:
              stipple describe demo.json
              stipple describe demo.json --json
              stipple describe sketch.json --video in.y4m
            """)

    @Argument(help: "The JSON script (docs/reference.md §9), or an ink file (.inkml, or .ndjson of one drawing: docs/ink-formats.md).")
    var script: String

    @Option(help: ArgumentHelp("Describe the script as `stipple bake` draws it over this video (y4m, or a container through ffmpeg): its size and fps are the video's.", valueName: "video"))
    var video: String?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let (scene, header) = try load()
        let t = scene.timeline
        let fps = scene.fps, maxAge = scene.effects.maxAge
        let frames = t.liveFrames
        let brushes = Set(scene.batches.map(\.brushKey)).count
        // The video's frames, where they can be counted without reading it (not on stdin).
        let videoFrames = video.flatMap { v in header.flatMap { BakeFrames.videoFrameCount(v, $0) } }
        // A script that outlasts the video: the bake ends with the video's last frame.
        let pastTheVideo = videoFrames.flatMap { n in frames.map { $0.upperBound >= n } } ?? false
        if json {
            var object: [String: Any] = [
                "script": script, "width": scene.canvas.width, "height": scene.canvas.height,
                "fps": fps, "maxAge": Double(maxAge), "stamps": t.stamps, "draws": scene.batches.count,
                "brushes": brushes, "settledFrame": t.settledFrame,
            ]
            object["strokeLayers"] = scene.strokeLayerSummary.map { ["entry": $0.entry, "mode": $0.text] }
            if let video { object["video"] = video }
            if let videoFrames { object["videoFrames"] = videoFrames }
            if let frames {
                object["firstFrame"] = frames.lowerBound
                object["lastFrame"] = frames.upperBound
                object["frames"] = frames.count
                object["seconds"] = Double(frames.upperBound + 1) / fps
            }
            print(try jsonText(object))
            return
        }
        var lines: [(String, String)] = [
            ("script", script),
        ]
        if let video, let header {
            let length = videoFrames.map { ", \(counted($0, "frame")) (\(number(Double($0) / header.fps)) s)" } ?? ""
            lines.append(("video", "\(video): \(header.width)×\(header.height) "
                + "\(header.chroma.name), F\(header.rateNumerator):\(header.rateDenominator)\(length)"))
        }
        lines += [
            ("canvas", "\(scene.canvas.width)×\(scene.canvas.height)\(video == nil ? "" : ", the video's")"),
            ("fps", number(fps)),
            ("maxAge", maxAge > 0 ? "\(number(Double(maxAge))) frames" : "0 (stamps never age or die)"),
            ("stamps", "\(t.stamps) in \(scene.batches.count) draw\(scene.batches.count == 1 ? "" : "s"), "
                + "\(brushes) brush\(brushes == 1 ? "" : "es")"),
        ]
        for layer in scene.strokeLayerSummary {
            lines.append(("stroke layer", "draw entry \(layer.entry): \(layer.text)"))
        }
        if let frames {
            let end = t.lastFrame != nil ? "the last stamp's last frame" : "nothing changes after it"
            lines.append(("first frame", "\(frames.lowerBound) (the first stamp is born)"))
            lines.append(("last frame", "\(frames.upperBound) (\(end))"))
            lines.append(("length", "\(counted(frames.upperBound + 1, "frame")) from 0, \(number(Double(frames.upperBound + 1) / fps)) s at \(number(fps)) fps"))
            if let video {
                if pastTheVideo, let videoFrames {
                    lines.append(("past the video", "the video ends at frame \(videoFrames - 1)"
                        + (frames.lowerBound >= videoFrames ? ", before the first stamp is born: a bake draws none of the script"
                                                             : ": a bake draws no frame after it")))
                }
                lines.append(("bake", "stipple bake \(script) --video \(video) -o out.y4m (every frame of the video)"))
            } else {
                lines.append(("render all", "stipple render \(script) -o frames/ --frames 0...\(frames.upperBound)"))
            }
        } else {
            lines.append(("frames", "none shows a stamp"))
        }
        let width = lines.map(\.0.count).max() ?? 0
        for (k, v) in lines { print(k.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + v) }
    }

    /// The scene, from the script alone or as the bake reads it against the video's header.
    private func load() throws -> (Scene, Y4MHeader?) {
        guard let video else { return (try loadScene(script), nil) }
        if InkImport.format(of: script) != nil {
            throw ValidationError("--video takes a JSON script: an ink file is drawn on its own canvas")
        }
        let input = try VideoInput(path: video)
        input.abandon()
        let header = input.reader.header
        return (try VideoBake.loadScene(script: script, header: header, video: video), header)
    }

    private func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(format: "%.2f", v)
    }
}

/// Pretty JSON with sorted keys and `/` left as is (JSONSerialization escapes it by default).
func jsonText(_ object: Any) throws -> String {
    let data = try JSONSerialization.data(withJSONObject: object,
                                          options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self)
}
