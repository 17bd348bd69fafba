/// What each client shows: its latest view (a zoom and the tile columns and rows in it) and
/// the number of the latest view it has asked for tiles in. Views come on the client's
/// socket and tiles on other connections, so a view message can arrive after tiles of a
/// later view: it then changes nothing. State only; `TileService` holds it.
struct ClientViews {
    struct View {
        var z: Int, xs: ClosedRange<Int>, ys: ClosedRange<Int>
        /// The view's number (the latest one asked for when the message had none).
        var seq: Int

        func holds(_ key: ServedTiles.Key) -> Bool { key.z == z && xs.contains(key.x) && ys.contains(key.y) }
    }

    private var latest: [Int: View] = [:]
    private var asked: [Int: Int] = [:]

    /// A tile request of `client` in its view number `seq`.
    mutating func asked(client: Int, seq: Int?) {
        if let seq, seq > asked[client, default: 0] { asked[client] = seq }
    }

    /// `client`'s new view; nil when it came late (a later one has been asked for in).
    mutating func moved(client: Int, z: Int, xs: ClosedRange<Int>, ys: ClosedRange<Int>, seq: Int?) -> View? {
        if let seq {
            guard seq >= asked[client, default: 0] else { return nil }
            asked[client] = seq
        }
        let view = View(z: z, xs: xs, ys: ys, seq: seq ?? asked[client, default: 0])
        latest[client] = view
        return view
    }

    mutating func left(client: Int) {
        latest[client] = nil
        asked[client] = nil
    }

    /// Whether `client` shows tile `key`: its latest view holds it, or it was asked for in a
    /// later view (`seq`) whose message has not arrived yet. That may be the client's first
    /// view (a page asks for tiles as soon as it has sent it). Never for a tile asked for
    /// outside any view (no `seq`, or 0: no live socket yet).
    func shows(_ key: ServedTiles.Key, client: Int, seq: Int?) -> Bool {
        guard let view = latest[client] else { return (seq ?? 0) > 0 }
        return view.holds(key) || seq.map { $0 > view.seq } ?? false
    }
}
