import Foundation
import Stipple

/// Where tile jobs run: threads of their own, not the pool every other task shares, so
/// a tile's CPU work (stamps binned, rows reduced, PNG encoded) never holds up the relay of
/// a stroke to the other clients or the answer to a cached tile.
final class TileWorkers: TaskExecutor, Sendable {
    static let shared = TileWorkers()
    private let queue = DispatchQueue(label: "stipple.serve.tiles", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

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
        /// Previews made from pixels at hand (the tile's own, an ancestor's, the overview).
        package var previewsAtHand = 0
        /// Tiles read from the pyramid written in the background.
        package var fromPyramid = 0
        /// Tiles below the top zoom made again from their children after a change.
        package var fromChildren = 0
        package var pyramidReady = false
    }

    private final class Job: Sendable {
        /// The tile's PNG, and its pixels when exact (they feed the previews of its descendants).
        let task: Task<(png: [UInt8], image: Image?), Error>
        init(task: Task<(png: [UInt8], image: Image?), Error>) { self.task = task }
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
    /// Exact tiles and previews wait in lines of their own: a preview (a few milliseconds)
    /// never waits behind an exact tile's render.
    private let slots: RenderSlots
    private let previewSlots: RenderSlots
    private let cacheLimit: Int
    private var cache: [ServedTiles.Key: (bytes: [UInt8], used: Int)] = [:]
    private var cacheBytes = 0
    private var tick = 0
    private var jobs: [ServedTiles.Key: Claims] = [:]
    /// Each client's latest view: a zoom and the tile columns and rows it shows.
    private var views: [Int: (z: Int, xs: ClosedRange<Int>, ys: ClosedRange<Int>)] = [:]
    private var figures = Figures()
    private var previews: TilePreviews
    /// The overview's pixels to draw again (canvas pixels), and whether that is under way.
    private var staleOverview: ServedDrawing.Box?
    private var patching = false
    /// The drawing's whole pyramid, written in the background at the start as `render
    /// --pyramid --layout xyz` writes one (a fraction of the time tiles asked for one by one
    /// take): once it is whole, an exact tile is a file read. A change removes the files of
    /// the tiles it touches; those are drawn on demand again.
    private let folder: String?
    private var pyramidReady = false
    private var changedWhileBuilding: [ServedDrawing.Box?] = []
    /// Changes to the drawing so far: work begun before one is not kept after it.
    private var changes = 0

    package init(drawing: ServedDrawing, renderer: Renderer, width: Int, height: Int, cacheBytes: Int, renders: Int,
                 folder: String? = nil) {
        self.folder = folder
        self.drawing = drawing
        self.renderer = renderer
        tiles = ServedTiles(width: width, height: height)
        cacheLimit = cacheBytes
        slots = RenderSlots(count: renders)
        previewSlots = RenderSlots(count: renders)
        previews = TilePreviews(tiles: tiles, limit: min(64 << 20, cacheBytes))
    }

    /// Draws the overview the previews are cut from (in the background; previews until then
    /// are drawn by the preview engine).
    package func start() {
        let (drawing, renderer, view, folder) = (self.drawing, self.renderer, previews.overviewView, self.folder)
        // The overview first (a fraction of a second), so previews are at hand from then on;
        // then the pyramid.
        Task(executorPreference: TileWorkers.shared) {
            let (scene, frame, _) = await drawing.snapshot()
            if let image = try? await renderer.renderPreview(scene, frame: frame, view: view) { await self.setOverview(image) }
            guard let folder else { return }
            let (now, nowFrame, _) = await drawing.snapshot()
            // On a context and render thread of its own: the pyramid holds its renderer for
            // seconds at a time, and tiles asked for meanwhile must not wait behind it.
            let builder = (try? Renderer()) ?? renderer
            let built = (try? await builder.writePyramid(now, frame: nowFrame, to: folder + "/pyramid",
                                                         options: PyramidOptions(layout: .xyz, overwrite: true))) != nil
            await self.pyramidBuilt(built)
        }
    }

    private func pyramidBuilt(_ built: Bool) {
        pyramidFailed = !built
        if built {
            for box in changedWhileBuilding { removeFiles(box) }
            changedWhileBuilding = []
            pyramidReady = true
        }
        for w in pyramidWaiters.values { w.resume() }
        pyramidWaiters = [:]
    }

    /// Waits until the pyramid is whole (or its writing failed), or `seconds` have passed:
    /// a tile is not kept waiting for the whole pyramid (tens of seconds for a large drawing).
    private func waitForPyramid(atMost seconds: Double) async {
        guard !pyramidReady, !pyramidFailed, folder != nil else { return }
        nextWaiter += 1
        let id = nextWaiter
        // Runs on this actor once the wait below has begun (the actor is busy until then).
        Task {
            try? await Task.sleep(for: .seconds(seconds))
            self.pyramidWaiters.removeValue(forKey: id)?.resume()
        }
        await withCheckedContinuation { pyramidWaiters[id] = $0 }
    }

    /// How long a tile below the top zoom waits for the pyramid before it is drawn.
    static let pyramidPatience = 1.0
    private var pyramidFailed = false
    private var pyramidWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiter = 0

