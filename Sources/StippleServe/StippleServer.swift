import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import Stipple

/// Each HTTP request's context: the connection it came on, whose closing ends the
/// request's claim on a tile.
struct ServeContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel
    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
    /// Nothing served takes a body: a request carrying more than this is refused.
    var maxUploadSize: Int { 4096 }
}

struct ServeSocketContext: WebSocketRequestContext, RequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<ServeSocketContext>
    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
    }
}

/// `stipple serve`: a drawing in the browser at any size, looked at by anyone who can reach
/// it and drawn on by those who hold the token (docs/serve.md).
///
/// Routes, and nothing else: `/` the page, `/leaflet/…` Leaflet's own files (a fixed list),
/// `/drawing.json` the drawing's size and zooms, `/tiles/Z/X/Y.png` its tiles (`?preview=1`
/// for the quick one), `/live` the WebSocket of views, strokes and changes.
public final class StippleServer: Sendable {
    package let drawing: ServedDrawing
    package let tiles: TileService
    package let hub: LiveHub
    public let options: ServeOptions
    let name: String
    let width: Int, height: Int
    let brushNames: [String]
    let scriptPath: String

    /// The nice value the server's tile work runs at, and its `renderer` should be made
    /// with: tiles yield the cores to the live channel (strokes relayed to every client).
    package static let tileNiceness: Int32 = 10

    /// Loads `script` and its journal (see `ServedDrawing`), on `renderer`.
    public init(script path: String, options: ServeOptions, renderer: Renderer) async throws {
        Self.limitHeapArenas()
        let script = try Script.load(path: path)
        self.options = options
        drawing = try ServedDrawing(script: script, journal: options.journal)
        width = script.canvas.width
        height = script.canvas.height
        brushNames = await drawing.brushNames
        tiles = TileService(drawing: drawing, renderer: renderer, width: width, height: height,
                            cacheBytes: options.cacheBytes, renders: options.renders, folder: options.tileFolder)
        hub = LiveHub()
        name = (path as NSString).lastPathComponent
        scriptPath = path
    }

