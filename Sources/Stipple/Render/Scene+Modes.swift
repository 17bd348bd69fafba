extension Scene {
    /// True when some draw entry has a brush mode (a stroke layer that reads the canvas).
    package var hasStrokeLayers: Bool { batches.contains { $0.mode != nil } }

    /// Each draw entry with a brush mode (numbered from 1) and its keys in words.
    package var strokeLayerSummary: [(entry: Int, text: String)] {
        batches.enumerated().compactMap { i, b in b.mode.map { (i + 1, $0.summary) } }
    }
}

extension StrokeMode {
    /// The keys as a script would give them, in words: "effect desaturate, strokeOpacity 0.5, edges 32".
    package var summary: String {
        var parts: [String] = []
        if let e = effect { parts.append("effect \(e.rawValue)") } else { parts.append("blend \(blend.rawValue)") }
        if strokeOpacity != 1 { parts.append("strokeOpacity \(strokeOpacity)") }
        if let t = edgeTolerance { parts.append("edges tolerance \(t)") }
        if let s = shadow {
            parts.append("shadow offset [\(s.dx), \(s.dy)] blur \(s.blur) color \(s.color.hexString)")
        }
        return parts.joined(separator: ", ")
    }
}

extension Color {
    /// `#rrggbbaa`, each channel rounded to 8 bits.
    var hexString: String {
        "#" + [red, green, blue, alpha].map { v -> String in
            let b = Int((min(max(v, 0), 1) * 255).rounded())
            return (b < 16 ? "0" : "") + String(b, radix: 16)
        }.joined()
    }
}
