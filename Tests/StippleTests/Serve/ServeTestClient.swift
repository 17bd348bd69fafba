import Foundation
#if canImport(Glibc)
import Glibc
#endif
import XCTest

/// A `stipple serve` started for a test (port 0, a known token), stopped with the test.
final class ServedProcess {
    let process = Process()
    let port: Int
    let token = "test-token-0123456789"

    init(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        process.executableURL = TestSupport.stippleBinary
        process.arguments = ["serve"] + arguments + ["--port", "0"]
        var env = ProcessInfo.processInfo.environment
        env["STIPPLE_SERVE_TOKEN"] = token
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.standardError
        try process.run()
        // The first line names the URL once the server listens.
        var text = ""
        let deadline = Date().addingTimeInterval(60)
        while !text.contains("\n"), Date() < deadline {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression),
              let p = Int(text[range].split(separator: ":").last!) else {
            process.terminate()
            throw XCTSkip("stipple serve did not start: \(text)")
        }
        port = p
    }

    func kill9() { Glibc.kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }

    deinit { if process.isRunning { process.terminate(); process.waitUntilExit() } }

    /// GET `path`: the status, the headers (lowercased names) and the body.
    func get(_ path: String) throws -> (status: Int, headers: [String: String], body: [UInt8]) {
        let s = try TestSocket(port: port)
        try s.send(Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        var all: [UInt8] = []
        while let chunk = s.receive(), !chunk.isEmpty { all += chunk }
        guard let split = all.indices.first(where: { all[$0...].starts(with: Array("\r\n\r\n".utf8)) }) else {
            throw TestSocket.Failure("no HTTP answer to \(path)")
        }
        let head = String(decoding: all[..<split], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for h in head.dropFirst() {
            let parts = h.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return (status, headers, Array(all[(split + 4)...]))
    }
}

/// A blocking TCP connection to loopback, with a receive timeout.
final class TestSocket {
    struct Failure: Error, CustomStringConvertible { var description: String; init(_ d: String) { description = d } }
    let fd: Int32

    init(port: Int, timeout: Int = 20) throws {
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

    func send(_ bytes: [UInt8]) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure("send failed") }
            done += n
        }
    }

    /// Up to 64 KiB; nil on a timeout or error, empty at the end.
    func receive() -> [UInt8]? {
        var buf = [UInt8](repeating: 0, count: 65536)
        let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return n < 0 ? nil : Array(buf[..<n])
    }
}

/// A WebSocket client (RFC 6455, text messages) over `TestSocket`.
final class TestWebSocket {
    let socket: TestSocket
    private var buffer: [UInt8] = []
    private(set) var closeCode: Int?

    init(port: Int, path: String) throws {
        socket = try TestSocket(port: port)
        try socket.send(Array(("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                               + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8))
        while !buffer.contains(subsequence: Array("\r\n\r\n".utf8)) {
            guard let chunk = socket.receive(), !chunk.isEmpty else { throw TestSocket.Failure("no upgrade answer") }
            buffer += chunk
        }
        let end = buffer.indices.first { buffer[$0...].starts(with: Array("\r\n\r\n".utf8)) }!
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        buffer = Array(buffer[(end + 4)...])
        guard head.hasPrefix("HTTP/1.1 101") else { throw TestSocket.Failure("upgrade refused: \(head.prefix(40))") }
    }

    func send(_ text: String) throws {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
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
        try socket.send(frame)
    }

    /// The next text message; nil when the connection closed or nothing came in time.
    func next() -> String? {
        while true {
            if let (opcode, payload, used) = frame() {
                buffer.removeFirst(used)
                switch opcode {
                case 1: return String(decoding: payload, as: UTF8.self)
                case 8:
                    closeCode = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 1005
                    return nil
                default: continue
                }
            }
            guard let chunk = socket.receive(), !chunk.isEmpty else { return nil }
            buffer += chunk
        }
    }

    /// Messages until one contains `text`; that one, or nil.
    func next(containing text: String) -> String? {
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
    func contains(subsequence s: [UInt8]) -> Bool {
        guard count >= s.count else { return false }
        return (0...(count - s.count)).contains { self[$0..<($0 + s.count)].elementsEqual(s) }
    }
}
