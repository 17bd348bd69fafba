import Foundation

/// Turns one JSON line of touch events into a `TouchEvent`, with the checks that need the
/// events before it: times never go back, a stroke's first event names its brush, nothing
/// follows a stroke's end; and the limits a script's strokes have (`EventBudget`, docs/limits.md).
/// Errors are `file:line:column`.
package struct EventDecoder {
    let file: String
    /// The script's brushes (names an event may use).
    let brushes: Set<String>
    /// The video's rate: touch times become frames with it (and are bounded by it).
    let fps: Double
    /// Turns touch times into frames (`Script.touchRate`: fps, or less in a timelapse).
    let touchRate: Double
    private var lastTime = -Double.infinity
    private var budget: EventBudget
    private var ended: Set<Int> = []
    /// The script's session entries and the undo, redo and clear events so far, in draw
    /// order: what an undo or redo event is checked against.
    var session: SessionTimeline
    /// Stroke entries before the next event: the script's, and live strokes started so far.
    var strokes: Int

    static let sampleKeys = ["t", "stroke", "x", "y", "pressure"]
    static let styleKeys = ["brush", "color", "radius", "spacing", "smoothing", "opacity", "speed", "rotation"]

    /// `script`: the baked script, its canvas the video's and its fps the video's rate.
    package init(file: String, script: Script) {
        self.file = file
        brushes = Set(script.brushes.keys)
        fps = script.fps
        touchRate = script.touchRate
        budget = EventBudget(script: script)
        session = script.session
        strokes = script.draw.count
    }

    /// Decodes line number `line` (from 1); nil for a blank line.
    package mutating func decode(_ bytes: [UInt8], line: Int) throws(InputError) -> TouchEvent? {
        guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return nil }
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes, file: file)
        } catch {
            throw onLine(error, line)
        }
        do {
            return try event(root, line: line)
        } catch {
            throw onLine(error, line)
        }
    }

    /// The parser counts lines from 1 in the one line it sees: move the error to the file's line.
    private func onLine(_ error: InputError, _ line: Int) -> InputError {
        var e = error
        if case let .text(l, c) = error.location { e.location = .text(line: line + l - 1, column: c) }
        return e
    }

    private mutating func event(_ root: JSONValue, line: Int) throws(InputError) -> TouchEvent {
        let d = ScriptDecoder(path: file, directory: ".")
        let members = try d.object(root, for: "a touch event")
        let t = try d.number(d.required("t", in: members, of: root, context: "a touch event").value, for: "t").0
        let tMember = d.member("t", in: members)!
        try budget.countEvent(d, at: root.location)
        guard abs(t * fps) <= Limits.maxTouchFrame else {
            throw d.fail(tMember.value.location, "t = \(t) s is frame \(String(format: "%.0f", (t * fps).rounded(.down))) at "
                         + "\(VideoBake.formatRate(fps)) fps; touch times must fall within \(Int(Limits.maxTouchFrame)) "
                         + "frames of frame 0 (±\(String(format: "%.0f", Limits.maxTouchFrame / fps)) s at this fps)")
        }
        // In a timelapse (`--speed` below 1) the frame is t × touchRate: bounded the same way.
        guard abs(t * touchRate) <= Limits.maxTouchFrame else {
            throw d.fail(tMember.value.location, "t = \(t) s is frame \(String(format: "%.0f", (t * touchRate).rounded(.down))) "
                         + "at this --speed; touch times must fall within \(Int(Limits.maxTouchFrame)) frames of frame 0")
        }
        guard t >= lastTime else {
            throw d.fail(tMember.value.location, "events out of order: t = \(t) s comes after an event at t = \(lastTime) s")
        }
        if members.contains(where: { ScriptDecoder.sessionVerbs.contains($0.key) }) {
            let op = try sessionOp(members, root: root, t: t, d)
            lastTime = t
            return TouchEvent(kind: .session(op), t: t, line: line)
        }
        if let end = d.member("end", in: members) {
            try d.checkKeys(members, allowed: ["t", "end"], in: "an end event")
            let id = try strokeID(end.value, d)
            guard budget.isOpen(id) else {
                throw d.fail(end.value.location, "stroke \(id) is not open: it has no samples yet, or has ended")
            }
            try budget.end(id, d, at: root.location)
            ended.insert(id)
            lastTime = t
            return TouchEvent(kind: .end(stroke: id), t: t, line: line)
        }
        try d.checkKeys(members, allowed: EventDecoder.sampleKeys + EventDecoder.styleKeys, in: "a touch event")
        let strokeMember = try d.required("stroke", in: members, of: root, context: "a touch event")
        let id = try strokeID(strokeMember.value, d)
        guard !ended.contains(id) else { throw d.fail(strokeMember.value.location, "stroke \(id) has already ended") }
        let sampleMembers = members.filter { EventDecoder.sampleKeys.contains($0.key) && $0.key != "stroke" }
        let styleMembers = members.filter { EventDecoder.styleKeys.contains($0.key) }
        var start: TouchEvent.StrokeStart?
        if budget.isOpen(id) {
            if let extra = styleMembers.first {
                throw d.fail(extra.keyLocation, "\"\(extra.key)\" belongs on stroke \(id)'s first event, not a later one")
            }
        } else {
            guard let brush = d.member("brush", in: members) else {
                throw d.fail(root.location, "stroke \(id)'s first event must name its \"brush\" (one of: \(brushes.sorted().joined(separator: ", ")))")
            }
            let name = try d.string(brush.value, for: "brush")
            guard brushes.contains(name) else {
                throw d.fail(brush.value.location, "unknown brush \"\(name)\"; the script defines: \(brushes.sorted().joined(separator: ", "))")
            }
            // The style is read as a `points` entry's, with this event as its one sample.
            let samples = JSONValue(.array([JSONValue(.object(sampleMembers), at: root.location)]), at: root.location)
            var spec = try d.strokeSpec(styleMembers.filter { $0.key != "brush" }, samples: samples,
                                        context: "stroke \(id)", index: 0, fps: fps)
            // Culled as a script's strokes are: for the video's canvas, pointScale and drift.
            spec.style.cull = budget.cull
            try budget.open(id, style: spec.style, d, at: strokeMember.value.location)
            start = TouchEvent.StrokeStart(brush: name, style: spec.style)
            strokes += 1
        }
        let x = try d.float(d.required("x", in: members, of: root, context: "a touch event").value, for: "x")
        let y = try d.float(d.required("y", in: members, of: root, context: "a touch event").value, for: "y")
        var pressure: Float?
        if let p = d.member("pressure", in: members) {
            let v = try d.float(p.value, for: "pressure")
            guard (0...1).contains(v) else { throw d.fail(p.value.location, "pressure must be from 0 to 1, found \(v)") }
            pressure = v
        }
        let sample = TouchSample(x: x, y: y, t: t, pressure: pressure)
        try budget.add(sample, to: id, d, at: root.location)
        lastTime = t
        return TouchEvent(kind: .sample(stroke: id, sample, start: start),
                          t: t, line: line)
    }

    private func strokeID(_ value: JSONValue, _ d: ScriptDecoder) throws(InputError) -> Int {
        let (v, literal) = try d.number(value, for: "stroke")
        guard v >= 0, v == v.rounded(), v < 1e9 else {
            throw d.fail(value.location, "a stroke is named by a whole number from 0, found \(literal)")
        }
        return Int(v)
    }
}
