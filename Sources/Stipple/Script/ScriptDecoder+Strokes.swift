/// `points` entries: a stroke's touch samples and its style (docs/reference.md §6, docs/strokes.md).
extension ScriptDecoder {
    static let strokeEntryKeys = ["brush", "points", "color", "radius", "spacing", "smoothing", "opacity",
                                  "pressure", "speed", "rotation", "seedIndex"] + modeKeys
    static let sampleKeys = ["x", "y", "t", "pressure"]
    static let pressureKeys = ["radius", "opacity", "missing"]
    static let speedKeys = ["slow", "fast", "slowFactor", "fastFactor"]

    func strokeSpec(_ members: [Member], samples value: JSONValue, context: String,
                    index: Int, fps: Double) throws(InputError) -> StrokeSpec {
        var style = StrokeStyle(color: .black, radius: 4)
        if let m = member("color", in: members) {
            if case .array = m.value.kind {
                style.color = try colorArray(m.value)  // [r, g, b, a], 0…1: what a saved drawing writes
            } else {
                let text = try string(m.value, for: "color")
                guard let c = Color(hex: text) else {
                    throw fail(m.value.location, "color must be \"#rrggbb\" or \"#rrggbbaa\"; found \"\(text)\"")
                }
                style.color = c
            }
        }
        if let m = member("radius", in: members) {
            style.radius = try bounded(m.value, "radius", 0...4096, "0 to 4096 pixels")
        }
        if let m = member("spacing", in: members) {
            style.spacing = try bounded(m.value, "spacing", 0.01...10, "0.01 to 10 (a share of the stamp's diameter)")
        }
        if let m = member("smoothing", in: members) {
            style.smoothing = try bounded(m.value, "smoothing", 0...1, "0 (straight segments) to 1")
        }
        if let m = member("opacity", in: members) {
            style.opacity = try bounded(m.value, "opacity", 0...1, "0 to 1")
        }
        if let m = member("pressure", in: members) { style.pressure = try pressure(m.value) }
        if let m = member("speed", in: members) { style.speed = try speed(m.value) }
        if let m = member("rotation", in: members) { style.rotation = try rotation(m.value) }

        let items = try array(value, for: "points in \(context)")
        guard !items.isEmpty else {
            throw fail(value.location, "a stroke needs at least one touch sample in points; found none")
        }
        guard items.count <= Limits.maxSamplesPerStroke else {
            throw fail(value.location, "\(context) has \(items.count) touch samples; a stroke may have at most \(Limits.maxSamplesPerStroke)")
        }
        var samples: [TouchSample] = []
        samples.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            let sample = try touchSample(item, ordinal: i + 1)
            guard abs(sample.t * fps) <= Limits.maxTouchFrame else {
                let t = member("t", in: try object(item, for: "touch sample"))!
                let seconds = Limits.maxTouchFrame / fps
                throw fail(t.value.location, "t of touch sample \(i + 1) is \(literalText(t.value)) s, frame \((sample.t * fps).rounded(.down)) at \(fps) fps; "
                           + "touch times must fall within \(Int(Limits.maxTouchFrame)) frames of frame 0 (±\(seconds) s at this fps)")
            }
            if let last = samples.last, sample.t < last.t {
                let t = member("t", in: try object(item, for: "touch sample"))!
                throw fail(t.value.location, "touch sample \(i + 1) is at t = \(sample.t) s, before sample \(i) at \(last.t) s; touch times must not go back")
            }
            samples.append(sample)
        }
        return StrokeSpec(samples: samples, style: style, index: index)
    }

    private func touchSample(_ value: JSONValue, ordinal: Int) throws(InputError) -> TouchSample {
        let what = "touch sample \(ordinal)"
        let members = try object(value, for: what)
        try checkKeys(members, allowed: ScriptDecoder.sampleKeys, in: what)
        let x = try float(required("x", in: members, of: value, context: what).value, for: "x of \(what)")
        let y = try float(required("y", in: members, of: value, context: what).value, for: "y of \(what)")
        let t = try number(required("t", in: members, of: value, context: what).value, for: "t of \(what)").0
        var pressure: Float?
        if let m = member("pressure", in: members) {
            pressure = try bounded(m.value, "pressure of \(what)", 0...1, "0 to 1")
        }
        return TouchSample(x: x, y: y, t: t, pressure: pressure)
    }

    private func bounded(_ value: JSONValue, _ what: String, _ range: ClosedRange<Float>,
                         _ expected: String) throws(InputError) -> Float {
        try float(value, for: what, in: Double(range.lowerBound)...Double(range.upperBound), expected: expected)
    }

    /// `[low, high]`: a factor at pressure 0 and at pressure 1.
    private func factorRange(_ value: JSONValue, _ what: String) throws(InputError) -> ClosedRange<Float> {
        let items = try array(value, for: what)
        guard items.count == 2 else {
            throw fail(value.location, "\(what) must be [at pressure 0, at pressure 1], two numbers; found \(items.count)")
        }
        let low = try bounded(items[0], what, 0...16, "0 to 16")
        let high = try bounded(items[1], what, 0...16, "0 to 16")
        guard low <= high else {
            throw fail(value.location, "\(what) must not fall as pressure rises: [\(low), \(high)]")
        }
        return low...high
    }

    private func pressure(_ value: JSONValue) throws(InputError) -> PressureMapping {
        let members = try object(value, for: "pressure")
        try checkKeys(members, allowed: ScriptDecoder.pressureKeys, in: "pressure")
        var mapping = PressureMapping()
        if let m = member("radius", in: members) { mapping.radius = try factorRange(m.value, "pressure radius") }
        if let m = member("opacity", in: members) {
            mapping.opacity = try factorRange(m.value, "pressure opacity")
            guard mapping.opacity.upperBound <= 1 else {
                throw fail(m.value.location, "pressure opacity factors must be from 0 to 1")
            }
        }
        if let m = member("missing", in: members) {
            mapping.missingPressure = try bounded(m.value, "pressure missing", 0...1, "0 to 1")
        }
        return mapping
    }

    private func speed(_ value: JSONValue) throws(InputError) -> SpeedMapping? {
        if case let .bool(on) = value.kind { return on ? SpeedMapping() : nil }
        let members = try object(value, for: "speed (true, false or an object)")
        try checkKeys(members, allowed: ScriptDecoder.speedKeys, in: "speed")
        let d = SpeedMapping()
        let slow = try member("slow", in: members).map { m throws(InputError) in
            try bounded(m.value, "speed slow", 0...1_000_000, "0 to 1000000 px/s") } ?? d.slowSpeed
        let fast = try member("fast", in: members).map { m throws(InputError) in
            try bounded(m.value, "speed fast", 0...1_000_000, "0 to 1000000 px/s") } ?? d.fastSpeed
        guard slow < fast else {
            throw fail(value.location, "speed slow (\(slow) px/s) must be below speed fast (\(fast) px/s)")
        }
        let slowFactor = try member("slowFactor", in: members).map { m throws(InputError) in
            try bounded(m.value, "speed slowFactor", 0...16, "0 to 16") } ?? d.slowRadiusFactor
        let fastFactor = try member("fastFactor", in: members).map { m throws(InputError) in
            try bounded(m.value, "speed fastFactor", 0...16, "0 to 16") } ?? d.fastRadiusFactor
        return SpeedMapping(slowSpeed: slow, fastSpeed: fast, slowRadiusFactor: slowFactor, fastRadiusFactor: fastFactor)
    }

    private func rotation(_ value: JSONValue) throws(InputError) -> StampRotation {
        if case let .string(text) = value.kind {
            switch text {
            case "follow": return .followStroke
            case "none": return .none
            default:
                throw fail(value.location, "rotation must be a number of radians, \"follow\" or \"none\"; found \"\(text)\"")
            }
        }
        let v = try float(value, for: "rotation (radians, \"follow\" or \"none\")")
        return v == 0 ? .none : .fixed(v)
    }
}
