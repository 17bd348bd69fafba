import Foundation

extension Renderer {
    /// Writes frame `frame` of `scene` as a tile pyramid at `path` (`PyramidOptions`): the
    /// canvas drawn band by band, every level's rows reduced as they come and cut into tiles
    /// as soon as a row of tiles is whole, so memory holds a band and a row of tiles a level,
    /// whatever the canvas's size. The descriptor is written last, atomically; a run that fails
    /// removes what it wrote. `progress` gets the bands drawn and their count.
    public nonisolated func writePyramid(_ scene: Scene, frame: Int, to path: String, options: PyramidOptions = PyramidOptions(),
                                         primitive: Primitive = .points, tile: Int? = nil,
                                         progress: (Int, Int) -> Void = { _, _ in }) async throws -> PyramidSummary {
        try options.validate(for: path)
        let paths = PyramidPaths(path, layout: options.layout)
        try Self.preparePyramid(paths, overwrite: options.overwrite)
        let (w, h) = (scene.canvas.width, scene.canvas.height)
        let writer = PyramidTileWriter(paths: paths, options: options, width: w, height: h)
        var tilers = (0...writer.top).map { writer.tiler(level: $0) }
        do {
            try await levelRows(scene, frame: frame, area: PixelBox(x0: 0, y0: 0, x1: w, y1: h), levels: writer.top,
                                primitive: primitive, tile: tile, bandDone: progress) { k, row in
                try writer.write(level: k, tilers[k].push(row))
            }
            precondition(tilers.allSatisfy(\.isDone), "every level cut into tiles")
            try writer.writeDescriptor()
        } catch {
            try? FileManager.default.removeItem(atPath: paths.tiles)
            throw error
        }
        return writer.summary
    }

    /// Writes part `part` of `parts` of the pyramid at `path` (`render --pyramid --shard K/N`):
    /// the canvas's own tiles for its share of their rows, drawn from the rows those tiles
    /// need, and its rows of level 1 for `Pyramid.join`, which builds every level above from
    /// all the parts, to the same bytes as one run. Parts may run at once, on several machines
    /// sharing the folder; each writes only its own files, its part's record last.
    public nonisolated func writePyramidPart(_ scene: Scene, frame: Int, to path: String, part: Int, of parts: Int,
                                             options: PyramidOptions = PyramidOptions(), primitive: Primitive = .points,
                                             tile: Int? = nil, progress: (Int, Int) -> Void = { _, _ in }) async throws -> PyramidPart {
        try options.validate(for: path)
        guard parts >= 1, (1...parts).contains(part) else { throw InputError(file: path, "a part is K of N with 1 ≤ K ≤ N (got \(part) of \(parts))") }
        guard parts == 1 || options.tileSize % 2 == 0 else {
            throw InputError(file: path, "a pyramid in parts has tiles of an even side, so that each part's rows pair up "
                             + "(got \(options.tileSize))")
        }
        let paths = PyramidPaths(path, layout: options.layout)
        if FileSystem.entry(at: paths.descriptor) != .missing {
            throw InputError(file: paths.descriptor, "exists: the pyramid is complete; remove it before writing it again in parts")
        }
        try FileManager.default.createDirectory(atPath: paths.parts, withIntermediateDirectories: true)
        let (w, h) = (scene.canvas.width, scene.canvas.height)
        let writer = PyramidTileWriter(paths: paths, options: options, width: w, height: h)
        let tileRows = (h + options.tileSize - 1) / options.tileSize
        let ownTiles = (part - 1) * tileRows / parts..<(part * tileRows / parts)
        let own = min(h, ownTiles.lowerBound * options.tileSize)..<min(h, ownTiles.upperBound * options.tileSize)
        var record = PyramidPart(part: part, parts: parts, width: w, height: h, layout: options.layout.rawValue,
                                 tileSize: options.tileSize, overlap: options.overlap, compression: options.compression,
                                 format: options.format.rawValue, quality: options.quality,
                                 rows: [own.lowerBound, own.upperBound], levelOneRows: 0, tiles: 0, bytes: 0)
        let rowsFile = paths.parts + "/" + record.rowsName
        if !own.isEmpty {
            var tiler = writer.tiler(level: 0, tileRows: ownTiles)
            let drawn = tiler.rowsNeeded
            var halving = HalvingRows(width: w)
            let out = try FileDescriptor.create(rowsFile)
            defer { close(out) }
            var levelOne = 0
            func keep(_ row: [UInt8]) throws {
                try FileDescriptor.writeAll(out, row, name: rowsFile)
                levelOne += 1
            }
            var y = drawn.lowerBound
            try await levelRows(scene, frame: frame, area: PixelBox(x0: 0, y0: drawn.lowerBound, x1: w, y1: drawn.upperBound),
                                levels: 0, primitive: primitive, tile: tile, bandDone: progress) { _, row in
                try writer.write(level: 0, tiler.push(row))
                if writer.top >= 1 && own.contains(y), let up = halving.push(row) { try keep(up) }
                y += 1
            }
            if writer.top >= 1, let up = halving.finish() { try keep(up) }
            precondition(tiler.isDone, "the part's tiles cut")
            record.levelOneRows = levelOne
        }
        record.tiles = writer.tiles
        record.bytes = writer.bytes
        try OutputFile.write(Array(try JSONEncoder().encode(record)), to: paths.parts + "/" + record.recordName, durable: true)
        return record
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
