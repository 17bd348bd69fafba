import Foundation
import Stipple

/// Tiles below the top zoom kept up to date from the pyramid: waiting for it, making a tile
/// again from its children, carrying on the few a request could not wait for, and making
/// those a page was shown stale while it shows them, telling it when each is made.
extension TileService {
    func pyramidBuilt(_ built: Bool, mark: ServedDrawing.Mark?, version: Int) {
        for waiter in pyramid.built(built, mark: mark, version: version) { waiter.resume() }
    }

    /// Waits until the pyramid is whole (or its writing failed), or `seconds` have passed:
    /// a tile is not kept waiting for the whole pyramid (tens of seconds for a large drawing).
    func waitForPyramid(atMost seconds: Double) async {
        guard let id = pyramid.newWaiter() else { return }
        // Runs on this actor once the wait below has begun (the actor is busy until then).
        Task {
            try? await Task.sleep(for: .seconds(seconds))
            self.pyramid.stopWaiting(id)?.resume()
        }
        await withCheckedContinuation { pyramid.wait($0, id: id) }
    }

    /// How long a tile below the top zoom waits for the pyramid before it is drawn.
    static let pyramidPatience = 1.0

    /// Exact tile `key`, below the top zoom, made again once the pyramid is whole: from its
    /// file and the children of the quadrants that changed (all four where it has no file),
    /// then written as its file. Nil when the pyramid is not whole, or the tile cannot be
    /// made from its children (a translucent drawing): it is drawn then.
    nonisolated func remade(_ key: ServedTiles.Key, token: Int) async throws -> (png: [UInt8], image: Image?)? {
        guard await pyramidReady else { return nil }
        let remake = await beginRemake(key, token: token)
        var made = false
        defer { if !made { Task { await self.remakeFailed(token) } } }
        try Task.checkCancellation()
        // The changed children at once, so that their own remakes and renders wait in line
        // side by side rather than one after another. They are claimed by this job: when its
        // last claim ends before it is made, theirs end too (renders nobody waits for stop).
        // Each child kept as the quadrant it makes (a quarter of its pixels) while the others
        // are made; nil where the child cannot be halved so (the tile is drawn then).
        var quadrants: [[UInt8]?] = [nil, nil, nil, nil]
        var halvable = true
        let claimant = -1 - token
        try await withTaskCancellationHandler {
            try await withThrowingTaskGroup(of: (Int, [UInt8]?).self) { group in
                for q in 0..<4 where remake.quadrants & (1 << q) != 0 {
                    let child = ServedPyramid.child(key, q)
                    guard tiles.view(child) != nil else { continue }
                    // A child's exact pixels at hand need no PNG decoded.
                    if let image = await self.exactPixels(child) {
                        quadrants[q] = tiles.quadrant(key, q, child: image)
                        halvable = halvable && quadrants[q] != nil
                        continue
                    }
                    group.addTask {
                        let (png, _) = try await self.answer(child, client: claimant)
                        // Its pixels, kept as it was made, when the drawing has not changed
                        // there since (newer than the PNG, if anything); else the PNG decoded.
                        let image = try await self.exactPixels(child) ?? PNGFile.decode(png, name: "tile \(child)").image
                        return (q, self.tiles.quadrant(key, q, child: image))
                    }
                }
                for try await (q, made) in group {
                    quadrants[q] = made
                    halvable = halvable && made != nil
                }
            }
        } onCancel: {
            Task { await self.clientLeft(claimant) }
        }
        await markStarted(key, token: token)
        try Task.checkCancellation()
        // The tile's file once its children are made, not before: a remake waiting in line
        // for them holds no pixels of its own. Read now, each quadrant it keeps shows the
        // drawing at least as it was when the remake began (a later remake may have written
        // the file meanwhile; its quadrants are newer still). A change everywhere (a clear)
        // takes the files away: the tile is drawn then.
        var base: Image?
        if let path = remake.base {
            guard let read = try? PNGFile.read(path: path).image else { return nil }
            base = read
        }
        guard halvable, let image = tiles.parent(key, quadrants: quadrants, over: base) else { return nil }
        let png = try image.pngData()
        await keepRemade(key, token, png, image, quadrants: remake.quadrants.nonzeroBitCount)
        made = true
        return (png, image)
    }

    /// A tile's exact pixels when they are at hand, as the drawing is now.
    func exactPixels(_ key: ServedTiles.Key) -> Image? { previews.exact(key) }

    var pyramidReady: Bool { pyramid.ready }
    func upToDate(_ key: ServedTiles.Key) -> [UInt8]? { pyramid.upToDate(key) }
    /// Takes the quadrants to make (they count as being made) and marks the job begun: a
    /// change from now on outdates it.
    func beginRemake(_ key: ServedTiles.Key, token: Int) -> ServedPyramid.Remake {
        claims.began(key, token: token)
        return pyramid.beginRemake(key, token: token, version: version)
    }
    func keepRemade(_ key: ServedTiles.Key, _ token: Int, _ png: [UInt8], _ image: Image, quadrants: Int) {
        // Its pixels feed the tile above's remake and its descendants' previews, while they
        // are the tile as the drawing is.
        if pyramid.made(token, png) { previews.keep(key, image) }
        figures.fromChildren += 1
        figures.quadrantsMade += quadrants
    }
    func remakeFailed(_ token: Int) { pyramid.failed(token) }

    /// How many tiles below the top zoom are made at once whoever waits (`carried`).
    static let carryLimit = 4
    /// The claimant of the tiles carried.
    static let carrier = Int.min

    func carry(_ key: ServedTiles.Key, _ job: TileClaims.Job) {
        guard claims.claim(key, job, client: Self.carrier) else { return }
        carried.insert(job.token)
        figures.carried += 1
        Task { self.carriedEnded(key, job: job, result: await job.task.result) }
    }

    /// `client`, answered with tile `key`'s last exact pixels, shows it: its claim on `job`
    /// stays until its view moves away, and it is told when the tile is made.
    func watch(_ key: ServedTiles.Key, _ job: TileClaims.Job, client: Int) {
        watching[key, default: []].insert(client)
        // A carried job's end is awaited already.
        guard !carried.contains(job.token), watched.insert(job.token).inserted else { return }
        Task { self.watchedEnded(key, job: job, result: await job.task.result) }
    }

    func watchedEnded(_ key: ServedTiles.Key, job: TileClaims.Job, result: Result<(png: [UInt8], image: Image?), Error>) {
        watched.remove(job.token)
        _ = try? answered(key, job: job, result)
    }

    func unwatch(_ key: ServedTiles.Key, client: Int) {
        guard watching[key]?.remove(client) != nil, watching[key]!.isEmpty else { return }
        watching[key] = nil
    }

    /// Tells the server how to let a client know that a tile it was answered stale for has
    /// been made (a message on its live socket).
    package func onReady(_ tell: @escaping @Sendable (Int, ServedTiles.Key) -> Void) { ready = tell }

    func carriedEnded(_ key: ServedTiles.Key, job: TileClaims.Job, result: Result<(png: [UInt8], image: Image?), Error>) {
        carried.remove(job.token)
        _ = try? answered(key, job: job, result)
    }
}
