import Stipple
/// One golden check: a script at one frame, drawn with one primitive.
public struct GoldenCase: Sendable, Equatable {
    /// "NAME", or "NAME@frame-NNNN" when the case lists frames other than just [0].
    public var name: String
    /// The script's file name without ".json": the key in `stipple-test.json`.
    public var scriptName: String
    /// The script's path.
    public var scriptPath: String
    /// The frame rendered and compared.
    public var frame: Int
    /// Points or quads: goldens are kept apart by primitive.
    public var primitive: Primitive
    /// The configured tolerance; nil: the default for where the golden came from
    /// (`.exact` for this driver's, `.crossDriver` for another driver's quads).
    public var tolerance: GoldenTolerance?
    /// Rectangles left out of the comparison, added to whichever tolerance applies.
    public var ignore: [GoldenTolerance.Region]

    /// A case checking frame `frame` of the script at `scriptPath`, drawn as `primitive`.
    public init(name: String, scriptName: String, scriptPath: String, frame: Int = 0, primitive: Primitive = .points,
                tolerance: GoldenTolerance? = nil, ignore: [GoldenTolerance.Region] = []) {
        self.name = name; self.scriptName = scriptName; self.scriptPath = scriptPath; self.frame = frame
        self.primitive = primitive; self.tolerance = tolerance; self.ignore = ignore
    }

    /// The tolerance to compare with, given whether the golden is another driver's.
    public func effectiveTolerance(crossDriver: Bool) -> GoldenTolerance {
        var t = tolerance ?? (crossDriver ? .crossDriver : .exact)
        t.ignoreRegions += ignore
        return t
    }

    /// "ages" for frame 0 alone, "ages@frame-0005" otherwise.
    public static func name(script: String, frame: Int, framed: Bool) -> String {
        guard framed else { return script }
        let digits = String(frame)
        return "\(script)@frame-\(String(repeating: "0", count: max(0, 4 - digits.count)))\(digits)"
    }
}
