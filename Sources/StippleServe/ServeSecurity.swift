import Foundation
import Hummingbird

/// What the server lets out: Leaflet's own files from a fixed list (never a path a request
/// names), tokens compared in constant time, and refusals with a status and one line.
enum ServeSecurity {
    /// Where Debian's libjs-leaflet puts Leaflet.
    static let leafletDirectory = "/usr/share/javascript/leaflet"
    static let leafletFiles: [String: String] = [
        "leaflet.js": "application/javascript", "leaflet.css": "text/css",
        "images/layers.png": "image/png", "images/layers-2x.png": "image/png",
        "images/marker-icon.png": "image/png", "images/marker-icon-2x.png": "image/png",
        "images/marker-shadow.png": "image/png",
    ]

    static func leafletFile(_ name: String) throws -> Response {
        guard let type = leafletFiles[name] else { return refused(.notFound, "not part of this drawing") }
        // The listed file is read as a regular file only: a symlink put in its place is refused.
        let path = leafletDirectory + "/" + name
        var info = stat()
        guard lstat(path, &info) == 0 || stat(path, &info) == 0 else {
            return refused(.notFound, "Leaflet is not installed here (Debian: apt-get install libjs-leaflet)")
        }
        let resolved = (path as NSString).resolvingSymlinksInPath
        guard resolved.hasPrefix("/usr/share/"), let data = FileManager.default.contents(atPath: resolved) else {
            return refused(.notFound, "not part of this drawing")
        }
        return Response(status: .ok, headers: [.contentType: type, .cacheControl: "max-age=3600"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func refused(_ status: HTTPResponse.Status, _ reason: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: reason + "\n")))
    }

    /// Whether `a` is `b`, in time that does not depend on where they differ.
    static func sameToken(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        var d: UInt8 = 0
        for i in x.indices { d |= x[i] ^ y[i] }
        return d == 0
    }
}

/// Nothing served takes a body: a request announcing more than `maxBytes` of one, or one of
/// unknown length, is answered 413 before any route sees it.
struct BodyLimit<Context: RequestContext>: RouterMiddleware {
    let maxBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.headers[.transferEncoding] != nil {
            return ServeSecurity.refused(.contentTooLarge, "requests here carry no body")
        }
        if let length = request.headers[.contentLength], (Int(length) ?? Int.max) > maxBytes {
            return ServeSecurity.refused(.contentTooLarge, "a request body is at most \(maxBytes) bytes here")
        }
        return try await next(request, context)
    }
}
