import Foundation
import Stipple

/// Where a command's video comes from: a y4m file, stdin ("-"), or a container through an
/// ffmpeg child process. Owns the process, so an error ends it.
final class VideoInput {
    let reader: Y4MReader
    let decoder: FFmpegProcess?
    let path: String

    /// `frames`: a container's decoder sends only those frames.
    init(path: String, frames: ClosedRange<Int>? = nil) throws {
        self.path = path
        if FFmpegProcess.isContainer(path) {
            let ffmpeg = try FFmpegProcess.decoder(input: path, frames: frames)
            decoder = ffmpeg
            do {
                reader = try Y4MReader(descriptor: ffmpeg.stdoutDescriptor, name: path, owns: false)
            } catch {
                throw ffmpeg.failedError(file: path) ?? error
            }
        } else {
            decoder = nil
            reader = try Y4MReader(path: path)
        }
    }

    /// A read error, or ffmpeg's own message when the decoder failed first.
    func explain(_ error: Error) -> Error {
        guard let decoder else { return error }
        decoder.terminate()
        return decoder.failedError(file: path) ?? error
    }

    func finish() throws { try decoder?.wait(file: path) }
    func abandon() { decoder?.terminate() }
}
