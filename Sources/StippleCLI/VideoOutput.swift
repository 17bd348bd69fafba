import Foundation
import Stipple

/// Where a command's video goes: a y4m file (written atomically), stdout, or a container
/// through an ffmpeg child process that writes a temporary renamed into place when whole
/// (or a FIFO or device directly: see `StreamedOutput`).
final class VideoOutput {
    let writer: Y4MWriter
    let encoder: FFmpegProcess?
    let path: String
    /// What ffmpeg writes (OutputFile's rules: a temporary renamed to `path` on success, or
    /// a FIFO or device as it is); nil for y4m, which `writer` writes itself.
    private let target: StreamedOutput?

    init(path: String, header: Y4MHeader, conversion: YCbCrConversion, audioFrom: String?) throws {
        self.path = path
        if FFmpegProcess.isContainer(path) {
            let target = try StreamedOutput(path: path, forChild: true)
            self.target = target
            let ffmpeg = try FFmpegProcess.encoder(output: target.writePath, name: path, format: FFmpegProcess.muxer(for: path),
                                                   header: header, conversion: conversion, audioFrom: audioFrom)
            encoder = ffmpeg
            writer = try Y4MWriter(descriptor: ffmpeg.stdinDescriptor, name: path, header: header, owns: false)
        } else {
            target = nil
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
        guard let encoder, let target else { return }
        encoder.closeInput()
        do {
            try encoder.wait(file: path)
        } catch {
            target.abandon()
            throw error
        }
        try target.commit(durable: false)
    }

    func abandon() {
        writer.abandon()
        encoder?.terminate()
        target?.abandon()
    }
}
