import Stipple
/// A test folder's optional `stipple-test.json`: a folder-wide tolerance and primitive, and
/// per-case frames, tolerances, ignored rectangles and primitives. Strict like scripts:
/// an unknown key, a wrong type or a case without a script is an error at its line:column.
///
/// ```json
/// { "tolerance": { "maxChannelDiff": 2, "maxPixels": "0.1%" },
///   "primitive": "quads",
///   "cases": { "ages": { "frames": [0, 5, 55], "ignore": [[0, 0, 10, 10]],
///                        "tolerance": { "perceptual": 0.1, "antialiasing": true } } } }
/// ```
/// A tolerance given here replaces the default (`.exact` for this driver's goldens,
/// `.crossDriver` for another driver's quads) entirely; a case's replaces the folder's.
/// Fields a tolerance leaves out are 0 / off. `ignore` adds to whichever tolerance applies.
public struct GoldenConfig: Sendable, Equatable {
    /// One case's settings in `stipple-test.json`.
    public struct Case: Sendable, Equatable {
        /// Frames to check, ascending, no repeats; nil: frame 0.
        public var frames: [Int]?
        /// The case's tolerance; nil: the folder's, or the default.
        public var tolerance: GoldenTolerance?
        /// Rectangles left out of the comparison.
        public var ignore: [GoldenTolerance.Region] = []
        /// The case's primitive; nil: the folder's.
        public var primitive: Primitive?
        /// Settings with nothing set.
        public init() {}
    }

    /// The settings file's name in a test folder.
    public static let fileName = "stipple-test.json"

    /// The folder's tolerance for every case; nil: exact (or cross-driver for another driver's quads).
    public var tolerance: GoldenTolerance?
    /// The folder's primitive; nil: points.
    public var primitive: Primitive?
    /// Settings of single cases, by script name.
    public var cases: [String: Case] = [:]

    /// An empty configuration: every case at frame 0 with the default tolerance.
    public init() {}

    static let topKeys = ["tolerance", "primitive", "cases"]
    static let caseKeys = ["frames", "tolerance", "ignore", "primitive"]
    static let toleranceKeys = ["maxChannelDiff", "maxPixels", "perceptual", "metric", "checkerboard", "window", "antialiasing"]

    /// Reads `path`. `scriptNames` are the folder's case names: a case not among them is an error.
    public static func load(path: String, scriptNames: Set<String>) throws(InputError) -> GoldenConfig {
        let (root, d) = try JSONReader.load(path: path)
        var config = GoldenConfig()
        let members = try d.object(root, for: "the test folder's configuration")
        try d.checkKeys(members, allowed: topKeys, in: "\(fileName)")
        if let m = d.member("tolerance", in: members) { config.tolerance = try tolerance(m.value, d) }
        if let m = d.member("primitive", in: members) { config.primitive = try primitive(m.value, d) }
        if let m = d.member("cases", in: members) {
            for c in try d.object(m.value, for: "cases") {
                guard scriptNames.contains(c.key) else {
                    throw d.fail(c.keyLocation, "case \"\(c.key)\" has no script \(c.key).json in this folder"
                                 + (scriptNames.isEmpty ? "" : "; cases: \(scriptNames.sorted().joined(separator: ", "))"))
                }
                config.cases[c.key] = try testCase(c.value, name: c.key, d)
            }
        }
        return config
    }

    private static func testCase(_ value: JSONValue, name: String, _ d: JSONReader) throws(InputError) -> Case {
        let members = try d.object(value, for: "case \"\(name)\"")
        try d.checkKeys(members, allowed: caseKeys, in: "case \"\(name)\"")
        var c = Case()
        if let m = d.member("frames", in: members) {
            let items = try d.array(m.value, for: "frames")
            guard !items.isEmpty else { throw d.fail(m.value.location, "frames is empty; expected frame numbers such as [0, 5]") }
            var frames: [Int] = []
            for item in items {
                let f = try whole(item, "a frame", 0...Limits.maxFrame, d)
                guard !frames.contains(f) else { throw d.fail(item.location, "frame \(f) is listed twice") }
                frames.append(f)
            }
            c.frames = frames.sorted()
        }
        if let m = d.member("tolerance", in: members) { c.tolerance = try tolerance(m.value, d) }
        if let m = d.member("primitive", in: members) { c.primitive = try primitive(m.value, d) }
        if let m = d.member("ignore", in: members) {
            for r in try d.array(m.value, for: "ignore") {
                let xs = try d.array(r, for: "an ignored rectangle [x, y, width, height]")
                guard xs.count == 4 else {
                    throw d.fail(r.location, "an ignored rectangle is [x, y, width, height], found \(counted(xs.count, "number"))")
                }
                var v: [Int] = []
                for (i, x) in xs.enumerated() {
                    v.append(try whole(x, ["x", "y", "width", "height"][i], i < 2 ? 0...65_536 : 1...65_536, d))
                }
                c.ignore.append(.init(x: v[0], y: v[1], width: v[2], height: v[3]))
            }
        }
        return c
    }