    /// Serves until the task is cancelled; `started` is called with the URL once listening.
    public func run(started: @escaping @Sendable (String) async -> Void) async throws {
        await tiles.start()
        // A tile answered stale is made while its client shows it; the client hears when.
        await tiles.onReady { [hub] client, key in
            Task { await hub.send(ServeMessages.ready(key), to: client) }
        }
        let router = Router(context: ServeContext.self)
        routes(router)
        let sockets = Router(context: ServeSocketContext.self)
        liveRoute(sockets)
        let options = self.options
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(webSocketRouter: sockets,
                                           configuration: .init(http1: .init(additionalChannelHandlers: [ClientGone()]),
                                                                ws: .init(maxFrameSize: options.maxMessageBytes))),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: "stipple"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? options.port
                let host = options.host.contains(":") ? "[\(options.host)]" : options.host
                await started("http://\(host):\(port)/")
            },
            logger: {
                var l = Logger(label: "stipple.serve")
                l.logLevel = .error
                return l
            }()
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            group.addTask { [drawing] in
                // The journal is made durable every `saveInterval`: what a crash can lose.
                while !Task.isCancelled {
                    try await Task.sleep(for: .milliseconds(Int(options.saveInterval * 1000)))
                    await drawing.flush()
                }
            }
            group.addTask { try await Self.trimHeapNowAndThen() }
            if options.watch {
                group.addTask { try await self.watch() }
            }
            try await group.next()
            group.cancelAll()
        }
        await drawing.flush()
    }

    /// Reads the script again whenever it or a file it names changes (checked twice a
    /// second), and sends every client the pixels that changed. A script that cannot be
    /// served any more is reported and the drawing stays as it was.
    private func watch() async throws {
        func stamp() async -> [String: String] {
            let files = [scriptPath] + (await drawing.script.inputFiles)
            var result: [String: String] = [:]
            for f in files {
                var info = stat()
                result[f] = stat(f, &info) == 0 ? "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec):\(info.st_size)" : "missing"
            }
            return result
        }
        var seen = await stamp()
        while !Task.isCancelled {
            try await Task.sleep(for: .milliseconds(500))
            let now = await stamp()
            guard now != seen else { continue }
            seen = now
            do {
                let change = try await drawing.reload(try Script.load(path: scriptPath))
                await changed(change)
            } catch {
                FileHandle.standardError.write(Data("stipple serve: \(scriptPath) changed, and cannot be served as it is now: \(error); the drawing stays as it was\n".utf8))
            }
        }
    }

    // MARK: - HTTP

    func authorised(_ request: Request) -> Bool {
        guard options.isPrivate else { return true }
        return hasToken(request)
    }

    func hasToken(_ request: Request) -> Bool {
        let given = request.uri.queryParameters["token"].map(String.init)
            ?? request.headers[.authorization].map { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : $0 }
        return given.map { ServeSecurity.sameToken($0, options.token) } ?? false
    }

    private func routes(_ router: Router<ServeContext>) {
        router.add(middleware: BodyLimit(maxBytes: 4096))
        router.get("/") { request, _ -> Response in
            guard self.authorised(request) else { return ServeSecurity.refused(.unauthorized, "this drawing needs its token: open the URL serve printed") }
            return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(string: ServePage.html(title: self.name))))
        }
        router.get("/leaflet/{file}") { _, context -> Response in
            try ServeSecurity.leafletFile(context.parameters.get("file") ?? "")
        }
        router.get("/leaflet/images/{file}") { _, context -> Response in
            try ServeSecurity.leafletFile("images/" + (context.parameters.get("file") ?? ""))
        }
        router.get("/drawing.json") { request, _ -> Response in
            guard self.authorised(request) else { return ServeSecurity.refused(.unauthorized, "this drawing needs its token") }
            let version = await self.drawing.version
            let brushes = self.brushNames.map(JSONValue.quoted).joined(separator: ",")
            let json = #"{"name":\#(JSONValue.quoted(self.name)),"width":\#(self.width),"height":\#(self.height),"tileSize":\#(ServedTiles.side),"#
                + #""topZoom":\#(self.tiles.tiles.topZoom),"version":\#(version),"brushes":[\#(brushes)],"canDraw":\#(self.hasToken(request))}"#
            return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(string: json)))
        }
        router.get("/stats.json") { request, _ -> Response in
            // The server's own figures, for whoever holds the token (the load bench reads them).
            guard self.hasToken(request) else { return ServeSecurity.refused(.unauthorized, "the figures need the token") }
            let f = await self.tiles.statistics
            let (queued, running, begun) = (await self.tiles.queued, await self.tiles.running, await self.tiles.begun)
            let (clients, added, refused) = (await self.hub.count, await self.hub.strokesAdded, await self.hub.eventsRefused)
            let waiting = await self.hub.waiting
            // The heap's figures walk all of it under its locks: only when asked for.
            let heap = request.uri.queryParameters["heap"] != "1" ? "" : {
                let (used, held) = ServeStatistics.heap()
                return #","heapUsedBytes":\#(used),"heapHeldBytes":\#(held)"#
            }()
            let json = #"{"rendered":\#(f.rendered),"cached":\#(f.cached),"previewsAtHand":\#(f.previewsAtHand),"fromPyramid":\#(f.fromPyramid),"sinceNamed":\#(f.sinceNamed),"fromChildren":\#(f.fromChildren),"stale":\#(f.stale),"carried":\#(f.carried),"drawnOver":\#(f.drawnOver),"keptPixelBytes":\#(f.keptPixelBytes),"cacheLimitBytes":\#(f.cacheLimit),"renderMs":\#(f.renderMilliseconds),"drawWholeMs":\#(f.drawWholeMilliseconds),"drawOverMs":\#(f.drawOverMilliseconds),"drawingBytes":\#(await self.drawing.bytes),"quadrantsMade":\#(f.quadrantsMade),"pyramidReady":\#(f.pyramidReady),"coalesced":\#(f.coalesced),"cancelled":\#(f.cancelled),"#
                + #""cacheBytes":\#(f.cacheBytes),"cacheTiles":\#(f.cacheTiles),"queued":\#(queued),"running":\#(running),"begun":\#(begun),"clients":\#(clients),"#
                + #""linesWaiting":\#(waiting.total),"mostLinesWaiting":\#(waiting.most),"#
                + #""strokesAdded":\#(added),"eventsRefused":\#(refused),"residentBytes":\#(ServeStatistics.residentBytes())\#(heap)}"#
            return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(string: json)))
        }
        router.get("/tiles/{z}/{x}/{tile}") { request, context -> Response in
            guard self.authorised(request) else { return ServeSecurity.refused(.unauthorized, "this drawing needs its token") }
            guard let z = context.parameters.get("z", as: Int.self), let x = context.parameters.get("x", as: Int.self),
                  let file = context.parameters.get("tile"), file.hasSuffix(".png"), let y = Int(file.dropLast(4)) else {
                return ServeSecurity.refused(.notFound, "a tile is /tiles/Z/X/Y.png")
            }
            let key = ServedTiles.Key(z: z, x: x, y: y, preview: request.uri.queryParameters["preview"] == "1")
            guard self.tiles.tiles.view(key) != nil else { return ServeSecurity.refused(.notFound, "no tile \(z)/\(x)/\(y) in this drawing") }
            // A client is a positive number (the hub's); the negative ones are the server's
            // own claims (a tile made for another's sake), which no request may take.
            let client = max(0, request.uri.queryParameters["c"].flatMap { Int($0) } ?? 0)
            // The number of the client's view it was asked for in (a view message older than
            // that, arriving late on the socket, does not end its claim).
            let seq = request.uri.queryParameters["w"].flatMap { Int($0) }
            // The drawing's version the client knows the tile at (the last change it was told
            // of there, or the drawing's version when it loaded).
            let known = request.uri.queryParameters["v"].flatMap { Int($0) }
            // The connection closing (the browser dropped the tile) ends this request's claim.
            let tiles = self.tiles
            // One client may ask for a tile again on another connection before the first is
            // seen to close: the request's own number says which claim the close ends.
            let request = Int.random(in: 1...Int.max)
            let watch = ClientGone.whenGone(context.channel) { Task { await tiles.abandon(key, client: client, request: request) } }
            defer { watch.end() }
            do {
                let (png, kind) = try await tiles.answer(key, client: client, seq: seq, request: request, staleAfter: self.options.staleAfter,
                                                         since: known)
                return Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "no-cache",
                                                       HTTPField.Name("X-Stipple-Tile")!: kind.rawValue],
                                body: .init(byteBuffer: ByteBuffer(bytes: png)))
            } catch is CancellationError {
                return ServeSecurity.refused(.gone, "the tile left the view before it was drawn")
            }
        }
        router.get("/**") { _, _ -> Response in
            ServeSecurity.refused(.notFound, "not part of this drawing")
        }
    }

    // MARK: - WebSocket

    private func liveRoute(_ router: Router<ServeSocketContext>) {
        router.ws("/live", shouldUpgrade: { request, _ in
            self.authorised(request) ? .upgrade([:]) : .dontUpgrade
        }) { inbound, outbound, context in
            var connection = LiveConnection(server: self, canDraw: self.hasToken(context.request))
            let (client, outbox) = await self.hub.join()
            connection.client = client
            connection.outbox = outbox
            let version = await self.drawing.version
            outbox.post(#"{"hello":{"client":\#(client),"canDraw":\#(connection.canDraw),"version":\#(version)}}"#)
            await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await outbox.deliver { try await outbound.write(.text($0.joined(separator: "\n"))) }
                }
                defer { group.cancelAll() }
                var limiter = RateLimiter(perSecond: self.options.maxMessagesPerSecond)
                do {
                    for try await message in inbound.messages(maxSize: self.options.maxMessageBytes) {
                        guard limiter.allow() else {
                            try await outbound.close(.policyViolation, reason: "more than \(self.options.maxMessagesPerSecond) messages a second")
                            break
                        }
                        guard case let .text(text) = message else {
                            outbox.post(ServeMessages.error("messages are JSON text"))
                            continue
                        }
                        await connection.handle(text)
                    }
                } catch {
                    // A message past the size limit closes the connection (status 1009); the drawing is untouched.
                }
                await self.hub.leave(client, open: Array(connection.strokes.keys))
                await self.tiles.clientLeft(client)
            }
        }
    }

    func refused(_ outbox: Outbox?, _ reason: String) async {
        await hub.counted(refused: 1)
        outbox?.post(ServeMessages.error(reason))
    }

    func changed(_ change: ServedDrawing.Change) async {
        await tiles.invalidate(change.box, version: change.version)
        await hub.broadcast(ServeMessages.changed(change))
    }
}
