import Synchronization

/// The "detect edges" references of one scene, found once each (docs/brush-modes.md): a
/// stroke's reference is the canvas pixel under its first sample, just before the stroke,
/// at the frame that sample is born. That is data of the scene, not of a frame, so the
/// table lives as long as the scene value does: a whole `--frames` run, a whole shard, a
/// whole render in tiles read it, and each reference is drawn once however many frames
/// show its stroke.
///
/// A scene's table is replaced whenever the scene changes (its canvas, effects, batches or
/// session entries): a copy that is changed starts a table of its own.
///
/// References differ between drivers and primitives by the drivers' rounding, so each is
/// kept under the driver and primitive that drew it (and where its blurs ran).
package final class EdgeReferenceTable: Sendable {
    struct Key: Hashable {
        /// The draw entry's index in its script.
        var entry: Int
        /// The render frame the reference is read at (`Scene.edgeReadFrame`).
        var frame: Int
        var primitive: Primitive
        /// The driver's renderer string (`RendererInfo.glRenderer`), and whether blurs ran
        /// on the CPU.
        var driver: String
    }

    private let references = Mutex<[Key: EdgeReference]>([:])

    package init() {}

    subscript(key: Key) -> EdgeReference? {
        get { references.withLock { $0[key] } }
        set { references.withLock { $0[key] = newValue } }
    }

    /// How many references are known (for tests: each is found once).
    package var count: Int { references.withLock { $0.count } }
}

extension EdgeAnchor {
    /// The clock frame a stamp whose age at clock frame 0 is `age` is born at: the first
    /// frame where its age is 0 or more (docs/reference.md §3). Bounded for ages far out.
    package static func birthFrame(age: Float) -> Int {
        let frame = (-age).rounded(.up)
        return Int(max(-1e9, min(1e9, frame.isFinite ? frame : 0)))
    }
}

extension Scene {
    /// The render frame at which the reference of the stroke at `anchor` is read: the frame
    /// its first sample is born, or frame 0 for a stroke born before the first frame (the
    /// first frame that can draw it). The one place every path asks.
    package func edgeReadFrame(_ anchor: EdgeAnchor) -> Int {
        max(0, anchor.frame - session.startFrame)
    }

    /// Forgets the references found so far (the benchmark times runs that read them).
    package mutating func forgetEdgeReferences() { edgeReferences = EdgeReferenceTable() }
}