    /// Keeps an exact tile drawn after the pyramid was written as one of its files (written
    /// whole, then renamed), so the tiles above can be made from it.
    private func keepFile(_ key: ServedTiles.Key, _ png: [UInt8]) {
        guard pyramidReady, let path = file(key) else { return }
        let dir = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let temp = path + ".part"
        guard FileManager.default.createFile(atPath: temp, contents: Data(png)) else { return }
        rename(temp, path)
    }

    /// Tile `key` from its children's exact pixels (`ServedTiles.parent`); nil when that
    /// cannot be done exactly.
    private nonisolated func fromChildren(_ key: ServedTiles.Key) async throws -> Image? {
        var children: [[Image?]] = [[nil, nil], [nil, nil]]
        for dy in 0..<2 {
            for dx in 0..<2 {
                let child = ServedTiles.Key(z: key.z + 1, x: 2 * key.x + dx, y: 2 * key.y + dy, preview: false)
                guard tiles.view(child) != nil else { continue }
                // Claimed by no client: a view moving does not drop the work a parent waits on.
                _ = try await answer(child, client: -1)
                guard let path = await file(child), FileManager.default.fileExists(atPath: path) else { return nil }
                children[dy][dx] = try PNGFile.read(path: path).image
            }
        }
        return tiles.parent(key, children: children)
    }

    private func file(_ key: ServedTiles.Key) -> String? {
        guard pyramidReady, let folder else { return nil }
        return "\(folder)/pyramid/\(key.z)/\(key.x)/\(key.y).png"
    }

    /// Removes the pyramid's files of the tiles `box` touches (nil: all of them), at every zoom.
    private func removeFiles(_ box: ServedDrawing.Box?) {
        guard let folder else { return }
        for z in 0...tiles.topZoom {
            let span = ServedTiles.side << (tiles.topZoom - z)
            let whole = ServedDrawing.Box(x0: 0, y0: 0, x1: tiles.width, y1: tiles.height)
            let b = box ?? whole
            guard b.x1 > 0, b.y1 > 0, b.x0 < tiles.width, b.y0 < tiles.height else { return }
            for y in max(0, b.y0 / span)...max(0, (min(b.y1, tiles.height) - 1) / span) {
                for x in max(0, b.x0 / span)...max(0, (min(b.x1, tiles.width) - 1) / span) {
                    unlink("\(folder)/pyramid/\(z)/\(x)/\(y).png")
                }
            }
        }
    }

    private func setOverview(_ image: Image) { previews.setOverview(image) }

    private var pyramidIsReady: Bool { pyramidReady }
    private func countFromChildren() { figures.fromChildren += 1 }

    package var statistics: Figures {
        var f = figures
        f.cacheBytes = cacheBytes
        f.cacheTiles = cache.count
        f.pyramidReady = pyramidReady
        return f
    }

    /// Renders waiting for a slot, and renders running.
    package var queued: Int { get async { await slots.queued + previewSlots.queued } }
    package var running: Int { get async { await slots.active + previewSlots.active } }

    /// The PNG of tile `key` for `client`: from the cache, or from the job already drawing
    /// it, or from a new one. Throws `CancellationError` when the tile's job was dropped.
    package func tile(_ key: ServedTiles.Key, client: Int) async throws -> [UInt8] {
        try await answer(key, client: client).png
    }

