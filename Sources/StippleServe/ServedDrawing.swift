import Foundation
import Stipple

/// The drawing `serve` shows and people draw on: a script, and what was drawn on it live,
/// kept as the touch-event lines `bake --events` reads. The script with its journal is the
/// drawing: `bake S --events JOURNAL` replays it, and a restart reads it back.
///
/// A stroke joins the drawing whole, when its end arrives: until then it is the drawer's
/// alone (other clients see it drawn, relayed), so a drawer who drops mid-stroke leaves
/// nothing behind. Its events are then written with the drawing's clock, one stroke after
/// another, keeping their spacing in time, so the journal is always in time order whatever
/// the clients' clocks were.
package actor ServedDrawing {
    /// One change to the pixels: the drawing's version after it, and the canvas pixels whose
    /// tiles must be drawn again (nil: all of them).
    package struct Change: Sendable, Equatable {
        package var version: Int
        package var box: Box?
    }

    /// A rectangle of canvas pixels, `x0..<x1` × `y0..<y1`, y down.
    package struct Box: Sendable, Equatable, Codable {
        package var x0: Int, y0: Int, x1: Int, y1: Int
        package func intersects(_ o: Box) -> Bool { x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1 }
        package func union(_ o: Box) -> Box {
            Box(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
        }
    }

    package private(set) var script: Script
    package let width: Int, height: Int
    private let journalPath: String?
    private var model: DrawingModel
    private var decoder: EventDecoder
    /// The last journal event's time, seconds on the script's clock.
    private var clock: Double
    private var lines = 0
    private let journal: DrawingJournal?
    package private(set) var version = 0
    /// Strokes and session events in the journal.
    package private(set) var journalEvents = 0

    /// Loads `script` and replays `journal` (when the file exists) onto it; events drawn from
    /// now on are appended to it. Throws on a script whose strokes dissolve (a served drawing
    /// is a still: its strokes stay) or a journal that is not a valid events file for it.
    package init(script: Script, journal path: String?) throws {
        guard script.maxAge == 0 else {
            throw InputError(file: script.path, "serve shows a still drawing, and this script's stamps dissolve "
                             + "(maxAge \(script.maxAge)): set \"maxAge\": 0 to serve it")
        }
        self.script = script
        width = script.canvas.width
        height = script.canvas.height
        let replayed = try ServedDrawing.replay(script, journal: path)
        model = replayed.model
        decoder = replayed.decoder
        clock = replayed.clock
        lines = replayed.lines
        journalEvents = replayed.events
        version = replayed.events > 0 ? 1 : 0
        journal = try path.map { try DrawingJournal(path: $0) }
        journalPath = path
    }

    /// The script, and the journal at `path` (when the file exists) replayed onto it.
    private static func replay(_ script: Script, journal path: String?) throws
        -> (model: DrawingModel, decoder: EventDecoder, clock: Double, lines: Int, events: Int) {
        var model = try DrawingModel(script: script)
        var decoder = EventDecoder(file: path ?? "live", script: script)
        var clock = Double(model.frame) / script.touchRate
        var lines = 0, events = 0
        guard let path, FileManager.default.fileExists(atPath: path) else { return (model, decoder, clock, 0, 0) }
        let bytes = try FileSystem.readBytes(path: path)
        var replay = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        // A line cut short by a crash (the last, with no newline) is dropped, not an error.
        if let last = replay.last, !last.isEmpty, bytes.last != 0x0A { replay.removeLast() }
        var open: [Int: (TouchEvent.StrokeStart, [TouchSample])] = [:]
        for chunk in replay {
            lines += 1
            guard let event = try decoder.decode(chunk, line: lines) else { continue }
            clock = max(clock, event.t)
            switch event.kind {
            case let .sample(id, sample, start):
                if let start { open[id] = (start, []) }
                open[id]?.1.append(sample)
            case let .end(id):
                if let (start, samples) = open.removeValue(forKey: id) { _ = model.commitStroke(start, samples) }
            case let .session(op):
                _ = model.applySession(op)
            }
            events += 1
        }
        // Strokes are written whole, so a stroke with no end is a journal written by
        // someone else, not one the server left.
        if !open.isEmpty {
            throw InputError(file: path, "the journal ends inside \(open.count) stroke\(open.count == 1 ? "" : "s") "
                             + "with no end event; remove those lines to serve it")
        }
        return (model, decoder, clock, lines, events)
    }

    /// Takes `script` (the served script, changed on disk) in place of the old one, with
    /// what was drawn live replayed on it. Throws, and keeps the drawing as it was, when the
    /// new script changes the canvas's size or its strokes dissolve, or the journal no
    /// longer replays on it (an undo with nothing left to undo). The change's box holds the
    /// entries whose stamps changed, before and after.
    package func reload(_ script: Script) throws -> Change {
        guard script.canvas.width == width, script.canvas.height == height else {
            throw InputError(file: script.path, "the canvas is now \(script.canvas.width)×\(script.canvas.height), not \(width)×\(height): "
                             + "restart serve to change its size")
        }
        guard script.maxAge == 0 else { throw InputError(file: script.path, "maxAge is now \(script.maxAge): a served drawing's strokes stay") }
        journal?.flush()
        let replayed = try ServedDrawing.replay(script, journal: journalPath)
        let box = model.changed(to: replayed.model)
        self.script = script
        model = replayed.model
        decoder = replayed.decoder
        clock = replayed.clock
        lines = replayed.lines
        journalEvents = replayed.events
        version += 1
        return Change(version: version, box: box)
    }

    /// The scene and the frame to show it at, and its version.
    package func snapshot() -> (scene: Scene, frame: Int, version: Int) { (model.scene, model.frame, version) }

    /// The script's brush names, for the page's brush menu.
    package var brushNames: [String] { script.brushOrder }

    /// A stroke being drawn: its events so far, each checked as it came.
    package struct PendingStroke: Sendable {
        /// The decoder as the stroke began, fed this stroke's events alone.
        fileprivate var check: EventDecoder
        fileprivate var events: [JSONValue] = []
        fileprivate var firstTime = 0.0, lastTime = 0.0
        fileprivate let base: Double
        fileprivate let id: Int
        package var count: Int { events.count }
    }

    /// Starts checking a stroke's events (the stroke joins the drawing at `commit`).
    package func beginStroke() -> PendingStroke {
        PendingStroke(check: decoder, base: clock + 1 / script.touchRate, id: model.liveStrokes + 1_000_000)
    }

    /// Checks one event of `stroke` (a JSON object as the drawer sent it: its time on the
    /// drawer's clock, any stroke number) and keeps it; throws the reason it is refused.
    package nonisolated func check(_ line: [UInt8], into stroke: inout PendingStroke) throws(InputError) {
        let value = try JSONParser.parse(line, file: "event")
        guard case let .object(members) = value.kind else { throw InputError(file: "event", "a touch event is a JSON object") }
        if members.contains(where: { ["end", "undo", "redo", "clear"].contains($0.key) }) {
            throw InputError(file: "event", "only a stroke's samples are sent this way")
        }
        guard let t = members.first(where: { $0.key == "t" }), case let .number(time, _) = t.value.kind else {
            throw InputError(file: "event", "a touch event needs a number \"t\" (seconds)")
        }
        if stroke.events.isEmpty { stroke.firstTime = time }
        guard time >= stroke.lastTime || stroke.events.isEmpty else {
            throw InputError(file: "event", "events out of order: t = \(time) s comes after t = \(stroke.lastTime) s")
        }
        let bytes = ServedDrawing.retimed(members, at: value.location, t: stroke.base + (time - stroke.firstTime), stroke: stroke.id)
        var check = stroke.check
        _ = try check.decode(bytes, line: stroke.events.count + 1)
        stroke.check = check
        stroke.lastTime = time
        stroke.events.append(value)
    }

    /// Adds `stroke` to the drawing as an entry after every other, its events written to the
    /// journal on the drawing's clock. Throws when it has no event, or when the drawing's
    /// limits refuse it: nothing is then added.
    package func commit(_ stroke: PendingStroke) throws(InputError) -> Change {
        guard !stroke.events.isEmpty else { throw InputError(file: "stroke", "a stroke needs at least one sample") }
        let base = clock + 1 / script.touchRate
        let id = model.liveStrokes
        var lines: [[UInt8]] = []
        for e in stroke.events {
            guard case let .object(members) = e.kind, let t = members.first(where: { $0.key == "t" }),
                  case let .number(time, _) = t.value.kind else { continue }
            lines.append(ServedDrawing.retimed(members, at: e.location, t: base + (time - stroke.firstTime), stroke: id))
        }
        let end = base + (stroke.lastTime - stroke.firstTime)
        lines.append(Array(#"{"t":\#(ServedDrawing.literal(end)),"end":\#(id)}"#.utf8))
        var check = decoder
        var start: TouchEvent.StrokeStart?
        var samples: [TouchSample] = []
        for (i, bytes) in lines.enumerated() {
            guard let e = try check.decode(bytes, line: self.lines + i + 1) else { continue }
            if case let .sample(_, sample, s) = e.kind {
                if let s { start = s }
                samples.append(sample)
            }
        }
        guard let start else { throw InputError(file: "stroke", "a stroke needs at least one sample") }
        decoder = check
        self.lines += lines.count
        clock = end
        journal?.append(lines)
        journalEvents += lines.count
        let box = model.commitStroke(start, samples)
        version += 1
        return Change(version: version, box: box)
    }

    /// Undo (`"undo"`), redo (`"redo"`) or clear (`"clear"`) now; `count` steps for the first
    /// two. Throws with the reason when there is nothing to act on.
    package func session(_ verb: String, count: Int = 1) throws(InputError) -> Change {
        guard ["undo", "redo", "clear"].contains(verb), count >= 1 else {
            throw InputError(file: verb, "not an undo, redo or clear")
        }
        let t = clock + 1 / script.touchRate
        let bytes = Array(#"{"t":\#(ServedDrawing.literal(t)),"\#(verb)":\#(verb == "clear" ? "true" : String(count))}"#.utf8)
        var check = decoder
        guard let event = try check.decode(bytes, line: lines + 1), case let .session(op) = event.kind else {
            throw InputError(file: verb, "not an undo, redo or clear")
        }
        decoder = check
        lines += 1
        clock = t
        journal?.append([bytes])
        journalEvents += 1
        let box = model.applySession(op)
        version += 1
        return Change(version: version, box: box)
    }

    /// Writes what the journal holds to the disk (the server calls this every second).
    package func flush() { journal?.flush() }

    /// `members` as one JSON line, with `t` and `stroke` replaced.
    static func retimed(_ members: [JSONValue.Member], at location: InputLocation, t: Double, stroke: Int) -> [UInt8] {
        var out = "{\"t\":\(literal(t)),\"stroke\":\(stroke)"
        for m in members where m.key != "t" && m.key != "stroke" {
            out += "," + JSONText.string(m.key) + ":" + JSONText.value(m.value)
        }
        return Array((out + "}").utf8)
    }

    /// A time as JSON, exact to the double.
    static func literal(_ t: Double) -> String { "\(t)" }
}

/// The drawing's scene as entries are added: the script's, then each stroke and session
/// event drawn live.
struct DrawingModel: Sendable {
    private(set) var scene: Scene
    /// The frame shown: the first at which every entry has acted (the canvas settles there).
    private(set) var frame: Int
    private let brushes: [String: (key: String, brush: Brush)]
    private let script: Script
    /// Live strokes number after the script's own stroke entries, for their dissolve angles.
    private let firstIndex: Int
    private(set) var liveStrokes = 0
    /// Each entry's pixels (nil for one with no stamps), for the tiles an undo touches.
    private(set) var boxes: [ServedDrawing.Box?]

    init(script: Script) throws {
        self.script = script
        scene = try Scene(script: script)
        brushes = try Scene.brushes(of: script)
        firstIndex = script.draw.filter { $0.stroke != nil }.count
        frame = scene.timeline.settledFrame
        let effects = scene.effects
        boxes = scene.batches.map { DrawingModel.box(of: $0.stamps, effects: effects) }
    }


    /// Adds the stroke's stamps as an entry after every other; returns its pixels.
    mutating func commitStroke(_ start: TouchEvent.StrokeStart, _ samples: [TouchSample]) -> ServedDrawing.Box? {
        let stamps = StrokeBuilder.stamps(for: samples, style: start.style, fps: script.touchRate, seed: script.seed,
                                          strokeIndex: firstIndex + liveStrokes)
        liveStrokes += 1
        let b = brushes[start.brush]!
        let turned = stamps.contains { $0.rotation != 0 }
        let batch = StampBatch(brushKey: b.key, brush: b.brush, stamps: stamps.map(\.point),
                               rotations: turned ? stamps.map(\.rotation) : nil)
        scene.batches.append(batch)
        let box = DrawingModel.box(of: batch.stamps, effects: scene.effects)
        boxes.append(box)
        let born = stamps.map { $0.point.age }.min().map { -Double($0) } ?? 0
        frame = max(frame, Int(born.rounded(.up)) + 1)
        return box
    }

    /// The pixels that differ between this drawing and `other` (of the same canvas): the
    /// entries whose stamps, brush or mode differ, or that one of them shows and the other
    /// not, before and after; nil (all of them) when the background changed.
    func changed(to other: DrawingModel) -> ServedDrawing.Box? {
        guard scene.canvas.background == other.scene.canvas.background else { return nil }
        let (a, b) = (Set(scene.state(atFrame: frame).entries), Set(other.scene.state(atFrame: other.frame).entries))
        var box: ServedDrawing.Box?
        func add(_ x: ServedDrawing.Box?) { if let x { box = box?.union(x) ?? x } }
        for i in 0..<max(scene.batches.count, other.scene.batches.count) {
            let mine = i < scene.batches.count ? scene.batches[i] : nil, theirs = i < other.scene.batches.count ? other.scene.batches[i] : nil
            let same = mine != nil && theirs != nil && mine!.stamps == theirs!.stamps && mine!.brushKey == theirs!.brushKey
                && mine!.mode == theirs!.mode && mine!.rotations == theirs!.rotations && a.contains(i) == b.contains(i)
            if !same {
                if i < boxes.count { add(boxes[i]) }
                if i < other.boxes.count { add(other.boxes[i]) }
            }
        }
        return box ?? ServedDrawing.Box(x0: 0, y0: 0, x1: 0, y1: 0)
    }

    /// Appends an undo, redo or clear; returns the pixels of the entries it hid or showed.
    mutating func applySession(_ op: SessionOp) -> ServedDrawing.Box? {
        let before = Set(scene.state(atFrame: max(frame, op.frame + 1)).entries)
        scene.session.ops.append(op)
        frame = max(frame, op.frame + 1)
        let after = Set(scene.state(atFrame: frame).entries)
        return before.symmetricDifference(after).compactMap { boxes[$0] }.reduce(nil as ServedDrawing.Box?) { $0?.union($1) ?? $1 }
    }

    /// The canvas pixels `stamps` can touch (drawn still: the drawing does not age).
    static func box(of stamps: [SketchPoint], effects: AgeEffects) -> ServedDrawing.Box? {
        guard !stamps.isEmpty else { return nil }
        var (x0, y0, x1, y1, r) = (Float.infinity, Float.infinity, -Float.infinity, -Float.infinity, Float(0))
        for p in stamps {
            x0 = min(x0, p.x); x1 = max(x1, p.x); y0 = min(y0, p.y); y1 = max(y1, p.y); r = max(r, p.radius)
        }
        let reach = 2 * r * abs(effects.pointScale) + 2
        guard [x0, x1, y0, y1, reach].allSatisfy(\.isFinite) else { return nil }
        return ServedDrawing.Box(x0: Int((x0 - reach).rounded(.down)), y0: Int((y0 - reach).rounded(.down)),
                   x1: Int((x1 + reach).rounded(.up)) + 1, y1: Int((y1 + reach).rounded(.up)) + 1)
    }

}
