/// A script's strokes as standard InkML (docs/ink-formats.md): channels X Y (pixels, their
/// ranges the canvas) T (seconds) and F (the sample's pressure, 0…1, in traces that have
/// it), one `<brush>` per colour, width and eraser. Numbers are written so they read back
/// exactly, so importing the file gives a script that renders the same image.
package enum InkMLWriter {
    package static func inkML(_ script: Script) throws(InputError) -> String {
        if script.session.ops.contains(where: { _ in true }) {
            throw InputError(file: script.path, "has undo, redo or clear entries; InkML holds strokes only (render the drawing, or remove them)")
        }
        let w = script.canvas.width, h = script.canvas.height
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ink xmlns=\"http://www.w3.org/2003/InkML\">\n  <definitions>\n"
        for (id, hasForce) in [("ctxP", true), ("ctx", false)] {
            out += "    <context xml:id=\"\(id)\">\n      <inkSource xml:id=\"\(id)-source\">\n        <traceFormat>\n"
            out += "          <channel name=\"X\" type=\"decimal\" min=\"0\" max=\"\(w)\" units=\"px\"/>\n"
            out += "          <channel name=\"Y\" type=\"decimal\" min=\"0\" max=\"\(h)\" units=\"px\"/>\n"
            out += "          <channel name=\"T\" type=\"decimal\" units=\"s\"/>\n"
            if hasForce { out += "          <channel name=\"F\" type=\"decimal\" min=\"0\" max=\"1\"/>\n" }
            out += "        </traceFormat>\n      </inkSource>\n    </context>\n"
        }
        var brushes: [String: String] = [:]   // key → id
        var brushText = ""
        var traces = ""
        for entry in script.draw {
            guard let stroke = entry.stroke else {
                throw InputError(file: script.path, location: entry.location,
                                 "this entry is stamps, not a stroke of pen samples; only points entries become InkML traces")
            }
            let s = stroke.style
            let erases = s.mode?.blend == .erase
            let color = InkScriptWriter.colorHex(s.color).replacingOccurrences(of: "\"", with: "")
            let width = Double(s.radius) * 2
            let key = "\(color) \(width) \(erases)"
            let id: String
            if let known = brushes[key] { id = known } else {
                id = erases ? "eraser\(brushes.count)" : "brush\(brushes.count)"
                brushes[key] = id
                brushText += "    <brush xml:id=\"\(id)\">\n"
                brushText += "      <brushProperty name=\"width\" value=\"\(width)\" units=\"px\"/>\n"
                brushText += "      <brushProperty name=\"height\" value=\"\(width)\" units=\"px\"/>\n"
                brushText += "      <brushProperty name=\"color\" value=\"\(color.prefix(7))\"/>\n"
                if color.count == 9, color.suffix(2) != "ff", let a = Int(color.suffix(2), radix: 16) {
                    brushText += "      <brushProperty name=\"transparency\" value=\"\(255 - a)\"/>\n"
                }
                brushText += "      <brushProperty name=\"tip\" value=\"\(erases ? "eraser" : "ellipse")\"/>\n"
                brushText += "    </brush>\n"
            }
            let hasForce = stroke.samples.allSatisfy { $0.pressure != nil }
            traces += "  <trace contextRef=\"#\(hasForce ? "ctxP" : "ctx")\" brushRef=\"#\(id)\">"
            traces += stroke.samples.map { p in
                var v = "\(Double(p.x)) \(Double(p.y)) \(p.t)"
                if hasForce, let f = p.pressure { v += " \(Double(f))" }
                return v
            }.joined(separator: ", ")
            traces += "</trace>\n"
        }
        out += brushText + "  </definitions>\n" + traces + "</ink>\n"
        return out
    }
}
