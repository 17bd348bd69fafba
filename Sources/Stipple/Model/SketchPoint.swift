/// One brush stamp: the vertex of docs/reference.md §2. Nine 32-bit floats, 36 bytes, uploaded as is.
///
/// The field order is the wire and vertex layout; `SketchPointLayoutTests` pins it, and the
/// C shim's `stp_sketch_point` mirrors it with `_Static_assert`s.
public struct SketchPoint: Equatable, Hashable, Sendable {
    /// Stamp centre, canvas pixels (origin top-left, y down).
    public var x: Float
    /// The centre, canvas pixels from the top edge (y grows downward).
    public var y: Float
    /// Half the stamp's side, pixels, before age effects.
    public var radius: Float
    /// Frames since the stamp was born.
    public var age: Float
    /// Radians: the direction the stamp drifts at the end of its life.
    public var dissolveAngle: Float
    /// Straight colour, each 0…1.
    public var red: Float
    /// Green, straight, 0…1.
    public var green: Float
    /// Blue, straight, 0…1.
    public var blue: Float
    /// Opacity, 0…1: multiplies the brush coverage.
    public var alpha: Float

    /// A stamp from its nine fields, in the order of the vertex layout and of `.sketchpoints`
    /// files: centre, radius, age at frame 0, dissolve angle (radians), straight colour.
    public init(x: Float, y: Float, radius: Float, age: Float = 0, dissolveAngle: Float = 0,
                red: Float = 1, green: Float = 1, blue: Float = 1, alpha: Float = 1) {
        self.x = x; self.y = y; self.radius = radius; self.age = age
        self.dissolveAngle = dissolveAngle
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// Size of one record in a `.sketchpoints` file and in the vertex buffer.
    package static let byteSize = 36
    package static let floatCount = 9

    /// The nine fields in docs/reference.md §2 order.
    package var fields: [Float] { [x, y, radius, age, dissolveAngle, red, green, blue, alpha] }

    /// Builds a point from nine floats in docs/reference.md §2 order.
    package init(fields f: some Collection<Float>) {
        precondition(f.count == 9, "a SketchPoint has 9 fields")
        let a = Array(f)
        self.init(x: a[0], y: a[1], radius: a[2], age: a[3], dissolveAngle: a[4],
                  red: a[5], green: a[6], blue: a[7], alpha: a[8])
    }
}
