/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and the same numbers on every platform,
/// which `SystemRandomNumberGenerator` is not. Stroke randomness must replay bit for bit.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    package private(set) var state: UInt64

    package init(seed: UInt64) { state = seed }

    /// A generator for one stroke of a script: the script's seed mixed with the stroke's
    /// index, so strokes differ from each other but each replays exactly.
    package init(seed: UInt64, strokeIndex: Int) {
        var mixer = SplitMix64(seed: UInt64(bitPattern: Int64(strokeIndex)) &+ 0x5EED_57AC_C0FF_EE00)
        self.init(seed: seed ^ mixer.next())
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Moves on as `n` calls of `next()` would, at once (the state only counts up).
    package mutating func skip(_ n: Int) {
        state &+= 0x9E37_79B9_7F4A_7C15 &* UInt64(n)
    }

    /// Uniform in [0, 1), 53 bits.
    package mutating func nextUnitDouble() -> Double {
        Double(next() >> 11) * 0x1p-53
    }
}
