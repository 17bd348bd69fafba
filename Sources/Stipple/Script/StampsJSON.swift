/// Stamps as JSON: an array of SketchPoints, each the nine numbers of docs/reference.md §2
/// `[x, y, radius, age, dissolveAngle, r, g, b, a]` — the form a script's inline `stamps`
/// takes, so a file of them can be pasted into a script, converted to `.sketchpoints`
/// (`stipple convert`) or written from a frame (`stipple stamps -o FILE.json`).
public enum StampsJSON {
    /// Reads and validates the file at `path`; errors name the line and column.
    public static func read(path: String) throws(InputError) -> [SketchPoint] {
        let (root, reader) = try JSONReader.load(path: path)
        return try reader.stamps(root)
    }

    /// One stamp a line, numbers written as short as they read back exactly.
    public static func encode(_ points: [SketchPoint]) -> String {
        guard !points.isEmpty else { return "[]\n" }
        let lines = points.map { p in "  [" + p.fields.map(number).joined(separator: ", ") + "]" }
        return "[\n" + lines.joined(separator: ",\n") + "\n]\n"
    }

    /// Writes `points` as JSON to `path` atomically.
    public static func write(_ points: [SketchPoint], to path: String) throws(InputError) {
        try FileSystem.writeAtomically(Array(encode(points).utf8), to: path)
    }

    /// `2`, `0.5`, `-1.5707964`: whole numbers without a fraction, others in Float's
    /// shortest exact form.
    static func number(_ v: Float) -> String {
        if v == v.rounded(), abs(v) < 1e7 { return String(Int(v)) }
        return "\(v)"
    }
}

extension JSONReader {
    fileprivate func stamps(_ root: JSONValue) throws(InputError) -> [SketchPoint] {
        let names = StampCheck.fieldNames
        guard case let .array(items) = root.kind else {
            throw fail(root.location, "expected an array of stamps (each [\(names.joined(separator: ", "))]), found \(root.kindDescription)")
        }
        var points: [SketchPoint] = []
        points.reserveCapacity(items.count)
        for (n, value) in items.enumerated() {
            let number = n + 1
            guard case let .array(fields) = value.kind else {
                throw fail(value.location, "expected an array of 9 numbers for stamp \(number), found \(value.kindDescription)")
            }
            guard fields.count == names.count else {
                throw fail(value.location, "stamp \(number) has \(fields.count) numbers; expected 9: \(names.joined(separator: ", "))")
            }
            var f = [Float](repeating: 0, count: names.count)
            for (i, item) in fields.enumerated() {
                guard case let .number(v, literal) = item.kind else {
                    throw fail(item.location, "expected a number for \(names[i]) in stamp \(number), found \(item.kindDescription)")
                }
                guard Float(v).isFinite else {
                    throw fail(item.location, "\(names[i]) \(literal) in stamp \(number) is out of range for a 32-bit float")
                }
                f[i] = Float(v)
            }
            let point = SketchPoint(fields: f)
            if let (field, message) = StampCheck.problem(with: point, stamp: number) {
                throw fail(fields[field].location, message)
            }
            points.append(point)
        }
        return points
    }
}
