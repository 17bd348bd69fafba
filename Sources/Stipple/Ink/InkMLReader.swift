import Foundation

/// Reads a W3C InkML file into an `InkDrawing` (docs/ink-formats.md): traces in document
/// order, through `<traceGroup>`s, each with the context, format, brush and canvas
/// transform it names or inherits. Pen-up (hover) traces are not drawn; eraser traces
/// become strokes with the erase blend. Errors name the file, line and column.
package struct InkMLReader {
    let file: String
    let positions: TextPositions
    /// Elements with an `xml:id`, by id.
    var byID: [String: InkXMLElement] = [:]
    var contextCache: [String: InkMLContext] = [:]
    var strokes: [InkDrawing.Stroke] = []
    /// Per stroke: force values still to be normalised, and whether the format declared F's range.
    var rawForce: [(stroke: Int, declared: Bool)] = []
    var firstTime: Double?
    var frame: (minX: Double, minY: Double, maxX: Double, maxY: Double)?
    var declaresCanvas = false
    /// Traces whose X channel states a length (units or a resolution), and those that do not.
    var lengthTraces = 0, numberTraces = 0

    /// Milliseconds of T per second when T's units are not given (InkML's examples use ms).
    static let defaultTimeUnitsPerSecond = 1000.0

    package static func read(path: String) throws(InputError) -> InkDrawing {
        try parse(try FileSystem.readBytes(path: path), file: path)
    }

    package static func parse(_ bytes: [UInt8], file: String) throws(InputError) -> InkDrawing {
        let root = try InkXMLParser.parse(bytes, file: file)
        var reader = InkMLReader(file: file, positions: TextPositions(bytes))
        return try reader.read(root)
    }

    init(file: String, positions: TextPositions) { self.file = file; self.positions = positions }

    func fail(_ offset: Int, _ message: String) -> InputError {
        InputError(file: file, location: positions.location(of: offset), message)
    }

    mutating func read(_ root: InkXMLElement) throws(InputError) -> InkDrawing {
        guard let ink = InkMLReader.findInk(root) else {
            throw fail(root.offset, "no <ink> element: an InkML file's root (or an element in it) is <ink>, found <\(root.name)>")
        }
        index(ink)
        var context = InkMLContext()
        try walk(ink.children, context: &context, depth: 0)
        // Force with no declared range: normalised by the file's largest.
        let undeclared = rawForce.filter { !$0.declared }.map(\.stroke)
        let peak = undeclared.flatMap { strokes[$0].points.compactMap(\.pressure) }.max() ?? 0
        for s in undeclared {
            for i in strokes[s].points.indices {
                if let f = strokes[s].points[i].pressure { strokes[s].points[i].pressure = peak > 0 ? min(1, max(0, f / peak)) : nil }
            }
        }
        if let first = firstTime {
            for s in strokes.indices {
                for i in strokes[s].points.indices { if let t = strokes[s].points[i].t { strokes[s].points[i].t = t - first } }
            }
        }
        var drawing = InkDrawing(strokes: strokes, frame: frame)
        drawing.declaresCanvas = declaresCanvas
        drawing.unitless = numberTraces > 0 && lengthTraces == 0
        return drawing
    }

    static func findInk(_ root: InkXMLElement) -> InkXMLElement? {
        var queue = [root]
        var i = 0
        while i < queue.count {
            if queue[i].localName == "ink" { return queue[i] }
            queue += queue[i].children
            i += 1
        }
        return nil
    }

    mutating func index(_ element: InkXMLElement) {
        var stack = [element]
        while let e = stack.popLast() {
            if let id = e.attribute("xml:id") ?? e.attribute("id") { byID[id] = e }
            if e.localName == "annotationXML" { continue }
            stack += e.children
        }
    }

    func lookup(_ ref: String, at offset: Int, kind: String) throws(InputError) -> InkXMLElement {
        let id = ref.hasPrefix("#") ? String(ref.dropFirst()) : ref
        guard let e = byID[id] else { throw fail(offset, "\(kind) \"\(ref)\" is not defined in this file") }
        return e
    }

    static let maxDepth = 64

    mutating func walk(_ children: [InkXMLElement], context: inout InkMLContext, depth: Int) throws(InputError) {
        for child in children {
            switch child.localName {
            case "context":
                // A context among the traces changes the context of those that follow.
                context = try self.context(child, base: context, depth: 0)
            case "trace":
                try trace(child, context: context)
            case "traceFormat":
                // Outside a context (as CROHME and the recommendation's examples write it): the format of the traces after it.
                context.format = try format(child)
            case "inkSource":
                try inkSource(child, into: &context)
            case "brush" where child.attribute("xml:id") == nil:
                context.brush = try brush(child, depth: 0)
            case "canvasTransform" where child.attribute("xml:id") == nil:
                context.transform = try transform(child)
            case "traceGroup":
                guard depth < InkMLReader.maxDepth else { throw fail(child.offset, "traceGroups nest deeper than \(InkMLReader.maxDepth) levels") }
                var inner = try referenced(child, base: context)
                try walk(child.children, context: &inner, depth: depth + 1)
            default:
                continue  // definitions, annotations, timestamps, traceViews: nothing to draw
            }
        }
    }

    /// The context of a trace or trace group: its `contextRef`, then its `brushRef`.
    mutating func referenced(_ e: InkXMLElement, base: InkMLContext) throws(InputError) -> InkMLContext {
        var c = base
        if let ref = e.attribute("contextRef") {
            c = try context(try lookup(ref, at: e.attributeOffset("contextRef"), kind: "contextRef"), base: base, depth: 0)
        }
        if let ref = e.attribute("brushRef") {
            c.brush = try brush(try lookup(ref, at: e.attributeOffset("brushRef"), kind: "brushRef"), depth: 0)
        }
        return c
    }

    mutating func context(_ e: InkXMLElement, base: InkMLContext, depth: Int) throws(InputError) -> InkMLContext {
        guard depth < InkMLReader.maxDepth else { throw fail(e.offset, "contexts refer to each other more than \(InkMLReader.maxDepth) deep") }
        guard e.localName == "context" else { throw fail(e.offset, "contextRef must name a <context>; this is <\(e.name)>") }
        var c = base
        if let ref = e.attribute("contextRef") {
            c = try context(try lookup(ref, at: e.attributeOffset("contextRef"), kind: "contextRef"), base: base, depth: depth + 1)
        }
        if let ref = e.attribute("inkSourceRef") {
            try inkSource(try lookup(ref, at: e.attributeOffset("inkSourceRef"), kind: "inkSourceRef"), into: &c)
        }
        if let ref = e.attribute("traceFormatRef") {
            c.format = try format(try lookup(ref, at: e.attributeOffset("traceFormatRef"), kind: "traceFormatRef"))
        }
        if let ref = e.attribute("brushRef") {
            c.brush = try brush(try lookup(ref, at: e.attributeOffset("brushRef"), kind: "brushRef"), depth: 0)
        }
        if let ref = e.attribute("canvasTransformRef") {
            c.transform = try transform(try lookup(ref, at: e.attributeOffset("canvasTransformRef"), kind: "canvasTransformRef"))
        }
        for child in e.children {
            switch child.localName {
            case "inkSource": try inkSource(child, into: &c)
            case "traceFormat": c.format = try format(child)
            case "brush": c.brush = try brush(child, depth: 0)
            case "canvasTransform": c.transform = try transform(child)
            default: continue
            }
        }
        return c
    }

    func inkSource(_ e: InkXMLElement, into c: inout InkMLContext) throws(InputError) {
        guard e.localName == "inkSource" else { throw fail(e.offset, "inkSourceRef must name an <inkSource>; this is <\(e.name)>") }
        if let f = e.children(named: "traceFormat").first { c.format = try format(f) }
        for props in e.children(named: "channelProperties") {
            for p in props.children(named: "channelProperty") where p.attribute("name") == "resolution" {
                guard let name = p.attribute("channel"), let text = p.attribute("value") else { continue }
                guard let v = Double(text) else { throw fail(p.attributeOffset("value"), "resolution \"\(text)\" is not a number") }
                for i in c.format.regular.indices where c.format.regular[i].name == name {
                    c.format.regular[i].resolution = (v, p.attribute("units"))
                }
            }
        }
    }

    func format(_ e: InkXMLElement) throws(InputError) -> InkMLFormat {
        guard e.localName == "traceFormat" else { throw fail(e.offset, "traceFormatRef must name a <traceFormat>; this is <\(e.name)>") }
        var f = InkMLFormat(regular: [])
        for child in e.children {
            switch child.localName {
            case "channel": f.regular.append(try channel(child))
            case "intermittentChannels": f.intermittent += try child.children(named: "channel").map { c throws(InputError) in try channel(c) }
            default: continue
            }
        }
        if f.regular.isEmpty && f.intermittent.isEmpty { return .defaultFormat }
        return f
    }

    func channel(_ e: InkXMLElement) throws(InputError) -> InkMLChannel {
        guard let name = e.attribute("name") else { throw fail(e.offset, "<channel> needs a name attribute (X, Y, T, F, ...)") }
        var c = InkMLChannel(name: name, offset: e.offset)
        c.type = e.attribute("type") ?? "decimal"
        func number(_ attr: String) throws(InputError) -> Double? {
            guard let text = e.attribute(attr) else { return nil }
            if c.type == "boolean" { return text == "T" || text == "true" ? 1 : 0 }
            guard let v = Double(text.trimmingCharacters(in: .whitespaces)), v.isFinite else {
                throw fail(e.attributeOffset(attr), "channel \(name)'s \(attr) \"\(text)\" is not a number")
            }
            return v
        }
        c.min = try number("min"); c.max = try number("max"); c.defaultValue = try number("default")
        c.units = e.attribute("units")
        return c
    }

    func brush(_ e: InkXMLElement, depth: Int) throws(InputError) -> InkMLBrush {
        guard e.localName == "brush" else { throw fail(e.offset, "brushRef must name a <brush>; this is <\(e.name)>") }
        guard depth < InkMLReader.maxDepth else { throw fail(e.offset, "brushes refer to each other more than \(InkMLReader.maxDepth) deep") }
        var b = InkMLBrush()
        if let ref = e.attribute("brushRef") { b = try brush(try lookup(ref, at: e.attributeOffset("brushRef"), kind: "brushRef"), depth: depth + 1) }
        let id = (e.attribute("xml:id") ?? "").lowercased()
        if id.contains("eraser") { b.erases = true }
        for p in e.children(named: "brushProperty") {
            guard let name = p.attribute("name"), let value = p.attribute("value") else { continue }
            let lower = value.lowercased()
            switch name {
            case "color":
                guard let c = Color.inkML(value) else {
                    throw fail(p.attributeOffset("value"), "brush color \"\(value)\" is not #rrggbb, #rrggbbaa or a colour name")
                }
                b.color = c
            case "width":
                guard let w = Double(value), w >= 0, w.isFinite else { throw fail(p.attributeOffset("value"), "brush width \"\(value)\" is not a number ≥ 0") }
                b.width = w; b.widthUnits = p.attribute("units")
            case "transparency":
                guard let t = Double(value), t.isFinite else { throw fail(p.attributeOffset("value"), "brush transparency \"\(value)\" is not a number") }
                b.transparency = t
            case "ignorePressure": b.ignoresPressure = lower == "1" || lower == "true" || lower == "t"
            case "tip", "type", "tool", "rasterOp":
                if lower.contains("eraser") || lower.contains("erase") { b.erases = true }
            case "eraser", "erase": b.erases = lower == "1" || lower == "true" || lower == "t"
            default: continue
            }
        }
        return b
    }

    func transform(_ e: InkXMLElement) throws(InputError) -> InkMLAffine? {
        guard e.localName == "canvasTransform" else { throw fail(e.offset, "canvasTransformRef must name a <canvasTransform>; this is <\(e.name)>") }
        // The forward mapping: the first <mapping> (a second one, when given, is the inverse).
        guard let mapping = e.children(named: "mapping").first else { return nil }
        return try affine(mapping, depth: 0)
    }

    func affine(_ mapping: InkXMLElement, depth: Int) throws(InputError) -> InkMLAffine? {
        let type = mapping.attribute("type") ?? "unknown"
        switch type {
        case "identity": return nil
        case "affine":
            guard let a = mapping.children(named: "affine").first ?? mapping.children(named: "matrix").first else {
                throw fail(mapping.offset, "an affine <mapping> needs an <affine> element with its matrix")
            }
            let rows = String(decoding: a.text, as: UTF8.self).split(separator: ",")
            let numbers = try rows.map { row throws(InputError) -> [Double] in
                try row.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).map { t throws(InputError) -> Double in
                    guard let v = Double(t), v.isFinite else { throw fail(a.offset, "the affine matrix holds \"\(t)\", not a number") }
                    return v
                }
            }
            guard numbers.count >= 2, numbers[0].count == 3, numbers[1].count == 3 else {
                throw fail(a.offset, "an affine matrix is two or three rows of three numbers separated by commas, such as \"1 0 0, 0 1 0\"")
            }
            return InkMLAffine(a: numbers[0][0], b: numbers[0][1], c: numbers[0][2], d: numbers[1][0], e: numbers[1][1], f: numbers[1][2])
        default:
            throw fail(mapping.offset, "canvasTransform mapping type \"\(type)\" is not read (identity and affine are); "
                       + "the traces' place on the canvas would be a guess")
        }
    }

    mutating func trace(_ e: InkXMLElement, context base: InkMLContext) throws(InputError) {
        let c = try referenced(e, base: base)
        let type = e.attribute("type") ?? "penDown"
        // Hover: the pen moved above the surface and drew nothing.
        if type == "penUp" { return }
        var f = c.format
        let fail: (Int, String) -> InputError = { [positions, file] o, m in InputError(file: file, location: positions.location(of: o), m) }
        var text = InkMLTraceText(text: e.text, offsets: e.textOffsets, fail: fail)
        var rows: [[Double]]
        do {
            rows = try text.points(regular: f.regular.count, intermittent: f.intermittent.count, defaults: f.regular.map(\.defaultValue))
        } catch where f.isDefault {
            // No declared format and a third value: X Y T, as datasets write it undeclared.
            var again = InkMLTraceText(text: e.text, offsets: e.textOffsets, fail: fail)
            guard let withTime = try? again.points(regular: 3, intermittent: 0, defaults: [nil, nil, nil]),
                  withTime.contains(where: { _ in true }) else { throw error }
            f = .undeclaredWithTime
            rows = withTime
        }
        guard !rows.isEmpty else { return }
        guard let xi = f.index(of: "X"), let yi = f.index(of: "Y") else {
            throw fail(e.offset, "this trace's format has no X and Y channels; nothing says where its points are")
        }
        let ti = f.index(of: "T"), fi = f.index(of: "F")
        let sx = InkMLUnits.pixelsPerStep(f.regular[xi]), sy = InkMLUnits.pixelsPerStep(f.regular[yi])
        let cx = f.regular[xi], cy = f.regular[yi]
        if frame == nil, c.transform == nil, let x0 = cx.min, let x1 = cx.max, let y0 = cy.min, let y1 = cy.max, x1 > x0, y1 > y0 {
            // Declared ranges: the box the ink was written in.
            frame = (x0 * sx, y0 * sy, x1 * sx, y1 * sy)
            let px: Set<String?> = [nil, "px"]
            declaresCanvas = px.contains(cx.units) && px.contains(cy.units) && cx.resolution == nil && cy.resolution == nil
        }
        var tPerSecond = InkMLReader.defaultTimeUnitsPerSecond
        if let ti {
            switch f.regular[ti].units?.lowercased() {
            case "s": tPerSecond = 1
            case "us", "µs": tPerSecond = 1_000_000
            case "ns": tPerSecond = 1_000_000_000
            default: tPerSecond = 1000
            }
        }
        if let fi, rows.allSatisfy({ $0[fi] == 0 }) { return }  // no force anywhere: hovering
        var declared = false
        var forceRange: (Double, Double)?
        if let fi, let hi = f.regular[fi].max {
            let lo = f.regular[fi].min ?? 0
            if hi > lo { forceRange = (lo, hi); declared = true }
        }
        var points: [InkDrawing.Point] = []
        points.reserveCapacity(rows.count)
        var lastT = -Double.infinity
        for row in rows {
            var (x, y) = (row[xi] * sx, row[yi] * sy)
            if let m = c.transform { (x, y) = m.apply(row[xi], row[yi]); x *= sx; y *= sy }
            guard x.isFinite, y.isFinite else { throw fail(e.offset, "a point of this trace maps outside the numbers a canvas can hold") }
            var p = InkDrawing.Point(x: x, y: y)
            if let ti {
                // Time never goes back within a stroke.
                let t = max(lastT, row[ti] / tPerSecond)
                lastT = t
                p.t = t
                firstTime = min(firstTime ?? t, t)
            }
            if let fi, !c.brush.ignoresPressure {
                if let (lo, hi) = forceRange { p.pressure = min(1, max(0, (row[fi] - lo) / (hi - lo))) }
                else { p.pressure = max(0, row[fi]) }
            }
            points.append(p)
        }
        // InkML transparency: 0 opaque … 255 invisible; the whole stroke's opacity, so a
        // highlighter stays translucent where it crosses itself.
        let opacity = c.brush.transparency.map { max(0, min(1, 1 - $0 / 255)) }
        if InkMLUnits.statesLength(cx) { lengthTraces += 1 } else { numberTraces += 1 }
        var width: Double?
        if let w = c.brush.width {
            width = c.brush.widthUnits.flatMap(InkMLUnits.pixels(per:)).map { w * $0 } ?? w * sx
        }
        if fi != nil, !c.brush.ignoresPressure, !declared { rawForce.append((strokes.count, false)) }
        strokes.append(InkDrawing.Stroke(points: points, color: c.brush.color, width: width, erases: c.brush.erases,
                                         opacity: opacity == 1 ? nil : opacity))
    }
}
