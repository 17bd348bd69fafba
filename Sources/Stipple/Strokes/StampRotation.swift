/// How a stamp's brush image is turned. Radians; 0 is upright, and since canvas y points
/// down a positive angle turns the brush clockwise on screen (the direction of `atan2(dy, dx)`
/// in canvas coordinates).
public enum StampRotation: Equatable, Sendable {
    /// Every stamp upright (rotation 0). The default.
    case none
    /// Every stamp turned by the same angle.
    case fixed(Float)
    /// Each stamp turned to the curve's direction where it lies, so a brush whose image points
    /// along +x follows the stroke. The first stamp of a stroke is drawn before any direction
    /// is known and is upright.
    case followStroke
}
