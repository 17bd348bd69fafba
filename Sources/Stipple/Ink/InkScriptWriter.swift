/// An `InkPlan` as a JSON script (docs/script-format.md). Every number is written so that
/// reading it back gives the same 32-bit float or double, so the script renders exactly
/// as the ink it came from: rendering an ink file is rendering this text.
package enum InkScriptWriter {
    package static func json(_ plan: InkPlan) -> String {
        var out = "{\n"
        out += "  \"canvas\": { \"width\": \(plan.width), \"height\": \(plan.height), \"background\": \(colorHex(plan.background)) },\n"
        out += "  \"fps\": \(InkOptions.fps), \"startFrame\": \(plan.startFrame),\n"
        out += "  \"brushes\": { \"ink\": { \"builtin\": \"\(plan.brush.rawValue)\", \"size\": \(InkOptions.brushSize) } },\n"
        out += "  \"draw\": ["
        var first = true
        for stroke in plan.strokes {
            out += first ? "\n" : ",\n"
            first = false
            let c = stroke.style.color
            out += "    { \"brush\": \"ink\", \"color\": [\(n(c.red)), \(n(c.green)), \(n(c.blue)), \(n(c.alpha))], "
            out += "\"radius\": \(n(stroke.style.radius))"
            if stroke.style.spacing != StrokeStyle.defaultSpacing { out += ", \"spacing\": \(n(stroke.style.spacing))" }
            if let mode = stroke.style.mode { out += mode.scriptKeys { n($0) } }
            out += ",\n      \"points\": ["
            var firstPoint = true
            for s in stroke.samples {
                out += firstPoint ? "" : ", "
                firstPoint = false
                out += "{ \"x\": \(n(s.x)), \"y\": \(n(s.y)), \"t\": \(s.t)"
                if let p = s.pressure { out += ", \"pressure\": \(n(p))" }
                out += " }"
            }
            out += "] }"
        }
        out += plan.strokes.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return out
    }

    /// A 32-bit float written so that reading it as a double and rounding to float gives it exactly.
    static func n(_ f: Float) -> String { "\(Double(f))" }

    static func colorHex(_ c: Color) -> String {
        func byte(_ v: Float) -> String {
            let b = Int((min(1, max(0, v)) * 255).rounded())
            return String(b, radix: 16).count == 1 ? "0" + String(b, radix: 16) : String(b, radix: 16)
        }
        return "\"#\(byte(c.red))\(byte(c.green))\(byte(c.blue))\(byte(c.alpha))\""
    }
}