    /// `{ "maxChannelDiff": K, "maxPixels": P | "P%", "perceptual": 0…1, "metric": "yiq" | "oklab",
    /// "checkerboard": bool, "window": N, "antialiasing": bool }`.
    static func tolerance(_ value: JSONValue, _ d: JSONReader) throws(InputError) -> GoldenTolerance {
        let members = try d.object(value, for: "tolerance")
        try d.checkKeys(members, allowed: toleranceKeys, in: "tolerance")
        var t = GoldenTolerance()
        if let m = d.member("maxChannelDiff", in: members) {
            t.maxChannelDifference = try whole(m.value, "maxChannelDiff", 0...255, d)
        }
        if let m = d.member("maxPixels", in: members) {
            if case let .string(s) = m.value.kind {
                guard s.contains("%"), let limit = GoldenTolerance.PixelLimit(s) else {
                    throw d.fail(m.value.location, "maxPixels is a count (32), a share of the image (\"0.1%\") or both (\"32+0.1%\"), found \"\(s)\"")
                }
                t.setMaxPixels(limit)
            } else {
                t.maxPixels = try whole(m.value, "maxPixels (a count, or a share such as \"0.1%\")", 0...Int(Int32.max), d)
            }
        }
        if let m = d.member("perceptual", in: members) {
            let (v, literal) = try d.number(m.value, for: "perceptual")
            guard v >= 0, v <= 1 else { throw d.fail(m.value.location, "perceptual is a threshold from 0 to 1 (0.1 is typical), found \(literal)") }
            t.perceptualThreshold = v
        }
        if let m = d.member("metric", in: members) {
            let s = try d.string(m.value, for: "metric")
            guard let metric = GoldenTolerance.PerceptualMetric(rawValue: s) else {
                throw d.fail(m.value.location, "metric is \"yiq\" (pixelmatch 6) or \"oklab\" (pixelmatch 7), found \"\(s)\"")
            }
            guard t.perceptualThreshold != nil else {
                throw d.fail(m.value.location, "metric chooses the perceptual distance: give \"perceptual\" (a threshold) with it")
            }
            t.metric = metric
        }
        if let m = d.member("checkerboard", in: members) {
            let on = try d.bool(m.value, for: "checkerboard")
            guard t.metric == .oklab else {
                throw d.fail(m.value.location, "checkerboard applies to \"metric\": \"oklab\" only")
            }
            t.checkerboard = on
        }
        if let m = d.member("window", in: members) {
            t.windowSize = try whole(m.value, "window (the side of the square P is counted in, pixels)", 1...65536, d)
        }
        if let m = d.member("antialiasing", in: members) {
            t.ignoreAntialiasing = try d.bool(m.value, for: "antialiasing")
        }
        return t
    }

    private static func primitive(_ value: JSONValue, _ d: JSONReader) throws(InputError) -> Primitive {
        let s = try d.string(value, for: "primitive")
        guard let p = Primitive(rawValue: s) else {
            throw d.fail(value.location, "primitive is \"points\" or \"quads\", found \"\(s)\"")
        }
        return p
    }

    private static func whole(_ value: JSONValue, _ what: String, _ range: ClosedRange<Int>,
                              _ d: JSONReader) throws(InputError) -> Int {
        let (v, literal) = try d.number(value, for: what)
        guard v == v.rounded(), v >= Double(range.lowerBound), v <= Double(range.upperBound) else {
            throw d.fail(value.location, "\(what) must be a whole number from \(range.lowerBound) to \(range.upperBound), found \(literal)")
        }
        return Int(v)
    }
}
