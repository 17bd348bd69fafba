#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
/// Turns a parsed script document into a validated `Script` (docs/reference.md §9). Every error is
/// an `InputError` at the line and column of the offending key or value, saying what
/// was expected. Unknown keys are errors at every level: a typo must never be ignored.
struct ScriptDecoder: JSONReading {
    let path: String
    let directory: String

    typealias Member = JSONValue.Member

    static let scriptKeys = ["canvas", "fps", "maxAge", "dissolveDistance", "pointScale", "seed", "brushes", "draw",
                             "startFrame"]
    static let canvasKeys = ["width", "height", "background"]
    static let backgroundImageKeys = ["image"]
    static let builtinBrushKeys = ["builtin", "size"]
    static let stampsEntryKeys = ["brush", "stamps"] + modeKeys

    /// Strokes seen so far: a stroke's index seeds its random choices with the script's seed.
    private var strokeCount = 0
    /// Stamps of the entries decoded so far, and places their strokes walked (`Limits`).
    var stampTotal = 0
    var walkTotal = 0

    /// The canvas a script without one gets (a bake takes the video's size); nil: `canvas` is required.
    let defaultCanvas: CanvasSpec?

    init(path: String, directory: String, defaultCanvas: CanvasSpec? = nil) {
        self.path = path
        self.directory = directory
        self.defaultCanvas = defaultCanvas
    }

    mutating func decode(_ root: JSONValue) throws(InputError) -> Script {
        let members = try object(root, for: "the top of the script")
        try checkKeys(members, allowed: ScriptDecoder.scriptKeys, in: "the script")
        let canvasMember = member("canvas", in: members)
        guard canvasMember != nil || defaultCanvas != nil else {
            throw fail(root.location, "missing key \"canvas\" in the script; expected { \"canvas\": { \"width\": W, \"height\": H }, ... } "
                       + "(a script baked over a video may leave it out: stipple bake, or describe --video)")
        }
        var script = Script(path: path, directory: directory,
                            canvas: try canvasMember.map { m throws(InputError) in try canvas(m.value) } ?? defaultCanvas!)
        script.canvasLocation = canvasMember?.keyLocation

        if let m = member("fps", in: members) {
            let (v, literal) = try number(m.value, for: "fps")
            guard v > 0 else { throw fail(m.value.location, "fps must be greater than 0, found \(literal)") }
            script.fps = v
            script.fpsLocation = m.value.location
        }
        if let m = member("maxAge", in: members) {
            let v = try float(m.value, for: "maxAge")
            guard v >= 0 else {
                throw fail(m.value.location, "maxAge must be 0 or more (0: stamps never age), found \(literalText(m.value))")
            }
            // A positive age too small for a 32-bit float would silently mean "never age".
            let exact = try number(m.value, for: "maxAge").0
            guard v > 0 || exact == 0 else {
                throw fail(m.value.location, "maxAge \(literalText(m.value)) rounds to 0 as a 32-bit float, which means stamps never age; "
                           + "give 0 for that, or at least 1.4e-45")
            }
            script.maxAge = v
        }
        if let m = member("dissolveDistance", in: members) {
            script.dissolveDistance = try float(m.value, for: "dissolveDistance")
        }
        if let m = member("pointScale", in: members) {
            let v = try float(m.value, for: "pointScale")
            guard v > 0 else { throw fail(m.value.location, "pointScale must be greater than 0, found \(literalText(m.value))") }
            script.pointScale = v
        }
        if let m = member("seed", in: members) {
            script.seed = UInt64(try wholeNumber(m.value, for: "seed", in: 0...Int(Script.maxSeed)))
        }
        if let m = member("brushes", in: members) {
            (script.brushes, script.brushOrder) = try brushes(m.value)
        }
        if let m = member("draw", in: members) {
            let entries = try array(m.value, for: "draw")
            script.draw.reserveCapacity(entries.count)
            for (i, entry) in entries.enumerated() {
                // Session entries (undo, redo, clear) act on the strokes before them: docs/reference.md §12.
                if let op = try sessionEntry(entry, ordinal: i + 1, script: script) { script.session.ops.append(op); continue }
                script.draw.append(try drawEntry(entry, number: i + 1, script: script))
            }
            try checkSession(script)
        }
        if let start = try startFrame(members) { script.session.startFrame = start }
        script.stampsUsed = stampTotal
        script.walkUsed = walkTotal
        return script
    }

