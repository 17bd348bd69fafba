extension SketchPoint {
    /// A stamp in `color` (straight; a literal like `"#ff8800"` works):
    /// `SketchPoint(x: 20, y: 20, radius: 8, color: "#ff8800")`.
    public init(x: Float, y: Float, radius: Float, age: Float = 0, dissolveAngle: Float = 0, color: Color) {
        self.init(x: x, y: y, radius: radius, age: age, dissolveAngle: dissolveAngle,
                  red: color.red, green: color.green, blue: color.blue, alpha: color.alpha)
    }
}

extension TouchSample {
    /// A sample from `Double` (or any floating-point) coordinates, as most touch and math
    /// code has them; literals still pick the `Float` initialiser.
    public init<F: BinaryFloatingPoint>(x: F, y: F, t: Double, pressure: F? = nil) {
        self.init(x: Float(x), y: Float(y), t: t, pressure: pressure.map { Float($0) })
    }
}
