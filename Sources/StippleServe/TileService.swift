import Foundation
import Stipple

/// Tiles of the served drawing, rendered on demand: a cache bounded in bytes, one render
/// for any number of requests for the same tile, a few renders at once (`RenderSlots`), and
/// renders nobody waits for any more dropped before they start.
///
/// Each request is a claim on its tile's job, by a client. A claim ends when its request
/// ends: answered, its connection closed, or its client's view moved away from the tile
/// (`viewChanged`). A job whose claims have all ended before it started is cancelled.
package actor TileService {
    package struct Figures: Sendable, Equatable {
        package var rendered = 0, cached = 0, coalesced = 0, cancelled = 0, cacheBytes = 0, cacheTiles = 0
    }

    private final class Job: Sendable {
        let task: Task<[UInt8], Error>
        init(task: Task<[UInt8], Error>) { self.task = task }
    }

    private struct Claims {
        let job: Job
        var clients: [Int: Int] = [:]
        var started = false
        var count: Int { clients.values.reduce(0, +) }
    }

    package let tiles: ServedTiles
    private let drawing: ServedDrawing
    private let renderer: Renderer
    private let slots: RenderSlots
    private let cacheLimit: Int
    private var cache: [ServedTiles.Key: (bytes: [UInt8], used: Int)] = [:]
    private var cacheBytes = 0
    private var tick = 0
    private var jobs: [ServedTiles.Key: Claims] = [:]
    /// Each client's latest view: a zoom and the tile columns and rows it shows.
    private var views: [Int: (z: Int, xs: ClosedRange<Int>, ys: ClosedRange<Int>)] = [:]
    private var figures = Figures()

    package init(drawing: ServedDrawing, renderer: Renderer, width: Int, height: Int, cacheBytes: Int, renders: Int) {
        self.drawing = drawing
        self.renderer = renderer
        tiles = ServedTiles(width: width, height: height)
        cacheLimit = cacheBytes
        slots = RenderSlots(count: renders)
    }

    package var statistics: Figures {
        var f = figures
        f.cacheBytes = cacheBytes
        f.cacheTiles = cache.count
        return f
    }

    /// Renders waiting for a slot.
    package var queued: Int { get async { await slots.queued } }

    /// The PNG of tile `key` for `client`: from the cache, or from the job already drawing
    /// it, or from a new one. Throws `CancellationError` when the tile's job was dropped.
    package func tile(_ key: ServedTiles.Key, client: Int) async throws -> [UInt8] {
        guard tiles.view(key) != nil else { throw ServeError("no such tile \(key)") }
        if let hit = cache[key] {
            tick += 1
            cache[key]?.used = tick
            figures.cached += 1
            return hit.bytes
        }
        let job: Job
        if var claims = jobs[key] {
            claims.clients[client, default: 0] += 1
            jobs[key] = claims
            job = claims.job
            figures.coalesced += 1
        } else {
            job = Job(task: Task { [drawing, renderer, slots, tiles] in
                try await slots.acquire(preview: key.preview)
                defer { Task { await slots.release() } }
                await self.markStarted(key)
                let (scene, frame, _) = await drawing.snapshot()
                let view = tiles.view(key)!
                let image = key.preview
                    ? try await renderer.renderPreview(scene, frame: frame, view: view)
                    : try await renderer.render(scene, frame: frame, view: view)
                return try ServedTiles.padded(image).pngData()
            })
            jobs[key] = Claims(job: job, clients: [client: 1])
        }
        do {
            let bytes = try await job.task.value
            finished(key, job: job, client: client, bytes: bytes)
            return bytes
        } catch {
            finished(key, job: job, client: client, bytes: nil)
            throw error
        }
    }

    /// A request for `key` by `client` ended before its answer (its connection closed).
    package func abandon(_ key: ServedTiles.Key, client: Int) {
        release(key, client: client, all: false)
    }

    /// `client` now shows zoom `z`, tile columns `xs` and rows `ys`: its claims on tiles
    /// outside that (at any zoom) end.
    package func viewChanged(client: Int, z: Int, xs: ClosedRange<Int>, ys: ClosedRange<Int>) {
        views[client] = (z, xs, ys)
        for key in jobs.keys where !(key.z == z && xs.contains(key.x) && ys.contains(key.y)) {
            release(key, client: client, all: true)
        }
    }

    /// `client` has gone: all its claims end.
    package func clientLeft(_ client: Int) {
        views[client] = nil
        for key in jobs.keys { release(key, client: client, all: true) }
    }

    /// The drawing changed over `box` (nil: everywhere): cached tiles there go, and jobs
    /// drawing them already are left to their waiters (new requests start afresh).
    package func invalidate(_ box: ServedDrawing.Box?) {
        for key in cache.keys where box.map({ tiles.box(key).intersects($0) }) ?? true {
            cacheBytes -= cache.removeValue(forKey: key)!.bytes.count
        }
        for (key, claims) in jobs where claims.started && (box.map({ tiles.box(key).intersects($0) }) ?? true) {
            jobs[key] = nil
            stale.insert(ObjectIdentifier(claims.job))
        }
    }

    /// Jobs drawn from a drawing that has changed under them since: not cached.
    private var stale: Set<ObjectIdentifier> = []

    private func markStarted(_ key: ServedTiles.Key) {
        jobs[key]?.started = true
    }

    private func release(_ key: ServedTiles.Key, client: Int, all: Bool) {
        guard var claims = jobs[key], let n = claims.clients[client] else { return }
        claims.clients[client] = all || n <= 1 ? nil : n - 1
        if claims.count == 0 && !claims.started {
            jobs[key] = nil
            claims.job.task.cancel()
            figures.cancelled += 1
        } else {
            jobs[key] = claims
        }
    }

    private func finished(_ key: ServedTiles.Key, job: Job, client: Int, bytes: [UInt8]?) {
        let id = ObjectIdentifier(job)
        if let claims = jobs[key], claims.job === job {
            jobs[key] = nil
            if let bytes, !stale.contains(id) {
                figures.rendered += 1
                store(key, bytes)
            }
        }
        _ = client
        if jobs.values.allSatisfy({ $0.job !== job }) { stale.remove(id) }
    }

    private func store(_ key: ServedTiles.Key, _ bytes: [UInt8]) {
        guard bytes.count <= cacheLimit else { return }
        tick += 1
        cache[key] = (bytes, tick)
        cacheBytes += bytes.count
        while cacheBytes > cacheLimit, let oldest = cache.min(by: { $0.value.used < $1.value.used }) {
            cacheBytes -= oldest.value.bytes.count
            cache[oldest.key] = nil
        }
    }
}
