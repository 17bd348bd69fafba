/// A `.sketchpoints` file: SketchPoints back to back, nine little-endian Float32s,
/// 36 bytes each (docs/reference.md §2). Bad records are errors at their byte offset (docs/reference.md §8).
public enum SketchPointsFile {
    /// Reads and validates the file at `path`.
    public static func read(path: String) throws(InputError) -> [SketchPoint] {
        try decode(try FileSystem.readBytes(path: path, limit: Limits.maxSketchPointsBytes), path: path)
    }

    /// Decodes and validates `bytes`; `path` names the file in errors.
    public static func decode(_ bytes: [UInt8], path: String) throws(InputError) -> [SketchPoint] {
        let size = SketchPoint.byteSize
        let leftOver = bytes.count % size
        guard leftOver == 0 else {
            let at = bytes.count - leftOver
            throw InputError(file: path, location: .byte(at),
                             "file size \(bytes.count) is not a multiple of \(size) bytes: \(counted(leftOver, "byte")) left over at byte \(at)")
        }
        let count = bytes.count / size
        // SketchPoint's memory layout is the record layout (SketchPointLayoutTests pins it).
        var points = [SketchPoint](unsafeUninitializedCapacity: count) { buffer, initialized in
            bytes.withUnsafeBytes { UnsafeMutableRawBufferPointer(buffer).copyMemory(from: $0) }
            initialized = count
        }
        #if _endian(big)
        for i in points.indices {
            points[i] = SketchPoint(fields: points[i].fields.map { Float(bitPattern: $0.bitPattern.byteSwapped) })
        }
        #endif
        for (i, point) in points.enumerated() {
            if let (field, message) = StampCheck.problem(with: point, stamp: i + 1) {
                throw InputError(file: path, location: .byte(i * size + field * 4), message)
            }
        }
        return points
    }

    /// The file's bytes for `points` (not validated: this writes what it is given).
    public static func encode(_ points: [SketchPoint]) -> [UInt8] {
        #if _endian(big)
        let points = points.map { SketchPoint(fields: $0.fields.map { Float(bitPattern: $0.bitPattern.byteSwapped) }) }
        #endif
        return points.withUnsafeBytes { [UInt8]($0) }
    }

    /// Writes `points` to `path` atomically: on failure no partial file is left and an
    /// existing file is untouched. Returns the bytes written.
    @discardableResult
    public static func write(_ points: [SketchPoint], to path: String) throws(InputError) -> Int {
        let bytes = encode(points)
        try OutputFile.write(bytes, to: path)
        return bytes.count
    }
}
