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
    /// Each tile's orphaned jobs, by number.
    private var orphansOf: [ServedTiles.Key: Set<Int>] = [:]
    /// Each client's claimed tiles, and how many of each tile's jobs (current and orphans) it
    /// has a claim on: what a client's view or its end reaches is found without visiting
    /// every job of every client (thousands wait while the drawing changes fast).
    private var claimedBy: [Int: [ServedTiles.Key: Int]] = [:]
    /// The job each request in progress waits on (by the request's number).
    private var joined: [Int: Int] = [:]
    /// Jobs drawn from a drawing that has changed under them since: not cached.
    private var stale: Set<ObjectIdentifier> = []
    private var lastToken = 0

    mutating func newToken() -> Int {
        lastToken += 1
        return lastToken
    }

    /// One more claim by `client` on `claims`' job of tile `key`.
    private mutating func addClaim(_ claims: inout Claims, _ key: ServedTiles.Key, client: Int) {
        if claims.clients[client] == nil { claimedBy[client, default: [:]][key, default: 0] += 1 }
        claims.clients[client, default: 0] += 1
    }

    /// `client` no longer claims one of tile `key`'s jobs.
    private mutating func unclaimed(_ key: ServedTiles.Key, client: Int) {
        guard let n = claimedBy[client]?[key] else { return }
        if n > 1 {
            claimedBy[client]![key] = n - 1
        } else {
            claimedBy[client]![key] = nil
            if claimedBy[client]!.isEmpty { claimedBy[client] = nil }
        }
    }

    /// `claims` leave: their clients no longer claim them.
    private mutating func forget(_ claims: Claims, _ key: ServedTiles.Key) {
        for client in claims.clients.keys { unclaimed(key, client: client) }
    }

    private mutating func orphan(_ token: Int, _ key: ServedTiles.Key, _ claims: Claims) {
        orphans[token] = (key, claims)
        orphansOf[key, default: []].insert(token)
    }

    /// Takes orphan `token` out (its claims stay counted).
    private mutating func takeOrphan(_ token: Int) -> (key: ServedTiles.Key, claims: Claims)? {
        guard let orphan = orphans.removeValue(forKey: token) else { return nil }
        orphansOf[orphan.key]?.remove(token)
        if orphansOf[orphan.key]?.isEmpty == true { orphansOf[orphan.key] = nil }
        return orphan
    }

    /// Joins `key`'s current job, if there is one.
    mutating func join(_ key: ServedTiles.Key, client: Int, request: Int?) -> Job? {
        guard var claims = current[key] else { return nil }
        addClaim(&claims, key, client: client)
        current[key] = claims
        if let request { joined[request] = claims.token }
        return claims.job
    }

    mutating func add(_ key: ServedTiles.Key, _ job: Job, client: Int, request: Int?) {
        if let replaced = current[key] { forget(replaced, key) }
        var claims = Claims(job: job)
        addClaim(&claims, key, client: client)
        current[key] = claims
        if let request { joined[request] = job.token }
    }

    /// Adds a claim by `client` on `job` of tile `key`, current or orphan; false when it has
    /// none to add to (it ended, or started and runs to its end whoever waits).
    mutating func claim(_ key: ServedTiles.Key, _ job: Job, client: Int) -> Bool {
        if var claims = current[key], claims.job === job {
            addClaim(&claims, key, client: client)
            current[key] = claims
            return true
        }
        guard var orphan = orphans[job.token] else { return false }
        addClaim(&orphan.claims, key, client: client)
        orphans[job.token] = orphan
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
        // Started: its waiters (if any) get it.
        if let orphan = takeOrphan(token) { forget(orphan.claims, orphan.key) }
    }

    /// The drawing changed over the tiles `touched` says: their jobs that began are taken out
    /// (stale).
    mutating func changed(_ touched: (ServedTiles.Key) -> Bool) {
        for (key, claims) in current where (claims.started || claims.began) && touched(key) {
            current[key] = nil
            stale.insert(ObjectIdentifier(claims.job))
            if claims.started { forget(claims, key) } else { orphan(claims.token, key, claims) }
        }
    }

    /// The tiles whose jobs (current or orphan) `client` has a claim on.
    func keys(of client: Int) -> [ServedTiles.Key] { claimedBy[client].map { Array($0.keys) } ?? [] }

    /// Ends `client`'s claim (or all its claims) on tile `key`'s jobs (only job `only`, when
    /// given). Returns the jobs nobody waits for any more, taken out: to be cancelled.
    mutating func release(_ key: ServedTiles.Key, client: Int, all: Bool, only: Int? = nil) -> [Claims] {
        guard claimedBy[client]?[key] != nil else { return [] }
        var dropped: [Claims] = []
        func end(_ claims: inout Claims) -> Bool {
            guard let n = claims.clients[client] else { return false }
            if all || n <= 1 {
                claims.clients[client] = nil
                unclaimed(key, client: client)
            } else {
                claims.clients[client] = n - 1
            }
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
        for token in orphansOf[key] ?? [] where only.map({ $0 == token }) ?? true {
            guard var claims = orphans[token]?.claims else { continue }
            if end(&claims) {
                _ = takeOrphan(token)
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
        if orphans[job.token]?.claims.job === job, let orphan = takeOrphan(job.token) { forget(orphan.claims, orphan.key) }
        defer { stale.remove(id) }
        guard let claims = current[key], claims.job === job else { return false }
        current[key] = nil
        forget(claims, key)
        return !stale.contains(id)
    }

    /// Every claim counted where it is held: the two indexes agree with the jobs (for tests).
    var consistent: Bool {
        var counts: [Int: [ServedTiles.Key: Int]] = [:]
        for (key, claims) in current { for client in claims.clients.keys { counts[client, default: [:]][key, default: 0] += 1 } }
        for (_, orphan) in orphans {
            for client in orphan.claims.clients.keys { counts[client, default: [:]][orphan.key, default: 0] += 1 }
        }
        let byKey = Dictionary(grouping: orphans.keys) { orphans[$0]!.key }.mapValues(Set.init)
        return counts == claimedBy && byKey == orphansOf
    }
}
