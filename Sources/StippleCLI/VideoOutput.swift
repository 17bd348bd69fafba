import Foundation
import Stipple

/// Where a command's video goes: a y4m file (written atomically), stdout, or a container
/// through an ffmpeg child process that writes a temporary renamed into place when whole.
final class VideoOutput {
    let writer: Y4MWriter
    let encoder: FFmpegProcess?
    let path: String
    /// ffmpeg writes here, renamed to `path` on success.
    private let temporary: String?

    init(path: String, header: Y4MHeader, conversion: YCbCrConversion, audioFrom: String?) throws {
        self.path = path
        if FFmpegProcess.isContainer(path) {
            let folder = (path as NSString).deletingLastPathComponent
            let name = (path as NSString).lastPathComponent
            let temp = (folder.isEmpty ? "" : folder + "/") + ".\(name).tmp-\(getpid()).\((path as NSString).pathExtension)"
            temporary = temp
            let ffmpeg = try FFmpegProcess.encoder(output: temp, name: path, format: FFmpegProcess.muxer(for: path), header: header,
                                                   conversion: conversion, audioFrom: audioFrom)
            encoder = ffmpeg
            writer = try Y4MWriter(descriptor: ffmpeg.stdinDescriptor, name: path, header: header, owns: false)
        } else {
            temporary = nil
            encoder = nil
            writer = try Y4MWriter(path: path, header: header)
        }
    }

    /// A write error, or ffmpeg's own message when the encoder failed first.
    func explain(_ error: Error) -> Error {
        guard let encoder else { return error }
        encoder.terminate()
        return encoder.failedError(file: path) ?? error
    }

    func finish() throws {
        try writer.finish()
        guard let encoder, let temporary else { return }
        encoder.closeInput()
        do {
            try encoder.wait(file: path)
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(temporary)
            throw InputError(file: path, "cannot write the video: \(why)")
        }
    }

    func abandon() {
        writer.abandon()
        encoder?.terminate()
        if let temporary { unlink(temporary) }
    }
}
