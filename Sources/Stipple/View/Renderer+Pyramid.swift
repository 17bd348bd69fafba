import Foundation
import Synchronization

extension Renderer {
    /// Writes frame `frame` of `scene` as a tile pyramid at `path` (`PyramidOptions`): the
    /// canvas drawn band by band, every level's rows reduced as they come and cut into tiles
    /// as soon as a row of tiles is whole, so memory holds a band and a row of tiles a level,
    /// whatever the canvas's size. The descriptor is written last, atomically; a run that fails
    /// removes what it wrote. `progress` gets the bands drawn and their count.
    public nonisolated func writePyramid(_ scene: Scene, frame: Int, to path: String, options: PyramidOptions = PyramidOptions(),
                                         primitive: Primitive = .points, tile: Int? = nil,
                                         progress: (Int, Int) -> Void = { _, _ in }) async throws -> PyramidSummary {
        guard (1...PyramidOptions.maxTileSize).contains(options.tileSize) else {
            throw InputError(file: path, "a tile is 1 to \(PyramidOptions.maxTileSize) pixels a side (got \(options.tileSize))")
        }
        guard options.overlap >= 0, options.overlap * 2 < options.tileSize else {
            throw InputError(file: path, "a tile's overlap is 0 to less than half its side (got \(options.overlap) for \(options.tileSize))")
        }
        guard (0...9).contains(options.compression) else {
            throw InputError(file: path, "a PNG compression level is 0 to 9 (got \(options.compression))")
        }
        let paths = PyramidPaths(path, layout: options.layout)
        try Self.preparePyramid(paths, overwrite: options.overwrite)
        let (w, h) = (scene.canvas.width, scene.canvas.height)
        let deepZoom = options.layout == .deepZoom
        // Deep Zoom: every level from the canvas (k = 0) to 1×1. xyz: up to the level that fits one tile.
        var top = View.topLevel(w, h)
        if !deepZoom {
            top = 0
            while max(View.levelSize(w, h, level: top).width, View.levelSize(w, h, level: top).height) > options.tileSize { top += 1 }
        }
        var tilers = (0...top).map { k -> LevelTiler in
            let size = View.levelSize(w, h, level: k)
            return LevelTiler(width: size.width, height: size.height, tileSize: options.tileSize,
                              overlap: deepZoom ? options.overlap : 0, padded: !deepZoom)
        }
        let written = Mutex((tiles: 0, bytes: 0))
        let failure = Mutex<Error?>(nil)
        let compression = Int32(options.compression)
        do {
            try await levelRows(scene, frame: frame, area: PixelBox(x0: 0, y0: 0, x1: w, y1: h), levels: top,
                                primitive: primitive, tile: tile, bandDone: progress) { k, row in
                let finished = tilers[k].push(row)
                guard !finished.isEmpty else { return }
                // Level k is Deep Zoom's level top − k, and xyz's zoom top − k.
                let name = String(top - k)
                for (r, tiles) in finished {
                    let folders = deepZoom ? [paths.tiles + "/" + name]
                        : tiles.map { paths.tiles + "/" + name + "/" + String($0.0) }
                    if r == 0 { for f in Set(folders) { try FileManager.default.createDirectory(atPath: f, withIntermediateDirectories: true) } }
                    DispatchQueue.concurrentPerform(iterations: tiles.count) { i in
                        let (c, tw, th, pixels) = tiles[i]
                        let file = deepZoom ? "\(paths.tiles)/\(name)/\(c)_\(r).png" : "\(paths.tiles)/\(name)/\(c)/\(r).png"
                        do {
                            let bytes = try PNGFile.encode(Image(width: tw, height: th, premultiplied: pixels), compression: compression)
                            try Self.writeTile(bytes, to: file)
                            written.withLock { $0.tiles += 1; $0.bytes += bytes.count }
                        } catch {
                            failure.withLock { if $0 == nil { $0 = error } }
                        }
                    }
                    if let error = failure.withLock({ $0 }) { throw error }
                }
            }
            precondition(tilers.allSatisfy { $0.nextTileRow == $0.tileRows }, "every level cut into tiles")
            let descriptor = deepZoom
                ? """
                  <?xml version="1.0" encoding="UTF-8"?>
                  <Image xmlns="http://schemas.microsoft.com/deepzoom/2008"
                    Format="png"
                    Overlap="\(options.overlap)"
                    TileSize="\(options.tileSize)"
                    >
                    <Size
                      Height="\(h)"
                      Width="\(w)"
                    />
                  </Image>

                  """
                : """
                  {"layout": "xyz", "format": "png", "width": \(w), "height": \(h), "tileSize": \(options.tileSize), \
                  "minZoom": 0, "maxZoom": \(top)}

                  """
            try OutputFile.write(Array(descriptor.utf8), to: paths.descriptor, durable: true)
        } catch {
            try? FileManager.default.removeItem(atPath: paths.tiles)
            throw error
        }
        let totals = written.withLock { $0 }
        return PyramidSummary(descriptor: paths.descriptor, tiles: paths.tiles, levels: top + 1,
                              tileCount: totals.tiles, bytes: totals.bytes)
    }

    /// Writes a tile's file in place: tiles are many and small, and the pyramid is complete
    /// only once its descriptor is written, so a tile needs no file of its own to be renamed.
    static func writeTile(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw InputError(file: path, "cannot write the tile: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        try FileDescriptor.writeAll(fd, bytes, name: path)
    }

    /// Refuses a pyramid that exists unless `overwrite`; with it, removes the old one's
    /// descriptor first (an interrupted run then never looks complete), then its tiles.
    static func preparePyramid(_ paths: PyramidPaths, overwrite: Bool) throws {
        let exists = [paths.descriptor, paths.tiles].filter { FileSystem.entry(at: $0) != .missing }
        if !exists.isEmpty {
            guard overwrite else {
                throw InputError(file: exists[0], "exists; refusing to replace a pyramid (give --overwrite to replace it)")
            }
            if FileSystem.entry(at: paths.descriptor) != .missing {
                guard FileSystem.entry(at: paths.descriptor) == .file else {
                    throw InputError(file: paths.descriptor, "is not a file; refusing to replace it")
                }
                try FileManager.default.removeItem(atPath: paths.descriptor)
            }
            if FileSystem.entry(at: paths.tiles) != .missing { try FileManager.default.removeItem(atPath: paths.tiles) }
        }
        let parent = FileSystem.folder(of: paths.tiles)
        switch FileSystem.entry(at: parent) {
        case .folder: break
        case .missing: try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        default: throw InputError(file: paths.tiles, "cannot write: \(parent) is not a folder")
        }
        try FileManager.default.createDirectory(atPath: paths.tiles, withIntermediateDirectories: false)
    }
}
