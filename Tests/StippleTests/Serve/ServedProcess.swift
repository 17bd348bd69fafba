import Foundation
#if canImport(Glibc)
import Glibc
#endif
import XCTest
@testable import StippleBench

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

    /// GET `path` on a connection of its own: the status, the headers and the body.
    func get(_ path: String) throws -> (status: Int, headers: [String: String], body: [UInt8]) {
        try LoopbackHTTP(port: port).get(path, keepAlive: false)
    }
}
