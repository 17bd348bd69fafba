import ArgumentParser
import Foundation
import Stipple
import StippleServe

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Show a drawing of any size in the browser, and draw on it live with others.",
        discussion: """
            Prints the URL to open. The page pans and zooms the drawing (Leaflet): its tiles are \
            rendered as they are asked for, each shown first as a quick preview, then exact. \
            Anyone who can reach the server may look; drawing, undo, redo and clear need the \
            token in the drawing URL it prints (open that one to draw). It listens on loopback \
            unless --host says otherwise; --private asks the token for looking too.
            What is drawn is kept in the journal (SCRIPT's name with .live.jsonl, or --journal): \
            the touch events as `bake --events` reads them, made durable every second. A \
            restart shows the drawing again; `stipple bake SCRIPT --events JOURNAL` replays it. \
            docs/serve.md has the page, the messages and the security model.
            Examples:
              stipple serve drawing.json
              stipple serve drawing.json --port 9000 --host 0.0.0.0 --private
            """)

    @Argument(help: "The script to serve (its strokes stay: maxAge 0).")
    var script: String

    @Option(help: "The port to listen on (0: any free one).")
    var port = 8080

    @Option(help: "The address to listen on: loopback unless you say otherwise (0.0.0.0: every interface).")
    var host = "127.0.0.1"

    @Flag(help: "Ask for the token to look at the drawing too, not only to draw.")
    var `private` = false

    @Option(help: "Where the drawing's live events are kept (default: SCRIPT with .live.jsonl).")
    var journal: String?

    @Flag(help: "Read SCRIPT again when it changes on disk; the pages fetch only the tiles whose pixels changed.")
    var watch = false

    @Option(help: "The tile cache's size, MiB.")
    var cacheMb = 256

    @Option(help: "Tile renders at once.")
    var renders = 2

    @Option(help: ArgumentHelp("How long a zoomed-out exact tile may take, ms, before its last exact pixels are sent (marked stale; the page asks again when told the tile is made).",
                               discussion: "0 sends them at once whenever the tile is not up to date."))
    var staleAfter = 250

    /// A folder of its own for the pyramid, in the system's temporary folder; folders of
    /// servers no longer running are removed first.
    static func tileFolder() throws -> String {
        let tmp = FileManager.default.temporaryDirectory.path
        for name in (try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? [] where name.hasPrefix("stipple-serve-") {
            if let pid = Int32(name.dropFirst("stipple-serve-".count)), kill(pid, 0) != 0, errno == ESRCH {
                try? FileManager.default.removeItem(atPath: tmp + "/" + name)
            }
        }
        let folder = tmp + "/stipple-serve-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port is 0 to 65535 (got \(port))") }
        guard (1...4096).contains(cacheMb) else { throw ValidationError("--cache-mb is 1 to 4096 (got \(cacheMb))") }
        guard (1...64).contains(renders) else { throw ValidationError("--renders is 1 to 64 (got \(renders))") }
        guard (0...600_000).contains(staleAfter) else { throw ValidationError("--stale-after is 0 to 600000 ms (got \(staleAfter))") }
    }

    func run() async throws {
        var options = ServeOptions(token: ProcessInfo.processInfo.environment["STIPPLE_SERVE_TOKEN"] ?? ServeOptions.newToken())
        options.host = host
        options.port = port
        options.isPrivate = `private`
        options.journal = journal ?? ((script as NSString).deletingPathExtension + ".live.jsonl")
        options.cacheBytes = cacheMb << 20
        options.renders = renders
        options.staleAfter = .milliseconds(staleAfter)
        options.watch = watch
        options.tileFolder = try ServeCommand.tileFolder()
        let server = try await StippleServer(script: script, options: options, renderer: try makeRenderer(niceness: StippleServer.tileNiceness))
        let (token, journal, isPrivate, script) = (options.token, options.journal ?? "", options.isPrivate, self.script)
        try await server.run { url in
            // Written at once (not buffered): whoever started the server waits for the URL.
            FileHandle.standardOutput.write(Data(("Serving \(script) at \(url)\(isPrivate ? "?token=\(token)" : "")\n"
                                                  + "To draw, open: \(url)?token=\(token)\n"
                                                  + "Journal: \(journal)\n").utf8))
        }
    }
}
