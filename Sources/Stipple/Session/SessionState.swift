/// How much of a drawing session stays undoable (docs/sessions.md).
///
/// The newest steps (a stroke or a clear each) stay as data, up to `steps` of them and up to
/// `bytes` of memory, whichever is reached first (MyPaint and Krita cap by memory as well as
/// by count); the newest step always stays, however large. Older strokes are baked into the
/// backing layer, at most `bakeMilliseconds` of baking per frame (at least one stroke).
public struct UndoLimits: Sendable, Equatable {
    /// Default 30, as MyPaint and Krita (JotUI kept 10). At least 1.
    public var steps: Int
    /// Default 64 MiB: touch samples, stamps, and the backing layers that undoable clears hid.
    public var bytes: Int
    /// Default 4 ms of baking per frame.
    public var bakeMilliseconds: Double

    /// Undo steps kept by default: 30.
    public static let defaultSteps = 30
    /// Bytes of strokes kept as data by default: 64 MiB.
    public static let defaultBytes = 64 << 20
    /// Milliseconds a frame may spend baking old strokes by default: 4.
    public static let defaultBakeMilliseconds = 4.0

    /// Limits of `steps` undo steps and `bytes` of kept strokes; baking old strokes takes at
    /// most `bakeMilliseconds` of a frame.
    public init(steps: Int = defaultSteps, bytes: Int = defaultBytes, bakeMilliseconds: Double = defaultBakeMilliseconds) {
        precondition(steps >= 1, "the undo depth is at least 1 step")
        precondition(bytes >= 0 && bakeMilliseconds >= 0)
        self.steps = steps; self.bytes = bytes; self.bakeMilliseconds = bakeMilliseconds
    }
}

/// Why an undo, redo or clear was refused.
public struct SessionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What the session could not do, in one line.
    public var message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// A stroke kept as data: what rebuilds it (touch samples and style) and its layer.
struct KeptStroke {
    var seedIndex: Int
    /// nil once its stamps are all dead (maxAge > 0) and its GL buffers were freed.
    var layer: LayerID?
    let brushKey: String
    let brush: Brush
    let style: StrokeStyle
    var samples: [TouchSample] = []
    var stampCount = 0
    /// The birth frame of its newest stamp.
    var lastBirth = -Float.infinity
    var isOpen = true

    /// Memory held for it: samples, and stamps on the CPU (GL holds as much again).
    var bytes: Int { samples.count * MemoryLayout<TouchSample>.stride + stampCount * (SketchPoint.byteSize + 4) }
}

/// A backing layer: the image under the shown strokes, and the strokes that fell off the
/// undo depth and wait to be baked into it (or, with maxAge > 0, to die).
struct Backing {
    var surface: SurfaceID?
    var below: [Int] = []
}

/// A LiveCanvas's session: the history, the strokes it keeps, the backing layers.
struct SessionState {
    var limits: UndoLimits
    var history = SessionHistory()
    var kept: [Int: KeptStroke] = [:]
    /// By `SessionHistory` token: the current one, and those an undoable clear hid.
    var backings: [Int: Backing] = [0: Backing()]
    /// Steps that fell off the undo depth.
    var stepsDropped = 0
    var strokesBaked = 0
    var strokesFreed = 0
    /// Above 0 while a save reads the backing layer back: baking waits.
    var bakeHolds = 0
    /// How many times the canvas was closed: work that waited on the renderer stops when it
    /// finds the session it started with gone.
    var generation = 0

    init(limits: UndoLimits) { self.limits = limits }

    var backing: Backing {
        get { backings[history.backing] ?? Backing() }
        set { backings[history.backing] = newValue }
    }

    mutating func record(_ sample: TouchSample?, stamps: [Stamp], of index: Int) {
        guard var s = kept[index] else { return }
        if let sample { s.samples.append(sample) }
        s.stampCount += stamps.count
        for stamp in stamps { s.lastBirth = max(s.lastBirth, -stamp.point.age) }
        kept[index] = s
    }

    /// Memory the undoable steps hold.
    func undoBytes(canvasBytes: Int) -> Int {
        var total = 0
        for i in history.referenced { total += kept[i]?.bytes ?? 0 }
        for token in history.referencedBackings where token != history.backing && backings[token]?.surface != nil {
            total += canvasBytes
        }
        return total
    }
}

/// What a session holds now (for tests and the benchmark).
public struct SessionStatistics: Sendable, Equatable {
    /// Steps `undo` and `redo` can take now.
    public var undoSteps: Int
    /// Steps that can be redone.
    public var redoSteps: Int
    /// Strokes kept as data (each with its layer unless it died), and their memory.
    public var keptStrokes: Int
    /// Bytes the kept strokes hold (samples and stamps).
    public var keptBytes: Int
    /// Layers the session has on the renderer (GL buffers), and strokes waiting to be baked.
    public var liveLayers: Int
    /// Strokes past the undo depth still waiting to be baked.
    public var pendingBake: Int
    /// Since the canvas was made.
    public var strokesBaked: Int
    /// Strokes dropped for good (undone, then replaced by a new stroke).
    public var strokesFreed: Int
    /// Undo steps dropped because the limits were reached.
    public var stepsDropped: Int
}
