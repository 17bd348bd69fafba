extension StrokeMode {
    /// The mode as a draw entry's keys, each preceded by ", " (what a saved drawing writes;
    /// reading them back gives this mode). `number` writes a 32-bit float exactly.
    func scriptKeys(_ number: (Float) -> String) -> String {
        var e = ""
        if let effect { e += ", \"effect\": \"\(effect.rawValue)\"" } else { e += ", \"blend\": \"\(blend.rawValue)\"" }
        e += ", \"strokeOpacity\": \(number(strokeOpacity))"
        if let t = edgeTolerance { e += ", \"edges\": { \"tolerance\": \(t) }" }
        if let s = shadow {
            let c = s.color
            e += ", \"shadow\": { \"offset\": [\(s.dx), \(s.dy)], \"blur\": \(number(s.blur)), "
            e += "\"color\": [\(number(c.red)), \(number(c.green)), \(number(c.blue)), \(number(c.alpha))] }"
        }
        return e
    }
}
