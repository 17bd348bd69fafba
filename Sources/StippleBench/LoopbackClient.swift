import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Clients of `stipple serve` for its load test and its tests: HTTP/1.1 and WebSocket over
/// blocking loopback sockets, a thread each, as many as a test needs.
/// A blocking TCP connection to loopback, with a receive timeout.
package final class LoopbackSocket {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        package init(_ d: String) { description = d }
    }
    package let fd: Int32

    package init(port: Int, timeout: Int = 20) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var tv = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let r = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard r == 0 else { close(fd); throw Failure("cannot connect to port \(port)") }
    }

    deinit { close(fd) }

    package func send(_ bytes: [UInt8]) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure("send failed") }
            done += n
        }
    }

    /// Up to 64 KiB; nil on a timeout or error, empty at the end.
    package func receive() -> [UInt8]? {
        var buf = [UInt8](repeating: 0, count: 65536)
        let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return n < 0 ? nil : Array(buf[..<n])
    }
}

/// A WebSocket client (RFC 6455, text messages, masked as a client must) over `LoopbackSocket`.
// Unchecked: one thread may send while another receives (a send touches only the socket);
// what is received is kept for the one thread that reads.
package final class LoopbackWebSocket: @unchecked Sendable {
    package let socket: LoopbackSocket
    private var buffer: [UInt8] = []
    package private(set) var closeCode: Int?

    package init(port: Int, path: String) throws {
        socket = try LoopbackSocket(port: port)
        try socket.send(Array(("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                               + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8))
        while !buffer.contains(subsequence: Array("\r\n\r\n".utf8)) {
            guard let chunk = socket.receive(), !chunk.isEmpty else { throw LoopbackSocket.Failure("no upgrade answer") }
            buffer += chunk
        }
        let end = buffer.indices.first { buffer[$0...].starts(with: Array("\r\n\r\n".utf8)) }!
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        buffer = Array(buffer[(end + 4)...])
        guard head.hasPrefix("HTTP/1.1 101") else { throw LoopbackSocket.Failure("upgrade refused: \(head.prefix(40))") }
    }

    package func send(_ text: String) throws { try send(opcode: 0x1, Array(text.utf8)) }

    /// Frames go out whole, one at a time: the reader answers pings while another thread sends.
    private let sending = NSLock()

    private func send(opcode: UInt8, _ payload: [UInt8]) throws {
        var frame: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count < 65536 {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            for i in (0..<8).reversed() { frame.append(UInt8((payload.count >> (8 * i)) & 0xFF)) }
        }
        let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try sending.withLock { try socket.send(frame) }
    }

    private var lines: [String] = []

    /// The next line of the text messages (a message may hold several, one a line); nil
    /// when the connection closed or nothing came in time.
    package func next() -> String? {
        if !lines.isEmpty { return lines.removeFirst() }
        guard let message = nextMessage() else { return nil }
        lines = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return lines.removeFirst()
    }

    /// The next text message, whole.
    package func nextMessage() -> String? {
        while true {
            if let (opcode, payload, used) = frame() {
                buffer.removeFirst(used)
                switch opcode {
                case 1: return String(decoding: payload, as: UTF8.self)
                case 8:
                    closeCode = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 1005
                    return nil
                case 9:
                    // A ping is answered, as a browser does (a server closes a socket that never answers).
                    try? send(opcode: 0xA, payload)
                    continue
                default: continue
                }
            }
            guard let chunk = socket.receive(), !chunk.isEmpty else { return nil }
            buffer += chunk
        }
    }

    /// Messages until one contains `text`; that one, or nil.
    package func next(containing text: String) -> String? {
        while let m = next() { if m.contains(text) { return m } }
        return nil
    }

    private func frame() -> (Int, [UInt8], Int)? {
        guard buffer.count >= 2 else { return nil }
        let opcode = Int(buffer[0] & 0x0F)
        var length = Int(buffer[1] & 0x7F), at = 2
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3]); at = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = (2..<10).reduce(0) { $0 << 8 | Int(buffer[$1]) }; at = 10
        }
        guard buffer.count >= at + length else { return nil }
        return (opcode, Array(buffer[at..<(at + length)]), at + length)
    }
}

extension Array where Element == UInt8 {
    package func contains(subsequence s: [UInt8]) -> Bool {
        guard count >= s.count else { return false }
        return (0...(count - s.count)).contains { self[$0..<($0 + s.count)].elementsEqual(s) }
    }
}

/// HTTP/1.1 GETs on one kept-alive connection (opened again when the server closes it).
package final class LoopbackHTTP {
    private let port: Int
    private var socket: LoopbackSocket?
    private var buffer: [UInt8] = []

    package init(port: Int) { self.port = port }

    /// GET `path`: the status, the headers (lowercased names) and the body.
    package func get(_ path: String, keepAlive: Bool = true) throws -> (status: Int, headers: [String: String], body: [UInt8]) {
        for attempt in 0..<2 {
            if socket == nil { socket = try LoopbackSocket(port: port); buffer = [] }
            do {
                try socket!.send(Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(keepAlive ? "" : "Connection: close\r\n")\r\n".utf8))
                let answer = try read()
                if !keepAlive || answer.headers["connection"] == "close" { socket = nil }
                return answer
            } catch {
                socket = nil
                if attempt == 1 { throw error }
            }
        }
        throw LoopbackSocket.Failure("no answer to \(path)")
    }

    private func read() throws -> (status: Int, headers: [String: String], body: [UInt8]) {
        let marker = Array("\r\n\r\n".utf8)
        var end: Int?
        while end == nil {
            end = buffer.count >= 4 ? (0...(buffer.count - 4)).first { buffer[$0..<($0 + 4)].elementsEqual(marker) } : nil
            if end == nil {
                guard let chunk = socket?.receive(), !chunk.isEmpty else { throw LoopbackSocket.Failure("the connection closed") }
                buffer += chunk
            }
        }
        let head = String(decoding: buffer[..<end!], as: UTF8.self).components(separatedBy: "\r\n")
        buffer.removeFirst(end! + 4)
        let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers: [String: String] = [:]
        for h in head.dropFirst() {
            let parts = h.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        if let n = headers["content-length"].flatMap({ Int($0) }) {
            while buffer.count < n {
                guard let chunk = socket?.receive(), !chunk.isEmpty else { throw LoopbackSocket.Failure("the body was cut") }
                buffer += chunk
            }
            let body = Array(buffer[..<n])
            buffer.removeFirst(n)
            return (status, headers, body)
        }
        // No length: the body runs to the connection's end.
        while let chunk = socket?.receive(), !chunk.isEmpty { buffer += chunk }
        defer { buffer = []; socket = nil }
        return (status, headers, buffer)
    }
}
