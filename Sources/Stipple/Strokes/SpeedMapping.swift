/// How the finger's speed drives a stamp's radius: fast strokes thin out, like ink.
/// Off unless a style asks for it.
///
/// A sample's speed is the straight distance from the previous sample over the time between
/// them, px/s. At or below `slowSpeed` the factor is `slowRadiusFactor`, at or above
/// `fastSpeed` it is `fastRadiusFactor`, linear in between. Two samples at the same time but
/// different places have no finite speed: the sample keeps the previous sample's speed (the
/// first sample has speed 0).
public struct SpeedMapping: Equatable, Sendable {
    /// px/s at and below which the radius factor is `slowRadiusFactor`. Default 100.
    public var slowSpeed: Float
    /// px/s at and above which the radius factor is `fastRadiusFactor`. Default 2000.
    public var fastSpeed: Float
    /// Default 1: a slow stroke draws at the pressure-mapped radius.
    public var slowRadiusFactor: Float
    /// Default 0.4: a fast stroke draws at 40 % of it.
    public var fastRadiusFactor: Float

    /// Strokes thin with speed: `slowRadiusFactor` at or below `slowSpeed` pixels a second,
    /// `fastRadiusFactor` at or above `fastSpeed`, linear between.
    public init(slowSpeed: Float = 100, fastSpeed: Float = 2000,
                slowRadiusFactor: Float = 1, fastRadiusFactor: Float = 0.4) {
        precondition(slowSpeed < fastSpeed, "SpeedMapping needs slowSpeed < fastSpeed")
        self.slowSpeed = slowSpeed; self.fastSpeed = fastSpeed
        self.slowRadiusFactor = slowRadiusFactor; self.fastRadiusFactor = fastRadiusFactor
    }

    /// The radius factor at `speed` px/s.
    public func radiusFactor(speed: Double) -> Float {
        let u = (speed - Double(slowSpeed)) / (Double(fastSpeed) - Double(slowSpeed))
        let c = Float(min(max(u, 0), 1))
        return slowRadiusFactor * (1 - c) + fastRadiusFactor * c // exact at both ends
    }
}
