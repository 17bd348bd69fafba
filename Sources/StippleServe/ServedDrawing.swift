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
    /// Changes other than a stroke added (undo, redo, clear, the script reloaded) so far.
    private var resets = 0

    /// What pixels drawn from the drawing show: its entries then, and its changes other than
    /// strokes added then. Pixels drawn at a mark are brought up to date by drawing over them
    /// the entries added since, while no other change came between (strokes only ever go on
    /// top: each stamp is blended over what was there, in order).
    /// Marks follow the drawing's time: a later reset, or more entries since the same one.
    package struct Mark: Sendable, Comparable {
        package var entries: Int, resets: Int
        package static func < (a: Mark, b: Mark) -> Bool { (a.resets, a.entries) < (b.resets, b.entries) }
    }
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
        resets += 1
        return Change(version: version, box: box)
    }

    /// The scene and the frame to show it at, and its version.
    package func snapshot() -> (scene: Scene, frame: Int, version: Int) { (model.scene, model.frame, version) }

    /// What pixels drawn from the drawing now show.
    package var mark: Mark { Mark(entries: model.entries, resets: resets) }

    /// As `snapshot()`, with what pixels drawn from it show.
    package func markedSnapshot() -> (scene: Scene, frame: Int, mark: Mark) { (model.scene, model.frame, mark) }

    /// As `snapshot()`, for drawing the canvas pixels `box` alone: the entries that cannot
    /// touch them are left out (`DrawingModel.scene(touching:)`), by the caller, not on this
    /// actor, which the strokes being drawn need.
    package nonisolated func snapshot(touching box: Box) async -> (scene: Scene, frame: Int, version: Int) {
        let (model, version) = await modelNow()
        return (model.scene(touching: box), model.frame, version)
    }

    private func modelNow() -> (DrawingModel, Int) { (model, version) }

    /// As `snapshot(touching:)`, with what pixels drawn at `mark` lack: the entries added
    /// since that can touch `box` (`added`), when nothing but strokes added came since and
    /// every entry meets the canvas stamp by stamp; else the whole of it, as
    /// `snapshot(touching:)`. With the mark of now.
    package nonisolated func snapshot(touching box: Box, over mark: Mark?) async
        -> (scene: Scene, frame: Int, mark: Mark, added: Bool) {
        let (model, now) = await markedModel()
        let added = mark.map { $0.resets == now.resets && $0.entries <= now.entries } == true && !model.hasModes
        return (model.scene(touching: box, from: added ? mark!.entries : 0), model.frame, now, added)
    }

    private func markedModel() -> (DrawingModel, Mark) { (model, mark) }

    /// The bytes the drawing is kept in: the script's stamps, the samples of the strokes drawn live.
    package var bytes: Int { model.bytes }

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
        resets += 1
        return Change(version: version, box: box)
    }

    /// Writes what the journal holds to the disk (the server calls this every second).
    package func flush() { journal?.flush() }

    /// `members` as one JSON line, with `t` and `stroke` replaced.
    static func retimed(_ members: [JSONValue.Member], at location: InputLocation, t: Double, stroke: Int) -> [UInt8] {
        var out = "{\"t\":\(literal(t)),\"stroke\":\(stroke)"
        for m in members where m.key != "t" && m.key != "stroke" {
            out += "," + JSONValue.quoted(m.key) + ":" + m.value.text
        }
        return Array((out + "}").utf8)
    }

    /// A time as JSON, exact to the double.
    static func literal(_ t: Double) -> String { "\(t)" }
}
