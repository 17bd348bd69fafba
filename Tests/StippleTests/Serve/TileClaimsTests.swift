import XCTest
@testable import Stipple
@testable import StippleServe

/// Who waits for which tile job, against a model that keeps every job in one list and
/// visits all of them for every question: random claims, joins, starts, changes, releases
/// and ends give the same answers, and the claims' indexes agree with the jobs throughout.
final class TileClaimsTests: XCTestCase {
    /// The plain model: every job in a list, each question a walk over all of them.
    private struct Model {
        struct Job {
            let token: Int, key: ServedTiles.Key
            var clients: [Int: Int], began = false, started = false, orphan = false
            var count: Int { clients.values.reduce(0, +) }
        }
        var jobs: [Job] = []
        var stale: Set<Int> = []

        func currentIndex(_ key: ServedTiles.Key) -> Int? { jobs.firstIndex { $0.key == key && !$0.orphan } }

        mutating func join(_ key: ServedTiles.Key, client: Int) -> Int? {
            guard let i = currentIndex(key) else { return nil }
            jobs[i].clients[client, default: 0] += 1
            return jobs[i].token
        }

        mutating func add(_ key: ServedTiles.Key, token: Int, client: Int) {
            jobs.removeAll { $0.key == key && !$0.orphan }
            jobs.append(Job(token: token, key: key, clients: [client: 1]))
        }

        mutating func claim(_ key: ServedTiles.Key, token: Int, client: Int) -> Bool {
            guard let i = jobs.firstIndex(where: { $0.token == token && ($0.orphan || $0.key == key) }) else { return false }
            jobs[i].clients[client, default: 0] += 1
            return true
        }

        mutating func began(_ key: ServedTiles.Key, token: Int) {
            if let i = currentIndex(key), jobs[i].token == token { jobs[i].began = true }
        }

        mutating func started(_ key: ServedTiles.Key, token: Int) {
            if let i = currentIndex(key), jobs[i].token == token { jobs[i].started = true }
            jobs.removeAll { $0.orphan && $0.token == token }
        }

        mutating func changed(_ touched: (ServedTiles.Key) -> Bool) {
            for i in jobs.indices.reversed() where !jobs[i].orphan && (jobs[i].started || jobs[i].began) && touched(jobs[i].key) {
                stale.insert(jobs[i].token)
                if jobs[i].started { jobs.remove(at: i) } else { jobs[i].orphan = true }
            }
        }

        func keys(of client: Int) -> Set<ServedTiles.Key> { Set(jobs.filter { $0.clients[client] != nil }.map(\.key)) }

        mutating func release(_ key: ServedTiles.Key, client: Int, all: Bool, only: Int?) -> Set<Int> {
            var dropped: Set<Int> = []
            for i in jobs.indices.reversed() where jobs[i].key == key && (only.map { $0 == jobs[i].token } ?? true) {
                guard let n = jobs[i].clients[client] else { continue }
                jobs[i].clients[client] = all || n <= 1 ? nil : n - 1
                if jobs[i].count == 0 && !jobs[i].started {
                    dropped.insert(jobs[i].token)
                    jobs.remove(at: i)
                }
            }
            return dropped
        }

        mutating func finished(_ key: ServedTiles.Key, token: Int) -> Bool {
            jobs.removeAll { $0.orphan && $0.token == token }
            defer { stale.remove(token) }
            guard let i = currentIndex(key), jobs[i].token == token else { return false }
            jobs.remove(at: i)
            return !stale.contains(token)
        }
    }

    func testRandomClaimsAgreeWithAModelThatVisitsEveryJob() {
        let keys = (0..<4).map { ServedTiles.Key(z: 3, x: $0 % 2, y: $0 / 2, preview: false) }
        let clients = [Int.min, -7, -2, 1, 2, 3]
        for seed in 0..<40 as Range<UInt64> {
            var rng = SplitMix64(seed: seed)
            func pick<T>(_ a: [T]) -> T { a[Int(rng.next() % UInt64(a.count))] }
            var claims = TileClaims(), model = Model()
            var jobs: [Int: (key: ServedTiles.Key, job: TileClaims.Job)] = [:]
            for step in 0..<400 {
                let key = pick(keys), client = pick(clients)
                let context = "seed \(seed), step \(step)"
                switch rng.next() % 9 {
                case 0, 1:
                    let joined = claims.join(key, client: client, request: nil)
                    XCTAssertEqual(joined?.token, model.join(key, client: client), context)
                    if joined == nil {
                        let token = claims.newToken()
                        let job = TileClaims.Job(token: token, task: Task { (png: [], image: nil) })
                        jobs[token] = (key, job)
                        claims.add(key, job, client: client, request: nil)
                        model.add(key, token: token, client: client)
                    }
                case 2:
                    guard let token = jobs.keys.sorted().randomElement(using: &rng), let j = jobs[token] else { continue }
                    XCTAssertEqual(claims.claim(j.key, j.job, client: client), model.claim(j.key, token: token, client: client), context)
                case 3:
                    guard let token = jobs.keys.sorted().randomElement(using: &rng), let j = jobs[token] else { continue }
                    claims.began(j.key, token: token)
                    model.began(j.key, token: token)
                case 4:
                    guard let token = jobs.keys.sorted().randomElement(using: &rng), let j = jobs[token] else { continue }
                    claims.started(j.key, token: token)
                    model.started(j.key, token: token)
                case 5:
                    let x = Int(rng.next() % 2)
                    claims.changed { $0.x == x }
                    model.changed { $0.x == x }
                case 6, 7:
                    let all = rng.next() % 2 == 0
                    let only = rng.next() % 3 == 0 ? jobs.keys.sorted().randomElement(using: &rng) : nil
                    let dropped = claims.release(key, client: client, all: all, only: only)
                    XCTAssertEqual(Set(dropped.map(\.token)), model.release(key, client: client, all: all, only: only), context)
                default:
                    guard let token = jobs.keys.sorted().randomElement(using: &rng), let j = jobs[token] else { continue }
                    XCTAssertEqual(claims.finished(j.key, job: j.job), model.finished(j.key, token: token), context)
                    jobs[token] = nil
                }
                for c in clients { XCTAssertEqual(Set(claims.keys(of: c)), model.keys(of: c), "\(context), client \(c)") }
                XCTAssertTrue(claims.consistent, context)
            }
        }
    }
}
