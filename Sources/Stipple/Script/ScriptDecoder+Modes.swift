/// The brush-mode keys of `stamps` and `points` entries: `blend`, `strokeOpacity`, `effect`,
/// `edges` and `shadow` (docs/brush-modes.md). An entry with none of them has no mode.
extension ScriptDecoder {
    static let modeKeys = ["blend", "strokeOpacity", "effect", "edges", "shadow"]
    static let edgesKeys = ["tolerance"]
    static let shadowKeys = ["offset", "blur", "color"]

    func strokeMode(_ members: [Member], context: String) throws(InputError) -> StrokeMode? {
        guard members.contains(where: { ScriptDecoder.modeKeys.contains($0.key) }) else { return nil }
        var mode = StrokeMode()
        let blend = member("blend", in: members)
        if let m = blend {
            let name = try string(m.value, for: "blend in \(context)")
            guard let b = StrokeMode.Blend(rawValue: name) else {
                throw fail(m.value.location, "unknown blend \"\(name)\"; expected one of: "
                           + StrokeMode.Blend.allCases.map(\.rawValue).joined(separator: ", "))
            }
            mode.blend = b
        }
        if let m = member("strokeOpacity", in: members) {
            mode.strokeOpacity = try float(m.value, for: "strokeOpacity", in: 0...1, expected: "0 to 1")
        }
        if let m = member("effect", in: members) {
            let name = try string(m.value, for: "effect in \(context)")
            guard let e = StrokeMode.Effect(rawValue: name) else {
                throw fail(m.value.location, "unknown effect \"\(name)\"; expected one of: "
                           + StrokeMode.Effect.allCases.map(\.rawValue).joined(separator: ", "))
            }
            if let b = blend {
                throw fail(b.keyLocation, "\(context) has both \"blend\" and \"effect\"; an effect adjusts the canvas "
                           + "instead of laying paint, so give one or the other")
            }
            mode.effect = e
        }
        if let m = member("edges", in: members) {
            let edges = try object(m.value, for: "edges (expected { \"tolerance\": 0…255 })")
            try checkKeys(edges, allowed: ScriptDecoder.edgesKeys, in: "edges")
            var t = StrokeMode.defaultEdgeTolerance
            if let tm = member("tolerance", in: edges) {
                t = try wholeNumber(tm.value, for: "edges tolerance (per 8-bit channel)", in: 0...255)
            }
            mode.edgeTolerance = t
        }
        if let m = member("shadow", in: members) {
            if mode.blend == .erase || mode.effect != nil {
                let what = mode.effect.map { "the \($0.rawValue) effect" } ?? "an erase stroke"
                throw fail(m.keyLocation, "\(what) cannot cast a shadow; a shadow goes with blend over, multiply or screen")
            }
            mode.shadow = try shadow(m.value)
        }
        return mode
    }

    private func shadow(_ value: JSONValue) throws(InputError) -> StrokeMode.Shadow {
        let members = try object(value, for: "shadow (expected { \"offset\": [dx, dy], \"blur\": σ, \"color\": \"#rrggbbaa\" })")
        try checkKeys(members, allowed: ScriptDecoder.shadowKeys, in: "shadow")
        var s = StrokeMode.Shadow()
        if let m = member("offset", in: members) {
            let items = try array(m.value, for: "shadow offset")
            guard items.count == 2 else {
                throw fail(m.value.location, "shadow offset must be [dx, dy], two whole numbers of pixels; found \(counted(items.count, "item"))")
            }
            let limit = StrokeMode.Shadow.maxOffset
            s.dx = try wholeNumber(items[0], for: "shadow offset dx (whole pixels)", in: -limit...limit)
            s.dy = try wholeNumber(items[1], for: "shadow offset dy (whole pixels)", in: -limit...limit)
        }
        if let m = member("blur", in: members) {
            let most = StrokeMode.Shadow.maxBlur
            s.blur = try float(m.value, for: "shadow blur (σ in pixels)", in: 0...Double(most), expected: "0 to \(Int(most))")
        }
        if let m = member("color", in: members) {
            if case .array = m.value.kind {
                s.color = try colorArray(m.value)
            } else {
                let text = try string(m.value, for: "shadow color")
                guard let c = Color(hex: text) else {
                    throw fail(m.value.location, "shadow color must be \"#rrggbb\" or \"#rrggbbaa\"; found \"\(text)\"")
                }
                s.color = c
            }
        }
        return s
    }
}
