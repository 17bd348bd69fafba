import Foundation

/// A snapshot of a drawing session, and how it becomes a script on disk (docs/reference.md §12,
/// docs/sessions.md): the backing layer as the background PNG, the strokes kept as data as
/// `points` entries with every number written exactly, so rendering the script gives the
/// saved image bit for bit.
///
/// Writing is atomic across files: every PNG goes to a new name first (the backing layer's
/// name is new each save, a brush's is its content's hash), then the script is written to a
/// temporary file and renamed over the old one, and only then are the previous save's
/// backing PNGs removed. A crash at any point leaves the old save or the new one, whole.
package struct SavedDrawing: Sendable {
    struct Stroke: Sendable {
        var brushKey: String
        var brush: Brush
        var style: StrokeStyle
        var samples: [TouchSample]
        var seedIndex: Int
    }
    var width: Int
    var height: Int
    /// The backing layer, premultiplied as read back: made straight when written.
    var background: SurfaceSnapshot
    var fps: Double
    var seed: UInt64
    var effects: AgeEffects
    var startFrame: Int
    var strokes: [Stroke]

    /// Encodes and writes everything (call it off the render thread).
    func write(to path: String) throws {
        let folder = FileSystem.folder(of: path)
        let name = (path as NSString).lastPathComponent
        let stem = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else {
            throw InputError(file: path, "cannot save: the folder \(folder) does not exist")
        }
        // Brushes: built-ins by name, others as PNGs named after their content.
        var brushNames: [String: String] = [:]   // brushKey → name in the script
        var brushJSON: [String] = []
        for s in strokes where brushNames[s.brushKey] == nil {
            let id = "b\(brushNames.count)"
            brushNames[s.brushKey] = id
            if let kind = SavedDrawing.builtin(s.brush) {
                brushJSON.append("\(JSONValue.quoted(id)): { \"builtin\": \"\(kind.rawValue)\", \"size\": \(s.brush.width) }")
            } else {
                let file = "\(stem).brush-\(SavedDrawing.hash(s.brush.coverage, s.brush.width)).png"
                let target = FileSystem.resolve(file, against: folder)
                if !FileManager.default.fileExists(atPath: target) {
                    try SavedDrawing.writing(target) { try PNGFile.write(SavedDrawing.image(of: s.brush), to: target) }
                }
                brushJSON.append("\(JSONValue.quoted(id)): \(JSONValue.quoted(file))")
            }
        }
        let backingFile = "\(stem).backing-\(String(UInt64.random(in: 0...UInt64.max), radix: 16)).png"
        try SavedDrawing.writing(FileSystem.resolve(backingFile, against: folder)) {
            try PNGFile.write(background.image, to: FileSystem.resolve(backingFile, against: folder))
        }
        var json = "{\n"
        json += "  \"canvas\": { \"width\": \(width), \"height\": \(height), \"background\": { \"image\": \(JSONValue.quoted(backingFile)) } },\n"
        json += "  \"fps\": \(fps), \"maxAge\": \(n(effects.maxAge)), \"dissolveDistance\": \(n(effects.dissolveDistance)), "
        json += "\"pointScale\": \(n(effects.pointScale)), \"seed\": \(seed), \"startFrame\": \(startFrame),\n"
        json += "  \"brushes\": { " + brushJSON.joined(separator: ", ") + " },\n"
        json += "  \"draw\": [\n"
        json += strokes.map { "    " + entry($0, brush: brushNames[$0.brushKey]!) }.joined(separator: ",\n")
        json += "\n  ]\n}\n"
        try SavedDrawing.writing(path) { try OutputFile.write(Array(json.utf8), to: path) }
        // The new script is in place: earlier saves' backing PNGs can go.
        let prefix = "\(stem).backing-"
        for old in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where old.hasPrefix(prefix) && old.hasSuffix(".png") && old != backingFile
            && old.dropFirst(prefix.count).dropLast(4).allSatisfy(\.isHexDigit) {
            try? FileManager.default.removeItem(atPath: FileSystem.resolve(old, against: folder))
        }
    }

    private func entry(_ s: Stroke, brush: String) -> String {
        let st = s.style
        var e = "{ \"brush\": \(JSONValue.quoted(brush)), \"seedIndex\": \(s.seedIndex), \"color\": "
        let c = st.color
        e += "[\(n(c.red)), \(n(c.green)), \(n(c.blue)), \(n(c.alpha))]"
        e += ", \"radius\": \(n(st.radius)), \"spacing\": \(n(st.spacing)), \"smoothing\": \(n(st.smoothing))"
        e += ", \"opacity\": \(n(st.opacity))"
        let p = st.pressure
        e += ", \"pressure\": { \"radius\": [\(n(p.radius.lowerBound)), \(n(p.radius.upperBound))]"
        e += ", \"opacity\": [\(n(p.opacity.lowerBound)), \(n(p.opacity.upperBound))]"
        if let missing = p.missingPressure { e += ", \"missing\": \(n(missing))" }
        e += " }"
        if let v = st.speed {
            e += ", \"speed\": { \"slow\": \(n(v.slowSpeed)), \"fast\": \(n(v.fastSpeed)), "
            e += "\"slowFactor\": \(n(v.slowRadiusFactor)), \"fastFactor\": \(n(v.fastRadiusFactor)) }"
        }
        switch st.rotation {
        case .none: break
        case let .fixed(r): e += ", \"rotation\": \(n(r))"
        case .followStroke: e += ", \"rotation\": \"follow\""
        }
        if let m = st.mode { e += m.scriptKeys { n($0) } }
        e += ",\n      \"points\": ["
        e += s.samples.map { t in
            var o = "{ \"x\": \(n(t.x)), \"y\": \(n(t.y)), \"t\": \(t.t)"
            if let pr = t.pressure { o += ", \"pressure\": \(n(pr))" }
            return o + " }"
        }.joined(separator: ", ")
        return e + "] }"
    }

    /// A 32-bit float written so that reading it back as a double and rounding to float gives it exactly.
    private func n(_ f: Float) -> String { "\(Double(f))" }

    /// The built-in brush `brush` is, if it is one.
    static func builtin(_ brush: Brush) -> Brush.Builtin? {
        guard brush.width == brush.height else { return nil }
        return Brush.Builtin.allCases.first { Brush.builtin($0, size: brush.width) == brush }
    }

    /// A brush as a PNG that reads back as the same coverage: white, coverage in alpha.
    static func image(of brush: Brush) -> Image {
        var px = [UInt8](repeating: 0, count: brush.width * brush.height * 4)
        for (i, a) in brush.coverage.enumerated() where a != 0 {
            px[i * 4] = 255; px[i * 4 + 1] = 255; px[i * 4 + 2] = 255; px[i * 4 + 3] = a
        }
        return Image(width: brush.width, height: brush.height, pixels: px)
    }

    /// FNV-1a of the coverage and width, as 16 hex digits.
    static func hash(_ bytes: [UInt8], _ width: Int) -> String {
        var h = ContentHash(seed: UInt64(width))
        h.mix(bytes)
        return String(h.value, radix: 16)
    }

    /// Runs a write, naming the file and the save in its error.
    static func writing(_ path: String, _ body: () throws -> Void) throws {
        do { try body() } catch let e as InputError {
            throw InputError(file: e.file, location: e.location, "cannot save the drawing: \(e.message)")
        } catch {
            throw InputError(file: path, "cannot save the drawing: \(error)")
        }
    }
}
