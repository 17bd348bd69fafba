import Foundation
import Stipple
#if canImport(Glibc)
import Glibc
#endif

/// `stipple serve` as a child process on a free port, with a known token (the load test's
/// server, and the tests' own).
package final class ServeChild {
    let process = Process()
    package let port: Int
    package let token: String

    static func randomToken() -> String { (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max)) }.joined() }

    convenience init(exe: String, script: String, journal: String) throws {
        try self.init(exe: exe, arguments: [script, "--journal", journal])
    }

    /// Starts `exe serve ARGUMENTS --port 0` and waits for the line naming its URL.
    package init(exe: String, arguments: [String], token: String = ServeChild.randomToken()) throws {
        self.token = token
        process.executableURL = URL(fileURLWithPath: exe)
        process.arguments = ["serve"] + arguments + ["--port", "0"]
        var env = ProcessInfo.processInfo.environment
        env["STIPPLE_SERVE_TOKEN"] = token
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression),
              let p = Int(text[range].split(separator: ":").last!) else {
            process.terminate()
            throw RenderError("serve did not start: \(text)")
        }
        port = p
    }

    deinit { stop() }

    package func stop() {
        process.end()
    }

    /// Ends the server as a crash would: no chance to finish anything.
    package func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitForExit(timeout: 10)
    }

    /// GET `path` on a connection of its own: the status, the headers and the body.
    package func get(_ path: String) throws -> (status: Int, headers: [String: String], body: [UInt8]) {
        try LoopbackHTTP(port: port).get(path, keepAlive: false)
    }
}
