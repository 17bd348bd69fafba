import Stipple

/// Who waits for which tile job. Each request is a claim on its tile's job, by a client; a
/// claim ends when its request ends (answered, its connection closed) or its client's view
/// moves away from the tile. A job whose claims have all ended before it started is dropped.
///
/// A change to the drawing takes the jobs that began reading it out of `current` (new
/// requests start afresh) and marks them stale (not cached); one that has not started yet
/// stays an orphan, which its claims can still drop. State only; `TileService` (an actor)
/// holds it and cancels what it returns.
struct TileClaims {
    final class Job: Sendable {
        /// The tile's PNG, and its pixels when exact (they feed the previews of its descendants).
        let task: Task<(png: [UInt8], image: Image?), Error>
        /// The job's number.
        let token: Int
        init(token: Int, task: Task<(png: [UInt8], image: Image?), Error>) { self.token = token; self.task = task }
    }

    struct Claims {
        let job: Job
        var clients: [Int: Int] = [:]
        /// Began reading the drawing (a tile made from its children: began asking for them).
        var began = false
        /// Past the point where it can be dropped.
        var started = false
        var count: Int { clients.values.reduce(0, +) }
        /// The job's number; `claimant` is the client its own requests (a tile's children)
        /// are claimed as, so that they end when it ends.
        var token: Int { job.token }
        var claimant: Int { -1 - token }
    }

    /// Each tile's job that new requests join.
    private(set) var current: [ServedTiles.Key: Claims] = [:]
    private var orphans: [Int: (key: ServedTiles.Key, claims: Claims)] = [:]
    /// The job each request in progress waits on (by the request's number).
    private var joined: [Int: Int] = [:]
    /// Jobs drawn from a drawing that has changed under them since: not cached.
    private var stale: Set<ObjectIdentifier> = []
    private var lastToken = 0

    mutating func newToken() -> Int {
        lastToken += 1
        return lastToken
    }

    /// Joins `key`'s current job, if there is one.
    mutating func join(_ key: ServedTiles.Key, client: Int, request: Int?) -> Job? {
        guard var claims = current[key] else { return nil }
        claims.clients[client, default: 0] += 1
        current[key] = claims
        if let request { joined[request] = claims.token }
        return claims.job
    }

    mutating func add(_ key: ServedTiles.Key, _ job: Job, client: Int, request: Int?) {
        current[key] = Claims(job: job, clients: [client: 1])
        if let request { joined[request] = job.token }
    }

    /// Adds a claim by `client` on `job` of tile `key`, current or orphan; false when it has
    /// none to add to (it ended, or started and runs to its end whoever waits).
    mutating func claim(_ key: ServedTiles.Key, _ job: Job, client: Int) -> Bool {
        if current[key]?.job === job {
            current[key]?.clients[client, default: 0] += 1
            return true
        }
        let token = job.token
        guard orphans[token] != nil else { return false }
        orphans[token]?.claims.clients[client, default: 0] += 1
        return true
    }

    mutating func requestEnded(_ request: Int) { joined[request] = nil }

    /// The job request `request` waits on, which its end no longer does; nil once answered.
    mutating func abandoned(_ request: Int) -> Int? { joined.removeValue(forKey: request) }

    mutating func began(_ key: ServedTiles.Key, token: Int) {
        if current[key]?.token == token { current[key]?.began = true }
    }

    mutating func started(_ key: ServedTiles.Key, token: Int) {
        if current[key]?.token == token { current[key]?.started = true }
        orphans[token] = nil  // started: its waiters (if any) get it
    }

    /// The drawing changed over the tiles `touched` says: their jobs that began are taken out
    /// (stale).
    mutating func changed(_ touched: (ServedTiles.Key) -> Bool) {
        for (key, claims) in current where (claims.started || claims.began) && touched(key) {
            current[key] = nil
            stale.insert(ObjectIdentifier(claims.job))
            if !claims.started { orphans[claims.token] = (key, claims) }
        }
    }

    /// Every tile a job waits for, current or orphan.
    var keys: Set<ServedTiles.Key> { Set(current.keys).union(orphans.values.map(\.key)) }

    /// Ends `client`'s claim (or all its claims) on tile `key`'s jobs (only job `only`, when
    /// given). Returns the jobs nobody waits for any more, taken out: to be cancelled.
    mutating func release(_ key: ServedTiles.Key, client: Int, all: Bool, only: Int? = nil) -> [Claims] {
        var dropped: [Claims] = []
        func end(_ claims: inout Claims) -> Bool {
            guard let n = claims.clients[client] else { return false }
            claims.clients[client] = all || n <= 1 ? nil : n - 1
            return claims.count == 0 && !claims.started
        }
        if var claims = current[key], only.map({ $0 == claims.token }) ?? true {
            if end(&claims) {
                current[key] = nil
                dropped.append(claims)
            } else {
                current[key] = claims
            }
        }
        for (token, orphan) in orphans where orphan.key == key && (only.map { $0 == token } ?? true) {
            var claims = orphan.claims
            if end(&claims) {
                orphans[token] = nil
                dropped.append(claims)
            } else {
                orphans[token]?.claims = claims
            }
        }
        return dropped
    }

    /// Job `job` of tile `key` ended: true when its result is the tile as the drawing is (to
    /// be cached).
    mutating func finished(_ key: ServedTiles.Key, job: Job) -> Bool {
        let id = ObjectIdentifier(job)
        for (token, orphan) in orphans where orphan.claims.job === job { orphans[token] = nil }
        defer { stale.remove(id) }
        guard let claims = current[key], claims.job === job else { return false }
        current[key] = nil
        return !stale.contains(id)
    }
}
