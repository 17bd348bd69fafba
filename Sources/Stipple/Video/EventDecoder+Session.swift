/// Undo, redo and clear events (docs/video.md): `{"t": …, "undo": k}`, `{"t": …, "redo": k}`,
/// `{"t": …, "clear": true}`, with the meaning of a script's session entries
/// (docs/reference.md §12). In draw order, an event comes after the script's entries and the
/// live strokes started before it; it acts from the frame of its time on.
extension EventDecoder {
    /// Decodes one, and refuses an undo or redo with nothing to act on (at its frame or at a
    /// later frame where one of the script's entries starts to act).
    mutating func sessionOp(_ members: [ScriptDecoder.Member], root: JSONValue, t: Double,
                            _ d: ScriptDecoder) throws(InputError) -> SessionOp {
        let verbs = members.filter { ScriptDecoder.sessionVerbs.contains($0.key) }
        let verb = verbs[0]
        if verbs.count > 1 {
            throw d.fail(verbs[1].keyLocation, "an event has both \"\(verb.key)\" and \"\(verbs[1].key)\"; "
                         + "a session event is exactly one of undo, redo or clear")
        }
        try d.checkKeys(members, allowed: [verb.key, "t"], in: "a \(verb.key) event")
        let kind: SessionOp.Kind
        switch verb.key {
        case "clear":
            guard try d.bool(verb.value, for: "clear") else {
                throw d.fail(verb.value.location, "clear must be true (leave the event out for no clear)")
            }
            kind = .clear
        default:
            let k = try d.wholeNumber(verb.value, for: "\(verb.key) (how many steps, 1 or more)",
                                      in: 1...ScriptDecoder.maxSessionCount)
            kind = verb.key == "undo" ? .undo(k) : .redo(k)
        }
        let op = SessionOp(kind: kind, time: t, frame: SessionOp.clockFrame(of: t, fps: touchRate), position: strokes,
                           location: verb.value.location)
        var next = session
        next.ops.append(op)
        if let (_, message) = next.firstProblem(count: strokes) {
            throw d.fail(verb.value.location, message.replacingOccurrences(of: "before it in draw", with: "before it"))
        }
        session = next
        return op
    }
}