    /// The tile's PNG, and whether it holds the exact pixels (a preview request may be
    /// answered with them when they are at hand).
    package func answer(_ key: ServedTiles.Key, client: Int) async throws -> (png: [UInt8], exact: Bool) {
        guard tiles.view(key) != nil else { throw ServeError("no such tile \(key)") }
        let exactKey = ServedTiles.Key(z: key.z, x: key.x, y: key.y, preview: false)
        if let path = file(exactKey), let data = FileManager.default.contents(atPath: path) {
            // The pyramid's tile: the exact pixels, for a preview too.
            figures.fromPyramid += 1
            return ([UInt8](data), true)
        }
        // The exact tile when it is cached, for a preview too; else the tile as asked.
        for k in key.preview ? [exactKey, key] : [key] {
            guard let hit = cache[k] else { continue }
            tick += 1
            cache[k]?.used = tick
            figures.cached += 1
            return (hit.bytes, !k.preview)
        }
        if key.preview, let image = previews.preview(key) {
            figures.previewsAtHand += 1
            // Kept for the next viewer, unless the drawing changed meanwhile.
            let version = changes
            let png = try await Task(executorPreference: TileWorkers.shared) { try ServedTiles.padded(image).pngData() }.value
            if version == changes { store(key, png) }
            return (png, false)
        }
        let job: Job
        if var claims = jobs[key] {
            claims.clients[client, default: 0] += 1
            jobs[key] = claims
            job = claims.job
            figures.coalesced += 1
        } else {
            let slots = key.preview ? previewSlots : self.slots
            let below = !key.preview && key.z < tiles.topZoom && folder != nil
            job = Job(task: Task(executorPreference: TileWorkers.shared) { [drawing, renderer, tiles] in
                if below {
                    // Below the top zoom, an exact tile comes from the pyramid: once it is
                    // whole, as its file, or made from its children where a change removed it.
                    // While it is being written, a tile waits a moment for it, then is drawn.
                    await self.waitForPyramid(atMost: TileService.pyramidPatience)
                    if let path = await self.file(key), let data = FileManager.default.contents(atPath: path) {
                        return ([UInt8](data), nil)
                    }
                    if await self.pyramidIsReady, let image = try await self.fromChildren(key) {
                        await self.markStarted(key)
                        await self.countFromChildren()
                        return (try image.pngData(), image)
                    }
                }
                try await slots.acquire()
                defer { Task { await slots.release() } }
                await self.markStarted(key)
                // Its last claim may have ended between the slot and the mark (both on the
                // actor: a job cancelled there is never marked started): no render then.
                try Task.checkCancellation()
                let (scene, frame, _) = await drawing.snapshot()
                let view = tiles.view(key)!
                let image = ServedTiles.padded(key.preview
                    ? try await renderer.renderPreview(scene, frame: frame, view: view)
                    : try await renderer.render(scene, frame: frame, view: view))
                return (try image.pngData(), key.preview ? nil : image)
            })
            jobs[key] = Claims(job: job, clients: [client: 1])
        }
        do {
            let (bytes, image) = try await job.task.value
            finished(key, job: job, bytes: bytes, image: image)
            return (bytes, !key.preview)
        } catch {
            finished(key, job: job, bytes: nil, image: nil)
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
        changes += 1
        for key in cache.keys where box.map({ tiles.box(key).intersects($0) }) ?? true {
            cacheBytes -= cache.removeValue(forKey: key)!.bytes.count
        }
        previews.forget { key in box.map { tiles.box(key).intersects($0) } ?? true }
        if pyramidReady { removeFiles(box) } else { changedWhileBuilding.append(box) }
        let whole = ServedDrawing.Box(x0: 0, y0: 0, x1: tiles.width, y1: tiles.height)
        staleOverview = staleOverview.map { $0.union(box ?? whole) } ?? (box ?? whole)
        patchOverview()
        for (key, claims) in jobs where claims.started && (box.map({ tiles.box(key).intersects($0) }) ?? true) {
            jobs[key] = nil
            stale.insert(ObjectIdentifier(claims.job))
        }
    }

    /// Draws the overview again where the drawing changed, one patch at a time (changes
    /// that come meanwhile join the next).
    private func patchOverview() {
        guard !patching, previews.overview != nil, let box = staleOverview else { return }
        staleOverview = nil
        patching = true
        let k = tiles.topZoom - previews.overviewZoom
        let unit = 1 << k
        let x0 = max(0, box.x0) / unit * unit, y0 = max(0, box.y0) / unit * unit
        let x1 = min(tiles.width, box.x1), y1 = min(tiles.height, box.y1)
        guard x1 > x0, y1 > y0, let view = try? View(x: x0, y: y0, width: x1 - x0, height: y1 - y0, scale: 1 / Double(unit),
                                                       canvasWidth: tiles.width, canvasHeight: tiles.height) else {
            patching = false
            return
        }
        let (drawing, renderer) = (self.drawing, self.renderer)
        Task(executorPreference: TileWorkers.shared) {
            let (scene, frame, _) = await drawing.snapshot()
            let patch = try? await renderer.renderPreview(scene, frame: frame, view: view)
            await self.patched(patch, at: (x0 / unit, y0 / unit))
        }
    }

    private func patched(_ patch: Image?, at origin: (x: Int, y: Int)) {
        if let patch { previews.patchOverview(patch, at: origin) }
        patching = false
        patchOverview()
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

    private func finished(_ key: ServedTiles.Key, job: Job, bytes: [UInt8]?, image: Image?) {
        let id = ObjectIdentifier(job)
        if let claims = jobs[key], claims.job === job {
            jobs[key] = nil
            if let bytes, !stale.contains(id) {
                figures.rendered += 1
                store(key, bytes)
                if let image {
                    previews.keep(key, image)
                    keepFile(key, bytes)
                }
            }
        }
        stale.remove(id)
    }

    /// Caches `bytes` as `key` (in place of what it held: two viewers may make the same
    /// preview at once). An exact tile drops its preview: a preview request takes the exact.
    private func store(_ key: ServedTiles.Key, _ bytes: [UInt8]) {
        guard bytes.count <= cacheLimit else { return }
        tick += 1
        var replaced = [key]
        if !key.preview { replaced.append(ServedTiles.Key(z: key.z, x: key.x, y: key.y, preview: true)) }
        for k in replaced { cacheBytes -= cache.removeValue(forKey: k)?.bytes.count ?? 0 }
        cache[key] = (bytes, tick)
        cacheBytes += bytes.count
        while cacheBytes > cacheLimit, let oldest = cache.min(by: { $0.value.used < $1.value.used }) {
            cacheBytes -= oldest.value.bytes.count
            cache[oldest.key] = nil
        }
    }
}
