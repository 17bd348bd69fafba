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
    package func part(of range: ClosedRange<Int>) -> ClosedRange<Int>? {
        let total = range.count
        let start = range.lowerBound + (index - 1) * total / count
        let end = range.lowerBound + index * total / count - 1
        return start <= end ? start...end : nil
    }
}
