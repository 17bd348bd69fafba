import Foundation

/// What a part of a pyramid wrote (`Renderer.writePyramidPart`), kept beside its rows for
/// `Pyramid.join`: the canvas rows whose tiles it cut, and its rows of level 1 (premultiplied
/// RGBA, ⌈width / 2⌉ pixels a row, top to bottom) in `rowsName`.
public struct PyramidPart: Codable, Sendable, Equatable {
    public var part: Int, parts: Int
    public var width: Int, height: Int
    public var layout: String
    public var tileSize: Int, overlap: Int, compression: Int
    /// The tiles' format and quality (`PyramidOptions.TileFormat`).
    public var format: String, quality: Int
    /// The canvas rows [first, end) whose tiles it wrote.
    public var rows: [Int]
    public var levelOneRows: Int
    public var tiles: Int, bytes: Int

    var recordName: String { "part-\(part)-of-\(parts).json" }
    var rowsName: String { "part-\(part)-of-\(parts).rgba" }
}

/// Pyramids written in parts, joined.
public enum Pyramid {
    /// Builds the levels above the canvas of the pyramid at `path` from the parts that
    /// `--shard K/N` runs left (all N of them, for one canvas, layout and tile size), writes
    /// the descriptor last and removes the parts: the same files, byte for byte, as one
    /// `writePyramid` run. Only level 1's rows are read, a row at a time.
    public static func join(_ path: String, layout: PyramidOptions.Layout = .deepZoom) throws -> PyramidSummary {
        let paths = PyramidPaths(path, layout: layout)
        if FileSystem.entry(at: paths.descriptor) != .missing {
            throw InputError(file: paths.descriptor, "exists: the pyramid is already complete")
        }
        guard FileSystem.entry(at: paths.parts) == .folder else {
            throw InputError(file: paths.parts, "has no parts to join: write them with render --pyramid \(path) --shard K/N")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: paths.parts).filter { $0.hasSuffix(".json") }
        var records: [PyramidPart] = []
        for name in names {
            let file = paths.parts + "/" + name
            guard let record = try? JSONDecoder().decode(PyramidPart.self, from: Data(contentsOf: URL(fileURLWithPath: file))) else {
                throw InputError(file: file, "is not a part of a pyramid")
            }
            records.append(record)
        }
        records.sort { $0.part < $1.part }
        guard let first = records.first else {
            throw InputError(file: paths.parts, "has no finished part: the runs may still be going, or failed")
        }
        let n = first.parts
        guard records.map(\.part) == Array(1...n), records.allSatisfy({ $0.parts == n }) else {
            let missing = Set(1...max(n, 1)).subtracting(records.map(\.part)).sorted()
            throw InputError(file: paths.parts, "holds parts \(records.map(\.part)) of \(n)"
                             + (missing.isEmpty ? "" : "; missing \(missing.map(String.init).joined(separator: ", "))"))
        }
        for r in records where r.width != first.width || r.height != first.height || r.layout != first.layout
            || r.tileSize != first.tileSize || r.overlap != first.overlap || r.compression != first.compression
            || r.format != first.format || r.quality != first.quality {
            throw InputError(file: paths.parts + "/" + r.recordName, "is a part of another pyramid (size, layout, tiles or compression differ)")
        }
        guard first.layout == layout.rawValue else {
            throw InputError(file: paths.parts, "holds parts of a \(first.layout) pyramid; give --layout \(first.layout)")
        }
        var end = 0
        for r in records where r.rows[0] != r.rows[1] {
            guard r.rows[0] == end else { throw InputError(file: paths.parts, "parts do not cover the canvas's rows in order") }
            end = r.rows[1]
        }
        guard end == first.height else { throw InputError(file: paths.parts, "parts cover rows 0 to \(end) of \(first.height)") }

        guard let format = PyramidOptions.TileFormat(rawValue: first.format) else {
            throw InputError(file: paths.parts, "holds tiles of an unknown format \(first.format)")
        }
        let options = PyramidOptions(layout: layout, tileSize: first.tileSize, overlap: first.overlap, format: format,
                                     quality: first.quality, compression: first.compression)
        try options.validate(for: path)
        let (w, h) = (first.width, first.height)
        let writer = PyramidTileWriter(paths: paths, options: options, width: w, height: h)
        // Every tile of the canvas's level is there.
        let canvasTiles = writer.tiler(level: 0)
        for r in 0..<((h + options.tileSize - 1) / options.tileSize) {
            for c in 0..<canvasTiles.tileColumns where FileSystem.entry(at: writer.file(level: 0, column: c, row: r)) != .file {
                throw InputError(file: writer.file(level: 0, column: c, row: r), "is missing: a part did not finish")
            }
        }
        if writer.top >= 1 {
            var tilers = (0...writer.top).map { writer.tiler(level: $0) }
            var chain = PyramidRows(width: (w + 1) / 2, levels: writer.top - 1)
            let rowBytes = (w + 1) / 2 * 4
            for r in records where r.levelOneRows > 0 {
                let file = paths.parts + "/" + r.rowsName
                guard let handle = FileHandle(forReadingAtPath: file) else { throw InputError(file: file, "cannot be read") }
                defer { try? handle.close() }
                var left = r.levelOneRows
                while left > 0 {
                    let count = min(left, max(1, (8 << 20) / rowBytes))
                    let data = try handle.read(upToCount: count * rowBytes) ?? Data()
                    guard data.count == count * rowBytes else { throw InputError(file: file, "is shorter than its part says") }
                    try data.withUnsafeBytes { all in
                        for i in 0..<count {
                            try chain.push(UnsafeRawBufferPointer(rebasing: all[(i * rowBytes)..<((i + 1) * rowBytes)])) { j, row in
                                try writer.write(level: j + 1, tilers[j + 1].push(row))
                            }
                        }
                    }
                    left -= count
                }
            }
            try chain.finish { j, row in try writer.write(level: j + 1, tilers[j + 1].push(row)) }
            guard tilers.dropFirst().allSatisfy(\.isDone) else {
                throw InputError(file: paths.parts, "the parts' rows of level 1 do not make the whole level")
            }
        }
        try writer.writeDescriptor()
        try? FileManager.default.removeItem(atPath: paths.parts)
        var summary = writer.summary
        summary.tileCount += records.reduce(0) { $0 + $1.tiles }
        summary.bytes += records.reduce(0) { $0 + $1.bytes }
        return summary
    }
}
