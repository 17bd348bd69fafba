import CStipple
import Foundation
import Synchronization

/// Writes a pyramid's tiles and its descriptor (`PyramidOptions`): each row of tiles encoded
/// on every core, each tile's file written in place (the pyramid is complete only once its
/// descriptor is written, so a tile needs no file of its own to be renamed).
final class PyramidTileWriter: Sendable {
    let paths: PyramidPaths
    let options: PyramidOptions
    let width: Int, height: Int
    /// The pyramid's highest level (`PyramidOptions.topLevel`): its name is 0 in both layouts.
    let top: Int
    private let written = Mutex((tiles: 0, bytes: 0))

    init(paths: PyramidPaths, options: PyramidOptions, width: Int, height: Int) {
        self.paths = paths
        self.options = options
        self.width = width; self.height = height
        top = options.topLevel(width, height)
    }

    var tiles: Int { written.withLock { $0.tiles } }
    var bytes: Int { written.withLock { $0.bytes } }

    /// A tiler for pyramid level `k`, cutting `tileRows` (all by default).
    func tiler(level k: Int, tileRows: Range<Int>? = nil) -> LevelTiler {
        let size = View.levelSize(width, height, level: k)
        return LevelTiler(width: size.width, height: size.height, tileSize: options.tileSize,
                          overlap: options.tileOverlap, padded: options.layout == .xyz, tileRows: tileRows)
    }

    /// The file of tile (`column`, `row`) of pyramid level `k` (Deep Zoom's level and xyz's
    /// zoom are `top − k`).
    func file(level k: Int, column: Int, row: Int) -> String {
        let ext = options.format.rawValue
        return options.layout == .deepZoom ? "\(paths.tiles)/\(top - k)/\(column)_\(row).\(ext)"
            : "\(paths.tiles)/\(top - k)/\(column)/\(row).\(ext)"
    }

    /// A tile's file: PNG of its straight pixels, JPEG of them over white, or WebP.
    func encode(_ premultiplied: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        var err = [CChar](repeating: 0, count: 256)
        switch options.format {
        case .png:
            return try PNGFile.encode(Image(width: width, height: height, premultiplied: premultiplied),
                                      compression: Int32(options.compression))
        case .jpeg:
            // Premultiplied colour over white: c + (255 − a).
            var rgb = [UInt8](repeating: 0, count: width * height * 3)
            for i in 0..<(width * height) {
                let a = premultiplied[i * 4 + 3]
                for c in 0..<3 { rgb[i * 3 + c] = premultiplied[i * 4 + c] &+ (255 - a) }
            }
            guard stp_jpeg_encode(rgb, Int32(width), Int32(height), Int32(options.quality), &out, &length, &err, err.count) == 0
            else { throw RenderError("JPEG encoding failed: \(String(cBuffer: err))") }
        case .webp:
            let straight = Image(width: width, height: height, premultiplied: premultiplied).pixels
            guard stp_webp_encode(straight, Int32(width), Int32(height), Float(options.quality), 0, &out, &length, &err, err.count) == 0
            else { throw RenderError("WebP encoding failed: \(String(cBuffer: err))") }
        }
        defer { free(out) }
        return [UInt8](UnsafeBufferPointer(start: out, count: length))
    }

    /// Encodes and writes rows of tiles of level `k` as `LevelTiler.push` returns them.
    func write(level k: Int, _ finished: [(Int, [(Int, Int, Int, [UInt8])])]) throws {
        for (r, tiles) in finished {
            let folders = Set(tiles.map { FileSystem.folder(of: file(level: k, column: $0.0, row: r)) })
            for f in folders where FileSystem.entry(at: f) != .folder {
                try FileManager.default.createDirectory(atPath: f, withIntermediateDirectories: true)
            }
            let failure = Mutex<Error?>(nil)
            DispatchQueue.concurrentPerform(iterations: tiles.count) { i in
                let (c, tw, th, pixels) = tiles[i]
                do {
                    let bytes = try encode(pixels, width: tw, height: th)
                    try Self.writeFile(bytes, to: file(level: k, column: c, row: r))
                    written.withLock { $0.tiles += 1; $0.bytes += bytes.count }
                } catch {
                    failure.withLock { if $0 == nil { $0 = error } }
                }
            }
            if let error = failure.withLock({ $0 }) { throw error }
        }
    }

    /// The descriptor, written last and atomically.
    func writeDescriptor() throws {
        let text = options.layout == .deepZoom
            ? """
              <?xml version="1.0" encoding="UTF-8"?>
              <Image xmlns="http://schemas.microsoft.com/deepzoom/2008"
                Format="\(options.format.rawValue)"
                Overlap="\(options.overlap)"
                TileSize="\(options.tileSize)"
                >
                <Size
                  Height="\(height)"
                  Width="\(width)"
                />
              </Image>

              """
            : """
              {"layout": "xyz", "format": "\(options.format.rawValue)", "width": \(width), "height": \(height), "tileSize": \(options.tileSize), \
              "minZoom": 0, "maxZoom": \(top)}

              """
        try OutputFile.write(Array(text.utf8), to: paths.descriptor, durable: true)
    }

    var summary: PyramidSummary {
        PyramidSummary(descriptor: paths.descriptor, tiles: paths.tiles, levels: top + 1, tileCount: tiles, bytes: bytes)
    }

    /// Writes `bytes` to `path` in place.
    static func writeFile(_ bytes: [UInt8], to path: String) throws {
        let fd = try FileDescriptor.create(path)
        defer { close(fd) }
        try FileDescriptor.writeAll(fd, bytes, name: path)
    }
}
