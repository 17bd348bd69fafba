import Foundation
import Stipple
#if canImport(Testing)
import Testing
#endif

/// PNG in and out of the snapshot folder, and the diff image kept for the person who reads
/// a failure.
enum SnapshotPNG {
    /// A snapshot file's bytes as an image. A file that is no PNG reads as an empty image,
    /// which never matches (see `Diffing.stipple`).
    static func decode(_ data: Data) -> Image {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("stipple-snapshot-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard FileManager.default.createFile(atPath: path, contents: data),
              let image = try? Image(contentsOfPNG: path) else {
            return Image(width: 0, height: 0, pixels: [])
        }
        return image
    }

    /// Writes a failure's diff image under `$SNAPSHOT_ARTIFACTS` (where swift-snapshot-testing
    /// writes the failing image), else the temporary folder, and returns its path.
    static func writeDiff(_ png: Data) -> String? {
        let root = ProcessInfo.processInfo.environment["SNAPSHOT_ARTIFACTS"] ?? NSTemporaryDirectory()
        let folder = URL(fileURLWithPath: root).appendingPathComponent("stipple-diffs")
        let file = folder.appendingPathComponent("\(UUID().uuidString.prefix(8)).diff.png")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try png.write(to: file)
            return file.path
        } catch {
            return nil
        }
    }

    /// Attaches the diff to the running Swift Testing test. Under Xcode swift-snapshot-testing
    /// attaches the diff it is handed itself, so this leaves it to it there.
    static func attach(_ png: Data, named name: String) {
        #if canImport(Testing)
        guard Test.current != nil,
              ProcessInfo.processInfo.environment["__XCODE_BUILT_PRODUCTS_DIR_PATHS"] == nil else { return }
        Attachment.record([UInt8](png), named: name)
        #endif
    }
}
