import Foundation
import Stipple

/// What an `-o` path asks for, read from its extension: one table a command, so a new kind
/// of output is one line here (and a case where it is written). A path whose extension is
/// not in the table is refused with the list of those that are: nothing is ever written in
/// a format other than the one its name says.
enum OutputKind: String, Equatable {
    /// `render` of one frame: a PNG.
    case png
    /// `render --frames`: a folder of frame-NNNN.png files.
    case frameFolder
    /// `render --frames`: a video — y4m (a file, or `-` for stdout), or a container ffmpeg encodes.
    case video
    /// `stamps`, `convert`: the 36-byte records of docs/reference.md §2.
    case sketchpoints
    /// `stamps`, `convert`: a JSON array of 9-number stamps (a script's inline form).
    case stampsJSON

    /// `render` without --frames, by extension.
    static let renderFrame: [String: OutputKind] = ["png": .png]
    /// `render --frames`, by extension; a path without one (or ending in /) is a folder.
    static let renderFrames: [String: OutputKind] = ["y4m": .video, "mp4": .video, "mov": .video, "mkv": .video,
                                                     "webm": .video, "gif": .video]
    /// `stamps` and `convert`, by extension.
    static let stamps: [String: OutputKind] = ["sketchpoints": .sketchpoints, "json": .stampsJSON]

    /// Extensions of files that a user might expect but Stipple does not write.
    static let otherImageExtensions: Set<String> = ["jpg", "jpeg", "webp", "tif", "tiff", "bmp", "gif", "heic", "avif"]

    static func pathExtension(_ path: String) -> String {
        (path as NSString).pathExtension.lowercased()
    }

    static func list(_ table: [String: OutputKind]) -> String {
        let names = table.keys.sorted().map { ".\($0)" }
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// What `render -o output` writes, or an error naming what it can write.
    static func forRender(_ output: String, frames: Bool) throws -> OutputKind {
        let ext = pathExtension(output)
        // A device or FIFO named by the user (`-o /dev/null`) takes the one image as it is.
        if !frames && OutputFile.isSpecial(output) { return .png }
        if frames {
            if output == "-" { return .video }
            if output.hasSuffix("/") || ext.isEmpty { return .frameFolder }
            if let kind = renderFrames[ext] { return kind }
            if renderFrame[ext] != nil || otherImageExtensions.contains(ext) {
                let others = renderFrames.isEmpty ? "" : ", or a file ending in \(list(renderFrames))"
                let folder = (output as NSString).deletingPathExtension
                throw InputError(file: output, "--frames writes frame-NNNN.png files into a folder, and this names "
                    + "a .\(ext) file; give a folder (e.g. -o \(folder)/)\(others)")
            }
            return .frameFolder
        }
        if let kind = renderFrame[ext] { return kind }
        if output == "-" || renderFrames[ext] == .video {
            throw InputError(file: output, "a video is a range of frames: give --frames A...B (or --frames all) "
                + "with -o \(output == "-" ? "-" : "a .\(ext) file"); one frame is written as .png")
        }
        let what = ext.isEmpty ? "has no extension" : "is a .\(ext) file"
        throw InputError(file: output, "render writes \(list(renderFrame)) images, and this \(what); "
            + "give -o a path ending in \(list(renderFrame)) (or a folder with --frames A...B)")
    }

    /// What a stamps file at `path` is (for writing or reading), or an error naming the kinds.
    static func forStamps(_ path: String, role: String = "write") throws -> OutputKind {
        let ext = pathExtension(path)
        if let kind = stamps[ext] { return kind }
        let what = ext.isEmpty ? "has no extension" : "is a .\(ext) file"
        throw InputError(file: path, "stamps files end in \(list(stamps)), and this \(what); "
            + "name the file to \(role) with one of those extensions")
    }
}
