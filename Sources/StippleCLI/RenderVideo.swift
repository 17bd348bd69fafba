import ArgumentParser
import Foundation
import Stipple

/// Whether `render --frames` writes a video (y4m file, a pipe, or a container through
/// ffmpeg) rather than a folder of PNGs.
func isVideoOutput(_ path: String) -> Bool {
    path == "-" || (path as NSString).pathExtension.lowercased() == "y4m" || FFmpegProcess.isContainer(path)
}

/// Renders `range` as a video (`SceneVideo`) to a y4m file, stdout or a container; an
/// empty range (a shard with no frames) writes the header alone.
func renderVideo(_ scene: Scene, _ range: ClosedRange<Int>?, output path: String, renderer: Renderer,
                 settings: RenderSettings) async throws {
    signal(SIGPIPE, SIG_IGN)
    if path != "-" { try checkOutput(path, notAnyOf: scene.inputFiles) }
    let video = SceneVideo(scene: scene, settings: settings)
    let (header, conversion) = (video.header, video.conversion)
    let output = try VideoOutput(path: path, header: header, conversion: conversion, audioFrom: nil)
    let progress = BakeProgress(total: range?.count ?? 0, label: "rendered")
    do {
        if let range {
            try await video.run(frames: range, renderer: renderer, writer: output.writer, progress: { progress.update($0) })
        }
        try output.finish()
    } catch {
        output.abandon()
        throw output.explain(error)
    }
    progress.finish(frames: range?.count ?? 0, detail: "\(header.width)×\(header.height) 4:2:0 "
                    + "\(conversion.matrix.rawValue) \(conversion.range.rawValue) → \(path == "-" ? "stdout" : path)")
}
