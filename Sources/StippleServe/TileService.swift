import Foundation
import Stipple

/// What a tile's answer holds: its exact pixels, a preview, or its last exact pixels while
/// the drawing changes faster there than the tile can be made again (`stale`: to be asked for
/// again).
package enum TileKind: String, Sendable {
    case exact, preview, stale
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
        /// The bytes of exact tiles' pixels kept (for previews, remakes and drawing over).
        package var keptPixelBytes = 0
        /// The tile cache's bound in bytes (`--cache-mb`).
        package var cacheLimit = 0
        /// Previews made from pixels at hand (the tile's own, an ancestor's, the overview).
        package var previewsAtHand = 0
        /// Tiles read from the pyramid written in the background.
        package var fromPyramid = 0
        /// Of those, tiles below the top zoom whose file holds every change up to the version
        /// the client named, though the drawing changed there since.
        package var sinceNamed = 0
        /// Tiles below the top zoom made again from their children after a change, and the
        /// quadrants made (the others are kept from the tile as it was).
        package var fromChildren = 0, quadrantsMade = 0
        /// Exact tiles answered with their last exact pixels (`TileKind.stale`), and tiles
        /// below the top zoom made again whoever waits (`carry`).
        package var stale = 0, carried = 0
        /// Top tiles brought up to date by drawing the strokes added since over their pixels.
        package var drawnOver = 0
        /// The median time of the last 256 exact renders (drawn from the canvas), ms.
        package var renderMilliseconds = 0.0
        /// The renderer's part of them, ms: drawn whole, and drawn over (the last 256 of each).
        package var drawWholeMilliseconds = 0.0, drawOverMilliseconds = 0.0
        package var pyramidReady = false
    }

    package let tiles: ServedTiles
    let drawing: ServedDrawing
    let renderer: Renderer
    /// Exact tiles and previews wait in lines of their own: a preview (a few milliseconds)
    /// never waits behind an exact tile's render.
    let slots: RenderSlots
    let previewSlots: RenderSlots
    private let cacheLimit: Int
    private var cache: [ServedTiles.Key: [UInt8]] = [:]
    private var cacheOrder = RecencyOrder<ServedTiles.Key>()
    private var cacheBytes = 0
    var claims = TileClaims()
    /// What each client shows.
    private var views = ClientViews()
    /// Clients answered with a tile's last exact pixels that still show it: each keeps its
    /// claim on the tile's job (until its view moves away) and is told when the tile is made
    /// (`onReady`), to ask again then rather than on a timer.
    var watching: [ServedTiles.Key: Set<Int>] = [:]
    /// Jobs whose end is awaited for their watchers alone (nobody's request waits on them).
    var watched: Set<Int> = []
    /// Tells client `Int` that tile `Key`, answered stale before, has been made.
    var ready: (@Sendable (Int, ServedTiles.Key) -> Void)?
    var figures = Figures()
    var previews: TilePreviews
    /// Whether the overview is being drawn again where the drawing changed.
    var patching = false
    /// The drawing's whole pyramid, written in the background at the start as `render
    /// --pyramid --layout xyz` writes one (a fraction of the time tiles asked for one by one
    /// take): once it is whole, an exact tile is a file read, kept up to date as the drawing
    /// changes (`ServedPyramid`).
    var pyramid: ServedPyramid
    /// Tiles below the top zoom being made again, under a claim of their own, whoever waits:
    /// a request that cannot wait for one is answered with the tile's last exact pixels and
    /// asks again later. At most `carryLimit` at once: where the drawing changes faster than
    /// its low zooms can be made, the work put in line stays bounded (requests for other
    /// changed tiles meanwhile are answered with their last exact pixels, no work begun), and
    /// none is wasted (a tile begun is finished).
    var carried: Set<Int> = []
    /// Changes to the drawing so far: work begun before one is not kept after it.
    private var changes = 0
    /// The drawing's version whose change was the last taken in (`invalidate`).
    private(set) var version = 0

    package init(drawing: ServedDrawing, renderer: Renderer, width: Int, height: Int, cacheBytes: Int, renders: Int,
                 folder: String? = nil) {
        self.drawing = drawing
        self.renderer = renderer
        tiles = ServedTiles(width: width, height: height)
        pyramid = ServedPyramid(tiles: tiles, folder: folder)
        cacheLimit = cacheBytes
        slots = RenderSlots(count: renders)
        previewSlots = RenderSlots(count: renders)
        previews = TilePreviews(tiles: tiles, limit: min(64 << 20, cacheBytes))
    }

    /// Draws the overview the previews are cut from (in the background; previews until then
    /// are drawn by the preview engine).
    package func start() {
        let (drawing, renderer, view, root) = (self.drawing, self.renderer, previews.overviewView, pyramid.root)
        // The overview first (a fraction of a second), so previews are at hand from then on;
        // then the pyramid.
        Task(executorPreference: TileWorkers.shared) {
            let (scene, frame, _) = await drawing.snapshot()
            if let image = try? await renderer.renderPreview(scene, frame: frame, view: view) { await self.setOverview(image) }
            guard let root else { return }
            // The version before the snapshot: the pyramid holds every change up to it.
            let version = await drawing.version
            let (now, nowFrame, mark) = await drawing.markedSnapshot()
            // On a context and render thread of its own: the pyramid holds its renderer for
            // seconds at a time, and tiles asked for meanwhile must not wait behind it.
            let builder = (try? Renderer(niceness: StippleServer.tileNiceness)) ?? renderer
            let built = (try? await builder.writePyramid(now, frame: nowFrame, to: root,
                                                         options: PyramidOptions(layout: .xyz, overwrite: true))) != nil
            await self.pyramidBuilt(built, mark: mark, version: version)
        }
    }

    package var statistics: Figures {
        var f = figures
        f.cacheBytes = cacheBytes
        f.cacheTiles = cache.count
        f.keptPixelBytes = previews.bytes
        f.cacheLimit = cacheLimit
        f.pyramidReady = pyramid.ready
        func median(_ times: [Duration]) -> Double {
            guard !times.isEmpty else { return 0 }
            let d = times.sorted()[times.count / 2].components
            return Double(d.seconds) * 1e3 + Double(d.attoseconds) / 1e15
        }
        f.renderMilliseconds = median(renderTimes)
        f.drawWholeMilliseconds = median(drawTimes.whole)
        f.drawOverMilliseconds = median(drawTimes.over)
        return f
    }

    /// Renders waiting for a slot, and renders running.
    package var queued: Int { get async { await slots.queued + previewSlots.queued } }
    package var running: Int { get async { await slots.active + previewSlots.active } }
    /// Renders begun so far (given a slot; one whose claims all end before it is marked
    /// started is still dropped).
    package var begun: Int { get async { await slots.started + previewSlots.started } }
    /// Jobs marked started: past the point where a change of view drops them.
    package var committed: Int { claims.current.values.filter(\.started).count }

    /// The PNG of tile `key` for `client`: from the cache, or from the job already drawing
    /// it, or from a new one. Throws `CancellationError` when the tile's job was dropped.
    package func tile(_ key: ServedTiles.Key, client: Int) async throws -> [UInt8] {
        try await answer(key, client: client).png
    }

    /// The tile's PNG, and what it holds (a preview request may be answered with the exact
    /// pixels when they are at hand).
    ///
    /// With `staleAfter`, an exact tile below the top zoom whose job is not done within it is
    /// answered with its last exact pixels (`TileKind.stale`) while the job carries on: the
    /// drawing changes faster there than it can be made again.
    ///
    /// `since`: the drawing's version the client knows the tile at (the last change it was
    /// told of there). Below the top zoom, a file that holds every change up to it is the
    /// tile exact for that client, though the drawing changed there after: the client is
    /// told of those changes, and asks again naming them.
    package func answer(_ key: ServedTiles.Key, client: Int, seq: Int? = nil, request: Int? = nil, staleAfter: Duration? = nil,
                        since known: Int? = nil) async throws -> (png: [UInt8], kind: TileKind) {
        guard tiles.view(key) != nil else { throw ServeError("no such tile \(key)") }
        views.asked(client: client, seq: seq)
        let exactKey = ServedTiles.Key(z: key.z, x: key.x, y: key.y, preview: false)
        if let png = pyramid.upToDate(exactKey) {
            // The pyramid's tile: the exact pixels, for a preview too.
            figures.fromPyramid += 1
            return (png, .exact)
        }
        if let known, let png = pyramid.made(exactKey, since: known) {
            figures.fromPyramid += 1
            figures.sinceNamed += 1
            return (png, .exact)
        }
        // The exact tile when it is cached, for a preview too; else the tile as asked.
        for k in key.preview ? [exactKey, key] : [key] {
            guard let hit = cache[k] else { continue }
            cacheOrder.use(k)
            figures.cached += 1
            return (hit, k.preview ? .preview : .exact)
        }
        if key.preview, let image = previews.preview(key) {
            figures.previewsAtHand += 1
            // Kept for the next viewer, unless the drawing changed meanwhile.
            let version = changes
            let png = try await Task(executorPreference: TileWorkers.shared, priority: .high) { try ServedTiles.padded(image).pngData() }.value
            if version == changes { store(key, png) }
            return (png, .preview)
        }
        // Below the top zoom, with the pyramid whole, a tile gets here when the drawing changed
        // under it since its file was written.
        let staleable = staleAfter != nil && !key.preview && key.z < tiles.topZoom && pyramid.ready
        let job: TileClaims.Job
        if let joined = claims.join(key, client: client, request: request) {
            job = joined
            figures.coalesced += 1
            // Made for a tile above until now, and asked for itself from now on.
            if client >= 0 { Task { [slots = key.preview ? previewSlots : slots] in await slots.promote(joined.token) } }
        } else {
            let lineFull = staleable && carried.count >= Self.carryLimit
            let last = lineFull ? pyramid.lastMade(exactKey) : nil
            if let last, !views.shows(exactKey, client: client, seq: seq) {
                // As many tiles as the line can take are being made already: the last exact
                // pixels at once, no new work.
                figures.stale += 1
                return (last, .stale)
            }
            let slots = key.preview ? previewSlots : self.slots
            let below = !key.preview && key.z < tiles.topZoom && pyramid.folder != nil
            let token = claims.newToken()
            // A preview's job goes before exact tiles' work (`TileWorkers`' lanes).
            job = TileClaims.Job(token: token, task: Task(executorPreference: TileWorkers.shared, priority: key.preview ? .high : .medium) {
                if below {
                    // Below the top zoom, an exact tile comes from the pyramid: once it is
                    // whole, as its file, made again where the drawing changed. While it is
                    // being written, a tile waits a moment for it, then is drawn.
                    await self.waitForPyramid(atMost: TileService.pyramidPatience)
                    if let png = await self.upToDate(key) { return (png, nil) }
                    if let made = try await self.remade(key, token: token) { return made }
                }
                try await slots.acquire(id: token, urgent: client >= 0)
                defer { Task { await slots.release() } }
                await self.markStarted(key, token: token)
                // Its last claim may have ended between the slot and the mark (both on the
                // actor: a job cancelled there is never marked started): no render then.
                try Task.checkCancellation()
                return try await self.draw(key)
            })
            claims.add(key, job, client: client, request: request)
            if let last {
                // The line is full, but the client shows the tile: the last exact pixels at
                // once, and the tile made for as long as the client shows it.
                if let request { claims.requestEnded(request) }
                figures.stale += 1
                watch(exactKey, job, client: client)
                return (last, .stale)
            }
            if staleable { carry(key, job) }
        }
        defer { if let request { claims.requestEnded(request) } }
        let result: Result<(png: [UInt8], image: Image?), Error>
        if staleable, let staleAfter {
            guard let done = await job.task.result(within: staleAfter) else {
                // No pixels made yet: wait for them.
                guard let last = pyramid.lastMade(exactKey) else { return try answered(key, job: job, await job.task.result) }
                // The last exact pixels; the job goes on for its other claims (the carrier's),
                // and for this one while the client shows the tile.
                figures.stale += 1
                if views.shows(exactKey, client: client, seq: seq) {
                    watch(exactKey, job, client: client)
                } else {
                    release(key, client: client, all: false, token: job.token)
                }
                return (last, .stale)
            }
            result = done
        } else {
            result = await job.task.result
        }
        return try answered(key, job: job, result)
    }

    func answered(_ key: ServedTiles.Key, job: TileClaims.Job, _ result: Result<(png: [UInt8], image: Image?), Error>) throws
        -> (png: [UInt8], kind: TileKind) {
        switch result {
        case let .success((bytes, image)):
            finished(key, job: job, bytes: bytes, image: image)
            return (bytes, key.preview ? .preview : .exact)
        case let .failure(error):
            finished(key, job: job, bytes: nil, image: nil)
            throw error
        }
    }

    /// A request for `key` by `client` ended before its answer (its connection closed).
    /// With the request's number (`answer`'s), only the claim that request made ends.
    package func abandon(_ key: ServedTiles.Key, client: Int, request: Int? = nil) {
        guard let request else { return release(key, client: client, all: false) }
        guard let token = claims.abandoned(request) else { return }  // answered already
        release(key, client: client, all: false, token: token)
    }

    /// `client` now shows zoom `z`, tile columns `xs` and rows `ys`: its claims on tiles
    /// outside that (at any zoom) end.
    /// A view numbered (`seq`) older than one the client has asked for tiles in already came
    /// late (views and tiles travel on different connections): it changes nothing.
    package func viewChanged(client: Int, z: Int, xs: ClosedRange<Int>, ys: ClosedRange<Int>, seq: Int? = nil) {
        guard let view = views.moved(client: client, z: z, xs: xs, ys: ys, seq: seq) else { return }
        for key in claims.keys(of: client) where !view.holds(key) { release(key, client: client, all: true) }
        for key in watching.keys where !view.holds(key) { unwatch(key, client: client) }
    }

    /// `client` has gone: all its claims end.
    package func clientLeft(_ client: Int) {
        views.left(client: client)
        for key in claims.keys(of: client) { release(key, client: client, all: true) }
        for key in watching.keys { unwatch(key, client: client) }
    }

    /// The drawing changed over `box` (nil: everywhere): cached tiles there go, and jobs
    /// drawing them already are left to their waiters (new requests start afresh).
    package func invalidate(_ box: ServedDrawing.Box?, version: Int? = nil) {
        changes += 1
        if let version { self.version = max(self.version, version) }
        for key in tiles.keys(cache.keys, count: cache.count, contains: { cache[$0] != nil }, touching: box) {
            uncache(key)
        }
        previews.forget(box)
        pyramid.changed(box)
        previews.overviewChanged(box ?? ServedDrawing.Box(x0: 0, y0: 0, x1: tiles.width, y1: tiles.height))
        patchOverview()
        // Jobs that began reading the drawing are left to their waiters (a tile being made
        // again still writes its file: the change marked the quadrants it touched).
        claims.changed { key in box.map { tiles.box(key).intersects($0) } ?? true }
    }

    func markStarted(_ key: ServedTiles.Key, token: Int) { claims.started(key, token: token) }

    /// The last exact renders' times, from holding a slot to the PNG made.
    var renderTimes: [Duration] = []

    /// The renderer's part of the last exact tiles drawn whole, and drawn over.
    struct DrawTimes { var whole: [Duration] = [], over: [Duration] = [] }
    var drawTimes = DrawTimes()

    /// Ends `client`'s claim (or all its claims) on tile `key`'s jobs (job `token` only, when
    /// given), and drops those nobody waits for any more.
    func release(_ key: ServedTiles.Key, client: Int, all: Bool, token: Int? = nil) {
        for dropped in claims.release(key, client: client, all: all, only: token) { drop(dropped) }
    }

    /// Cancels a job nobody waits for, and ends its own claims (its children's renders).
    private func drop(_ dropped: TileClaims.Claims) {
        dropped.job.task.cancel()
        figures.cancelled += 1
        clientLeft(dropped.claimant)
    }

    func finished(_ key: ServedTiles.Key, job: TileClaims.Job, bytes: [UInt8]?, image: Image?) {
        let current = claims.finished(key, job: job)
        // Those told are asked again; where the drawing changed meanwhile, that begins anew.
        if bytes != nil, !key.preview, let clients = watching.removeValue(forKey: key) {
            for client in clients { ready?(client, key) }
        }
        guard current, let bytes else { return }
        figures.rendered += 1
        store(key, bytes)
        if let image {
            previews.keep(key, image)
            // Kept as the pyramid's file, so the tiles above can be made from it (a tile
            // below the top zoom wrote its own).
            // The top zoom's file was written as it was drawn (`drew`): it is now up to date.
            if key.z == tiles.topZoom { pyramid.current(key) }
        }
    }

    /// Caches `bytes` as `key` (in place of what it held: two viewers may make the same
    /// preview at once). An exact tile drops its preview: a preview request takes the exact.
    private func store(_ key: ServedTiles.Key, _ bytes: [UInt8]) {
        guard bytes.count <= cacheLimit else { return }
        uncache(key)
        if !key.preview { uncache(ServedTiles.Key(z: key.z, x: key.x, y: key.y, preview: true)) }
        cache[key] = bytes
        cacheOrder.use(key)
        cacheBytes += bytes.count
        while cacheBytes > cacheLimit, let oldest = cacheOrder.oldest() { uncache(oldest) }
    }

    private func uncache(_ key: ServedTiles.Key) {
        guard let bytes = cache.removeValue(forKey: key) else { return }
        cacheBytes -= bytes.count
        cacheOrder.remove(key)
    }
}
