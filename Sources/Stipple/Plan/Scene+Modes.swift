extension Scene {
    /// True when some draw entry is drawn as a stroke layer (one that reads the canvas).
    package var hasStrokeLayers: Bool { FramePasses(batches).hasLayers }

    /// The render frames at which "detect edges" strokes read their reference in a bake: the
    /// read frame (`edgeReadFrame`: the frame their first sample is born, frame 0 for one born
    /// before it), or, when an undo hides them then, the first frame after it that draws them
    /// (visibility changes only at the session entries' frames).
    package var edgeBirthFrames: [Int] {
        let changes = Set(session.ops.map { $0.frame - session.startFrame }).sorted()
        return batches.indices.compactMap { i in
            guard batches[i].mode?.edgeTolerance != nil, let a = batches[i].edgeAnchor else { return nil }
            let read = edgeReadFrame(a)
            return ([read] + changes.filter { $0 > read }).first { state(atFrame: $0).entries.contains(i) }
        }
    }

    /// Each draw entry with a brush mode (numbered from 1) and its keys in words.
    package var strokeLayerSummary: [(entry: Int, text: String)] {
        FramePasses(batches).passes.compactMap {
            if case let .layer(i, mode) = $0 { return (i + 1, mode.summary) } else { return nil }
        }
    }
}

extension StrokeMode {
    /// A mode that paints where this one may change the canvas: its shadow, if it casts
    /// one, opaque; nil (plain stamps) otherwise.
    package var footprint: StrokeMode? {
        guard var s = shadow else { return nil }
        s.color = Color(red: 0, green: 0, blue: 0, alpha: 1)
        var m = StrokeMode()
        m.shadow = s
        return m
    }

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
