/// The rules every stamp obeys wherever it comes from, a script or a `.sketchpoints`
/// file (docs/reference.md §2, §8): every field finite, radius >= 0, colour components 0...1.
/// Age and dissolveAngle may be any finite value (a negative age is a stamp not born yet).
enum StampCheck {
    /// Field names in docs/reference.md §2 order, as messages name them.
    static let fieldNames = ["x", "y", "radius", "age", "dissolveAngle", "red", "green", "blue", "alpha"]

    /// The first problem with `point`: the index of the offending field (docs/reference.md §2 order)
    /// and the message. `number` is the stamp's number, counted from 1.
    static func problem(with point: SketchPoint, stamp number: Int) -> (field: Int, message: String)? {
        // Fast path: the common case is a good stamp; build nothing for it.
        if point.x.isFinite, point.y.isFinite, point.age.isFinite, point.dissolveAngle.isFinite,
           point.radius >= 0, point.radius.isFinite,
           point.red >= 0, point.red <= 1, point.green >= 0, point.green <= 1,
           point.blue >= 0, point.blue <= 1, point.alpha >= 0, point.alpha <= 1 {
            return nil
        }
        let fields = point.fields
        for (i, v) in fields.enumerated() where !v.isFinite {
            return (i, "non-finite \(fieldNames[i]) \(format(v)) in stamp \(number): every field must be a finite number")
        }
        if point.radius < 0 {
            return (2, "negative radius \(format(point.radius)) in stamp \(number), expected 0 or more")
        }
        for i in 5..<9 where !(fields[i] >= 0 && fields[i] <= 1) {
            return (i, "colour out of range: \(fieldNames[i]) \(format(fields[i])) in stamp \(number), expected 0...1")
        }
        return nil
    }

    /// A float as a person would write it: `-2`, `1.5`, `nan`, `inf`.
    static func format(_ v: Float) -> String {
        if v.isFinite, v == v.rounded(), abs(v) < 1e9 { return String(Int(v)) }
        return "\(v)"
    }
}
