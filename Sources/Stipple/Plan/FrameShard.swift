/// One of N contiguous parts of a frame range, for splitting a long render or bake across
/// processes and machines (docs/distributed.md). Part K (from 1) of N covers the frames
/// from `lower + ⌊(K−1)·count/N⌋` to `lower + ⌊K·count/N⌋ − 1`: the parts are in order,
/// never overlap, together cover the range, and differ in length by at most one frame.
package struct FrameShard: Sendable, Equatable, CustomStringConvertible {
    /// K, from 1.
    package var index: Int
    /// N, at least 1.
    package var count: Int

    /// `K/N` with 1 ≤ K ≤ N; nil otherwise.
    package init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, k >= 1, k <= n else { return nil }
        index = k; count = n
    }

    package init(index: Int, count: Int) {
        precondition(count >= 1 && (1...count).contains(index), "a shard is K/N with 1 ≤ K ≤ N")
        self.index = index; self.count = count
    }

    package var description: String { "\(index)/\(count)" }

    /// This part of `range`; nil when it is empty (more parts than frames).
    /// Any K/N and any range: the products are taken full width, so nothing overflows.
    package func part(of range: ClosedRange<Int>) -> ClosedRange<Int>? {
        // The count of frames, as UInt: `range.count` itself traps on 0...Int.max.
        let total = UInt(bitPattern: range.upperBound &- range.lowerBound) &+ 1
        // `k × total / N` for k = K - 1 and K, never more than total.
        func boundary(_ k: Int) -> UInt {
            let product = UInt(k).multipliedFullWidth(by: total)
            return UInt(count).dividingFullWidth(product).quotient
        }
        let start = boundary(index - 1), end = boundary(index)
        guard start < end else { return nil }
        // Within the range: offsets below total, added to its lower bound.
        let lower = range.lowerBound &+ Int(bitPattern: start)
        return lower...(lower &+ Int(bitPattern: end - start - 1))
    }
}
