/// Stipple renders brush strokes made of point-sprite stamps to images, headlessly,
/// with OpenGL ES 2 on EGL. See README.md and docs/reference.md.
public enum StippleVersion {
    public static let string = "0.1.0"
}
