/// Session entries in `draw` (docs/reference.md §12, docs/sessions.md): `{ "undo": k, "t": … }`,
/// `{ "redo": k, "t": … }`, `{ "clear": true, "t": … }`; and the top-level `startFrame`.
extension ScriptDecoder {
    static let sessionVerbs = ["undo", "redo", "clear"]

    /// The largest `k` of an undo or redo: more would only ever be an error.
    static let maxSessionCount = 1_000_000

    /// A session entry, or nil when `value` is a stroke entry (it has none of the verbs).
    mutating func sessionEntry(_ value: JSONValue, ordinal number: Int, script: Script) throws(InputError) -> SessionOp? {
        guard case let .object(members) = value.kind else { return nil }
        let verbs = members.filter { ScriptDecoder.sessionVerbs.contains($0.key) }
        guard let verb = verbs.first else { return nil }
        let what = "draw entry \(number)"
        if verbs.count > 1 {
            throw fail(verbs[1].keyLocation, "\(what) has both \"\(verb.key)\" and \"\(verbs[1].key)\"; "
                       + "a session entry is exactly one of undo, redo or clear")
        }
        try checkKeys(members, allowed: [verb.key, "t"], in: "\(what) (\(verb.key))")
        let kind: SessionOp.Kind
        switch verb.key {
        case "clear":
            guard try bool(verb.value, for: "clear in \(what)") else {
                throw fail(verb.value.location, "clear must be true (leave the entry out for no clear)")
            }
            kind = .clear
        default:
            let k = try wholeNumber(verb.value, for: "\(verb.key) in \(what) (how many steps, 1 or more)",
                                    in: 1...ScriptDecoder.maxSessionCount)
            kind = verb.key == "undo" ? .undo(k) : .redo(k)
        }
        let t = try required("t", in: members, of: value, context: "\(what) (\(verb.key)): the time it acts from, seconds")
        let (time, _) = try self.number(t.value, for: "t of \(what)")
        // The bound of a touch time (docs/limits.md): frames and ages stay exact in Float32.
        guard abs(time * script.fps) <= Limits.maxTouchFrame else {
            throw fail(t.value.location, "t of \(what) is \(literalText(t.value)) s, frame \((time * script.fps).rounded(.down)) "
                       + "at \(script.fps) fps; times must fall within \(Int(Limits.maxTouchFrame)) frames of frame 0 "
                       + "(±\(Limits.maxTouchFrame / script.fps) s at this fps)")
        }
        let frame = SessionOp.clockFrame(of: time, fps: script.fps)
        return SessionOp(kind: kind, time: time, frame: frame, position: script.draw.count, location: value.location)
    }

    /// `startFrame`: frame 0 of a render is this frame of the script's clock.
    func startFrame(_ members: [Member]) throws(InputError) -> Int? {
        guard let m = member("startFrame", in: members) else { return nil }
        return try wholeNumber(m.value, for: "startFrame", in: 0...(1 << 24))
    }

    /// An undo or redo with nothing to act on, at any frame, is bad input (docs/reference.md §12).
    func checkSession(_ script: Script) throws(InputError) {
        if let (op, message) = script.session.firstProblem(count: script.draw.count) {
            throw fail(op.location, message)
        }
    }

    /// `seedIndex` of a `points` entry: the stroke's number for its random choices (dissolve
    /// angles); default its place among the script's strokes. A saved drawing keeps its strokes' own.
    func seedIndex(_ members: [Member]) throws(InputError) -> Int? {
        guard let m = member("seedIndex", in: members) else { return nil }
        return try wholeNumber(m.value, for: "seedIndex", in: 0...Int(Int32.max))
    }

    /// `[red, green, blue, alpha]`, straight, each 0…1 (any 32-bit float, unlike "#rrggbbaa").
    func colorArray(_ value: JSONValue) throws(InputError) -> Color {
        let items = try array(value, for: "color")
        guard items.count == 4 else {
            throw fail(value.location, "color as an array must be [red, green, blue, alpha], 4 numbers from 0 to 1; found \(items.count)")
        }
        var c: [Float] = []
        for (item, name) in zip(items, ["red", "green", "blue", "alpha"]) {
            c.append(try float(item, for: "color \(name)", in: 0...1, expected: "0 to 1"))
        }
        return Color(red: c[0], green: c[1], blue: c[2], alpha: c[3])
    }
}
