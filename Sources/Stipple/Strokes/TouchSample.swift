/// One touch sample of a stroke, as the finger or pen reported it (docs/reference.md §6).
public struct TouchSample: Equatable, Sendable {
    /// Canvas pixels (origin top-left, y down).
    public var x: Float
    /// Canvas pixels from the top edge.
    public var y: Float
    /// Seconds since frame 0; a script's `fps` turns it into a frame.
    public var t: Double
    /// 0…1, or nil when the device reports none (mouse, synthetic input).
    /// Values outside 0…1 are clamped: some pens report a little over 1.
    public var pressure: Float?

    /// A sample at (`x`, `y`) at `t` seconds, with `pressure` 0…1 when the device gives one.
    public init(x: Float, y: Float, t: Double, pressure: Float? = nil) {
        self.x = x; self.y = y; self.t = t; self.pressure = pressure
    }
}
