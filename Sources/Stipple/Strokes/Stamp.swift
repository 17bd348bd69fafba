/// One stamp of a stroke: the docs/reference.md §2 vertex plus its rotation.
///
/// Rotation is not part of the 36-byte `SketchPoint` (its layout is fixed), so it travels
/// beside it; the renderer can upload it as a second attribute stream.
public struct Stamp: Equatable, Sendable {
    /// `age` is the stamp's age at frame 0, that is minus its birth frame (docs/reference.md §9).
    public var point: SketchPoint
    /// Radians, 0 = upright; see `StampRotation`.
    public var rotation: Float

    /// A stamp at `point`, its brush turned by `rotation` radians (clockwise on the canvas).
    public init(point: SketchPoint, rotation: Float = 0) {
        self.point = point; self.rotation = rotation
    }
}
