import Foundation

/// How `stipple serve` runs (docs/serve.md).
public struct ServeOptions: Sendable {
    /// The address to listen on: loopback unless told otherwise.
    public var host = "127.0.0.1"
    /// 0: any free port (the URL printed says which).
    public var port = 8080
    /// Drawing (and undo, redo, clear) needs it; viewing too when `isPrivate`.
    public var token: String
    public var isPrivate = false
    /// The drawing's journal: the events drawn live, as `bake --events` reads them.
    public var journal: String?
    /// The tile cache's bound, bytes.
    public var cacheBytes = 256 << 20
    /// Tile renders at once.
    public var renders = 2
    /// How long an exact tile below the top zoom may take before it is answered with its
    /// last exact pixels, marked stale, while it is made again (nil: always wait).
    public var staleAfter: Duration? = .milliseconds(250)
    /// Limits of one connection: a WebSocket message's bytes, and its messages a second.
    public var maxMessageBytes = 16 << 10
    public var maxMessagesPerSecond = 400
    /// Where the drawing's pyramid is written in the background (nil: tiles are drawn on
    /// demand only).
    public var tileFolder: String?
    /// Read the script again when it (or a file it names) changes on disk.
    public var watch = false
    /// Seconds between the journal's syncs to the disk: what a crash can lose.
    public var saveInterval = 1.0

    public init(token: String = ServeOptions.newToken()) {
        self.token = token
    }

    /// 32 hex digits from the system's random source.
    public static func newToken() -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &g)) }.joined()
    }
}
