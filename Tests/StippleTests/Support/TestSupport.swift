import Foundation
import XCTest

/// Paths and helpers shared by tests that run the `stipple` executable or read fixtures.
final class DataBox: @unchecked Sendable { var data = Data() }

enum TestSupport {
    /// The package's root folder (this file is Tests/StippleTests/Support/TestSupport.swift).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let fixtures = packageRoot.appendingPathComponent("Fixtures")

    /// The built `stipple` beside the test bundle (SwiftPM builds it with the tests).
    static var stippleBinary: URL {
        let bundleDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [bundleDir.appendingPathComponent("stipple"),
                          Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("stipple")]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `stipple` with `arguments`; `environment` entries are added to this process's.
    static func stipple(_ arguments: [String], environment: [String: String] = [:],
                        in directory: URL? = nil) throws -> Run {
        try run(stippleBinary.path, arguments, environment: environment, in: directory)
    }

    /// Runs `executable` with `arguments`; `environment` entries are added to this process's.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    in directory: URL? = nil) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        // `make sanitize` turns LeakSanitizer off for the test runner (XCTest leaves its own
        // objects at exit) and on again here, for every program a test runs.
        if sanitizerFlags == ["-sanitize=address"] && environment["ASAN_OPTIONS"] == nil {
            env["ASAN_OPTIONS"] = "detect_leaks=1"
        }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let (outData, errData) = collect(process, out: out, err: err)
        return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                   stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Reads a child's stdout and stderr while it runs (so a large output cannot block it),
    /// then waits for it. Once the child has exited, the pipes get `grace` seconds more to
    /// close: a process the child left behind holding them (a crash reporter that hangs, as
    /// Swift's backtracer does under AddressSanitizer) must not hang the test.
    static func collect(_ process: Process, out: Pipe, err: Pipe, grace: TimeInterval = 5) -> (Data, Data) {
        let descriptors = [out.fileHandleForReading.fileDescriptor, err.fileHandleForReading.fileDescriptor]
        var data = [Data(), Data()]
        var open = [true, true]
        var exitedAt: Date?
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while open.contains(true) {
            if exitedAt == nil && !process.isRunning { exitedAt = Date() }
            if let exitedAt, Date().timeIntervalSince(exitedAt) > grace { break }
            var fds = (0..<2).map { pollfd(fd: open[$0] ? descriptors[$0] : -1, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, 2, 100) > 0 else { continue }
            for i in 0..<2 where open[i] && fds[i].revents != 0 {
                let n = read(descriptors[i], &buffer, buffer.count)
                if n > 0 {
                    data[i].append(contentsOf: buffer[0..<n])
                } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                    open[i] = false
                }
            }
        }
        process.waitUntilExit()
        return (data[0], data[1])
    }

    /// The sanitizer this test process runs under (`make sanitize`), as swiftc's flag, found
    /// by its runtime's symbol: a program linked against these objects needs the same.
    static var sanitizerFlags: [String] {
        guard let handle = dlopen(nil, RTLD_NOW) else { return [] }
        defer { dlclose(handle) }
        if dlsym(handle, "__asan_init") != nil { return ["-sanitize=address"] }
        if dlsym(handle, "__tsan_init") != nil { return ["-sanitize=thread"] }
        return []
    }

    /// Third-party files kept beside the checkout, not in it (a bare clone has none):
    /// `../shared/<path>`, or `<path>` under STIPPLE_THIRD_PARTY when it is set (`none`:
    /// nowhere, as a bare clone sees it). Tests that need them skip without them.
    static func thirdParty(_ path: String) -> URL {
        switch ProcessInfo.processInfo.environment["STIPPLE_THIRD_PARTY"] {
        case "none"?: return URL(fileURLWithPath: "/nonexistent/third-party").appendingPathComponent(path)
        case let folder? where !folder.isEmpty: return URL(fileURLWithPath: folder).appendingPathComponent(path)
        default: return packageRoot.deletingLastPathComponent().appendingPathComponent("shared").appendingPathComponent(path)
        }
    }

    /// The path of program `name` on PATH, or nil.
    static func which(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A fresh temporary folder, removed when the test ends.
    static func temporaryDirectory(_ test: XCTestCase, _ name: String = "stipple") throws -> URL {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }
}
