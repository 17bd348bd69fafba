/// Stamps as JSON: an array of SketchPoints, each the nine numbers of docs/reference.md §2
/// `[x, y, radius, age, dissolveAngle, r, g, b, a]` — the form a script's inline `stamps`
/// takes, so a file of them can be pasted into a script, converted to `.sketchpoints`
/// (`stipple convert`) or written from a frame (`stipple stamps -o FILE.json`).
package enum StampsJSON {
    /// Reads and validates the file at `path`; errors name the line and column.
    package static func read(path: String) throws(InputError) -> [SketchPoint] {
        let (root, reader) = try JSONReader.load(path: path)
        return try reader.stamps(root)
    }

    /// One stamp a line, numbers written as short as they read back exactly.
    package static func encode(_ points: [SketchPoint]) -> String {
        guard !points.isEmpty else { return "[]\n" }
        let lines = points.map { p in "  [" + p.fields.map(number).joined(separator: ", ") + "]" }
        return "[\n" + lines.joined(separator: ",\n") + "\n]\n"
    }

    /// Writes `points` as JSON to `path` through `OutputFile` (a file atomically, a FIFO or
    /// device written into); returns the bytes written.
    @discardableResult
    package static func write(_ points: [SketchPoint], to path: String) throws(InputError) -> Int {
        let bytes = Array(encode(points).utf8)
        try OutputFile.write(bytes, to: path)
        return bytes.count
    }

    /// `2`, `0.5`, `-1.5707964`: whole numbers without a fraction, others in Float's
    /// shortest exact form.
    static func number(_ v: Float) -> String {
        if v == v.rounded(), abs(v) < 1e7 { return String(Int(v)) }
        return "\(v)"
    }
}

extension JSONReading {
    /// A JSON array of stamps (a file of them, or a script's inline `stamps`).
    package func stamps(_ root: JSONValue) throws(InputError) -> [SketchPoint] {
        let names = StampCheck.fieldNames
        guard case let .array(items) = root.kind else {
            throw fail(root.location, "expected an array of stamps (each [\(names.joined(separator: ", "))]), found \(root.kindDescription)")
        }
        var points: [SketchPoint] = []
        points.reserveCapacity(items.count)
        for (i, item) in items.enumerated() { points.append(try stamp(item, number: i + 1)) }
        return points
    }

    /// One inline stamp: `[x, y, radius, age, dissolveAngle, red, green, blue, alpha]`.
    package func stamp(_ value: JSONValue, number: Int) throws(InputError) -> SketchPoint {
        let names = StampCheck.fieldNames
        guard case let .array(items) = value.kind else {
            throw fail(value.location, "expected an array of 9 numbers for stamp \(number), found \(value.kindDescription)")
        }
        guard items.count == names.count else {
            throw fail(value.location, "stamp \(number) has \(counted(items.count, "number")); expected 9: \(names.joined(separator: ", "))")
        }
        var fields = [Float](repeating: 0, count: names.count)
        for (i, item) in items.enumerated() {
            guard case let .number(v, literal) = item.kind else {
                throw fail(item.location, "expected a number for \(names[i]) in stamp \(number), found \(item.kindDescription)")
            }
            let f = Float(v)
            guard f.isFinite else {
                throw fail(item.location, "\(names[i]) \(literal) in stamp \(number) is out of range for a 32-bit float")
            }
            fields[i] = f
        }
        let point = SketchPoint(fields: fields)
        if let (field, message) = StampCheck.problem(with: point, stamp: number) {
            throw fail(items[field].location, message)
        }
        return point
    }
}
