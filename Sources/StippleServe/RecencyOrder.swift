/// The keys of a cache in the order they were last used, for a cache bounded in bytes that
/// drops its least recently used entry: a use, a removal and the oldest key each cost
/// O(1), amortised, however many entries the cache holds (a cache of tens of thousands of
/// tiles drops one on nearly every store once full).
///
/// Each use appends the key with a new tick; a key's earlier places are left behind and
/// skipped when they reach the front (their tick is no longer the key's). The queue is
/// compacted when the places left behind outnumber the keys.
struct RecencyOrder<Key: Hashable> {
    private var ticks: [Key: Int] = [:]
    private var queue: [(tick: Int, key: Key)] = []
    private var head = 0
    private var tick = 0

    var count: Int { ticks.count }

    /// `key` was used now (or added).
    mutating func use(_ key: Key) {
        tick += 1
        ticks[key] = tick
        queue.append((tick, key))
        if queue.count - head > 2 * ticks.count + 64 { compact() }
    }

    mutating func remove(_ key: Key) { ticks[key] = nil }

    /// The key used least recently, left in place; nil when there is none.
    mutating func oldest() -> Key? {
        while head < queue.count {
            let (t, key) = queue[head]
            if ticks[key] == t { return key }
            head += 1
        }
        return nil
    }

    /// The keys, least recently used first (for tests).
    var keys: [Key] { queue[head...].filter { ticks[$0.key] == $0.tick }.map(\.key) }

    private mutating func compact() {
        queue = queue[head...].filter { ticks[$0.key] == $0.tick }
        head = 0
    }
}
