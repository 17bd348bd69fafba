/// A stroke script, decoded and validated (docs/reference.md §9): everything a renderer needs,
/// with paths resolved against the script's folder and the locations kept for the
/// errors that only rendering can find (a canvas over the driver's limit, a corrupt PNG).
public struct Script: Sendable {
    /// The script's path as given, used in messages.
    public var path: String
    /// Its folder; relative paths in the script resolve against it.
    public var directory: String
    /// The canvas: size and background.
    public var canvas: CanvasSpec
    /// Where the script's `canvas` key is; nil when the script has none and took the
    /// caller's default (a bake: the video's size).
    package var canvasLocation: InputLocation?
    /// Converts touch times in seconds into frames. Default 30, > 0.
    public var fps: Double
    /// Where the script gives `fps`; nil when it takes the default.
    package var fpsLocation: InputLocation?
    /// Frames a stamp lives; 0 (the default) means stamps never age (docs/reference.md §3).
    public var maxAge: Float
    /// Pixels a dying stamp drifts (docs/reference.md §3). Default 6, finite.
    public var dissolveDistance: Float
    /// Scales every stamp's diameter (docs/reference.md §3). Default 1, > 0.
    public var pointScale: Float
    /// Seeds every random choice (docs/reference.md §6). Default 0; a whole number 0...2^53.
    public var seed: UInt64
    /// The brushes by name: PNG files or built-in brushes.
    public var brushes: [String: BrushSpec]
    /// Brush names in the order written.
    public var brushOrder: [String]
    /// Drawn in order: the stroke entries (`stamps` or `points`).
    public var draw: [DrawEntry]
    /// The session entries of `draw` (undo, redo, clear: docs/reference.md §12), each with its place among
    /// the stroke entries, and `startFrame`.
    package var session = SessionTimeline()
    /// What the script's draw entries use of `Limits.maxStampsPerScript` and
    /// `Limits.maxStrokeWalkPerScript` (live strokes share what is left).
    package var stampsUsed = 0
    package var walkUsed = 0
    /// How many times faster than drawn touch times and session entries play (a timelapse,
    /// `Script.play(atSpeed:)`). Default 1. Stamp ages still count output frames.
    public internal(set) var speed: Double = 1

    /// Frames a second when a script gives none: 30.
    public static let defaultFPS: Double = 30
    /// Pixels a dying stamp drifts when a script gives none: 6.
    public static let defaultDissolveDistance: Float = 6
    /// `seed` is at most this, so that it survives any JSON reader as an exact integer.
    package static let maxSeed: UInt64 = 1 << 53

    /// A script made in code: `path` names it in errors and `directory` resolves the files it
    /// names; the other values are the keys of the JSON form, with its defaults.
    public init(path: String, directory: String, canvas: CanvasSpec, fps: Double = defaultFPS,
                maxAge: Float = 0, dissolveDistance: Float = defaultDissolveDistance, pointScale: Float = 1,
                seed: UInt64 = 0, brushes: [String: BrushSpec] = [:], brushOrder: [String] = [],
                draw: [DrawEntry] = []) {
        self.path = path; self.directory = directory; self.canvas = canvas
        self.fps = fps; self.maxAge = maxAge; self.dissolveDistance = dissolveDistance
        self.pointScale = pointScale; self.seed = seed
        self.brushes = brushes; self.brushOrder = brushOrder; self.draw = draw
    }

    /// Reads, parses and validates the script at `path`. A missing or unreadable file,
    /// like every problem in it, is an `InputError` naming the file.
    /// `defaultCanvas`, when given, is the canvas of a script that has none (a bake gives
    /// the video's size); without it `canvas` is required.
    public static func load(path: String, defaultCanvas: CanvasSpec? = nil) throws(InputError) -> Script {
        let bytes = try FileSystem.readBytes(path: path)
        return try parse(bytes: bytes, path: path, directory: FileSystem.folder(of: path), defaultCanvas: defaultCanvas)
    }

    /// Parses and validates a script's bytes. `path` names it in messages; relative paths
    /// in it resolve against `directory`, which must exist for the checks that files do.
    public static func parse(bytes: [UInt8], path: String, directory: String,
                             defaultCanvas: CanvasSpec? = nil) throws(InputError) -> Script {
        let root = try JSONParser.parse(bytes, file: path)
        var decoder = ScriptDecoder(path: path, directory: directory, defaultCanvas: defaultCanvas)
        return try decoder.decode(root)
    }

    /// The files this script reads: itself, its brush and background PNGs and its
    /// `.sketchpoints` files (resolved paths). No output may be any of them.
    package var inputFiles: [String] {
        var files = [path]
        for name in brushOrder {
            if case let .file(file, _) = brushes[name] { files.append(file) }
        }
        if case let .image(file, _) = canvas.background { files.append(file) }
        return files + draw.compactMap(\.source)
    }
}