    // MARK: Canvas

    private func canvas(_ value: JSONValue) throws(InputError) -> CanvasSpec {
        let members = try object(value, for: "canvas")
        try checkKeys(members, allowed: ScriptDecoder.canvasKeys, in: "canvas")
        let width = try required("width", in: members, of: value, context: "canvas")
        let height = try required("height", in: members, of: value, context: "canvas")
        let range = 1...CanvasSpec.maxSide
        var canvas = CanvasSpec(width: try wholeNumber(width.value, for: "canvas width", in: range),
                                height: try wholeNumber(height.value, for: "canvas height", in: range),
                                sizeLocation: width.value.location)
        if let m = member("background", in: members) {
            canvas.background = try background(m.value)
            canvas.backgroundLocation = m.value.location
        }
        return canvas
    }

    private func background(_ value: JSONValue) throws(InputError) -> Background {
        switch value.kind {
        case let .string(text):
            guard let color = Color(hex: text) else {
                throw fail(value.location, "background must be a colour \"#rrggbb\" or \"#rrggbbaa\", or { \"image\": \"file.png\" }; found \"\(text)\"")
            }
            return .color(color)
        case let .object(members):
            try checkKeys(members, allowed: ScriptDecoder.backgroundImageKeys, in: "background")
            let image = try required("image", in: members, of: value, context: "background")
            return .image(path: try existingFile(image.value, for: "background image"), location: image.value.location)
        default:
            throw fail(value.location, "expected a colour string or { \"image\": \"file.png\" } for background, found \(value.kindDescription)")
        }
    }

    // MARK: Brushes

    private func brushes(_ value: JSONValue) throws(InputError) -> ([String: BrushSpec], [String]) {
        let members = try object(value, for: "brushes")
        var specs: [String: BrushSpec] = [:]
        var order: [String] = []
        for m in members {
            guard !m.key.isEmpty else { throw fail(m.keyLocation, "a brush name must not be empty") }
            specs[m.key] = try brush(m.value, name: m.key)
            order.append(m.key)
        }
        return (specs, order)
    }

    private func brush(_ value: JSONValue, name: String) throws(InputError) -> BrushSpec {
        let what = "brush \"\(name)\""
        switch value.kind {
        case .string:
            return .file(path: try existingFile(value, for: "\(what): file"), location: value.location)
        case let .object(members):
            try checkKeys(members, allowed: ScriptDecoder.builtinBrushKeys, in: what)
            let builtin = try required("builtin", in: members, of: value, context: what)
            let kindName = try string(builtin.value, for: "builtin in \(what)")
            guard let kind = Brush.Builtin(rawValue: kindName) else {
                let known = Brush.Builtin.allCases.map(\.rawValue).joined(separator: ", ")
                throw fail(builtin.value.location, "unknown built-in brush \"\(kindName)\"; expected one of: \(known)")
            }
            var size = Brush.defaultBuiltinSize
            if let m = member("size", in: members) {
                size = try wholeNumber(m.value, for: "brush size", in: 1...BrushSpec.maxBuiltinSize)
            }
            return .builtin(kind, size: size, location: value.location)
        default:
            throw fail(value.location, "expected a file path or { \"builtin\": \"hard-round\" } for \(what), found \(value.kindDescription)")
        }
    }

    // MARK: Draw entries

    /// The kinds of draw entry; each has its own keys. A new kind (strokes from touch
    /// samples) is a new case here and a decoder of its own.
    private enum EntryKind {
        case stamps(Member)
        case points(Member)
    }

