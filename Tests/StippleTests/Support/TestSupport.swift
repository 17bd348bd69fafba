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
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes while the process runs, so a large output cannot block it.
        let errBox = DataBox()
        let group = DispatchGroup()
        let errHandle = err.fileHandleForReading
        DispatchQueue.global().async(group: group) { errBox.data = errHandle.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let errData = errBox.data
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                   stderr: String(decoding: errData, as: UTF8.self))
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