    private mutating func drawEntry(_ value: JSONValue, number: Int, script: Script) throws(InputError) -> DrawEntry {
        let what = "draw entry \(number)"
        let members = try object(value, for: what)
        let kind: EntryKind
        switch (member("stamps", in: members), member("points", in: members)) {
        case let (stamps?, nil): kind = .stamps(stamps)
        case let (nil, points?): kind = .points(points)
        case let (stamps?, points?):
            let later = stamps.keyLocation.isBefore(points.keyLocation) ? points : stamps
            throw fail(later.keyLocation, "\(what) has both \"stamps\" and \"points\"; expected exactly one of them")
        case (nil, nil):
            throw fail(value.location, "\(what) needs \"stamps\" or \"points\"")
        }
        switch kind {
        case let .stamps(stamps):
            try checkKeys(members, allowed: ScriptDecoder.stampsEntryKeys, in: what)
            let brush = try brushName(in: members, of: value, context: what, script: script)
            let (points, source) = try stampList(stamps.value, context: what)
            stampTotal += points.count
            return DrawEntry(brush: brush, stamps: points, location: value.location, source: source,
                             mode: try strokeMode(members, context: what))
        case let .points(points):
            try checkKeys(members, allowed: ScriptDecoder.strokeEntryKeys, in: what)
            let brush = try brushName(in: members, of: value, context: what, script: script)
            var stroke = try strokeSpec(members, samples: points.value, context: what,
                                        index: try seedIndex(members) ?? strokeCount, fps: script.fps)
            strokeCount += 1
            stroke.style.mode = try strokeMode(members, context: what)
            stroke.style.cull = StrokeCull(width: Double(script.canvas.width), height: Double(script.canvas.height),
                                           pointScale: Double(script.pointScale),
                                           drift: script.maxAge > 0 ? Double(script.dissolveDistance) : 0)
            let made = try checkStampBudget(of: stroke, script: script, entry: value, what: what)
            var entry = DrawEntry(brush: brush, stamps: [], location: value.location, stroke: stroke)
            entry.made = made
            return entry
        }
    }

    /// The entry's `brush`, which must name a brush the script defines.
    func brushName(in members: [Member], of value: JSONValue, context: String,
                           script: Script) throws(InputError) -> String {
        let m = try required("brush", in: members, of: value, context: context)
        let name = try string(m.value, for: "the brush of \(context)")
        guard script.brushes[name] != nil else {
            let defined = script.brushOrder.isEmpty
                ? "no brushes are defined"
                : "defined: " + script.brushOrder.joined(separator: ", ")
            throw fail(m.value.location, "unknown brush \"\(name)\"; \(defined)")
        }
        return name
    }

    /// `stamps`: inline 9-number arrays, or the path of a `.sketchpoints` file.
    private func stampList(_ value: JSONValue, context: String) throws(InputError) -> ([SketchPoint], String?) {
        switch value.kind {
        case .string:
            let file = try existingFile(value, for: "stamps file")
            let room = Limits.maxStampsPerScript - stampTotal
            // Over the script's budget, the error names the script's entry (line:column) as
            // well as the file; any other failure to read names the file.
            let overBudget = OverBudget()
            let bytes: [UInt8]
            do {
                bytes = try FileSystem.readBytes(path: file, limit: room * SketchPoint.byteSize) { [stampTotal] size in
                    let why = "holds \(size / SketchPoint.byteSize) stamps (\(size) bytes), and a script may have at most "
                        + "\(Limits.maxStampsPerScript) stamps in all (\(stampTotal) before this entry)"
                    overBudget.why = why
                    return why
                }
            } catch {
                if let why = overBudget.why {
                    throw fail(value.location, "stamps file \(InputError.quoted(file)) in \(context) \(why)")
                }
                throw error
            }
            return (try SketchPointsFile.decode(bytes, path: file), file)
        case let .array(items):
            guard items.count <= Limits.maxStampsPerScript - stampTotal else {
                throw fail(value.location, "\(context) has \(items.count) stamps, and a script may have at most "
                           + "\(Limits.maxStampsPerScript) stamps in all (\(stampTotal) before this entry)")
            }
            return (try stamps(value), nil)
        default:
            throw fail(value.location, "expected an array of stamps or the path of a .sketchpoints file for stamps in \(context), found \(value.kindDescription)")
        }
    }
}

/// What `readBytes` said when a `.sketchpoints` file was over the script's stamp budget.
private final class OverBudget { var why: String? }

private extension InputLocation {
    /// Text order, for choosing the later of two keys.
    func isBefore(_ other: InputLocation) -> Bool {
        guard case let .text(l1, c1) = self, case let .text(l2, c2) = other else { return false }
        return (l1, c1) < (l2, c2)
    }
}
