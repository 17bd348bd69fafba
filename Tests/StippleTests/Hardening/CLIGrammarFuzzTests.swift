import Foundation
import Synchronization
import XCTest

/// The command line fuzzed over its whole grammar (`CLIGrammar`): each case runs the real
/// `stipple` in a folder of its own, and a finding is a crash (a signal), a hang (past the
/// time limit), memory past the limit, an exit status other than 0, 1, 2 or 64, a refusal
/// that is not one line on stderr, an input file changed or removed, a failed run that
/// leaves files behind, or input the docs put out of range accepted.
///
/// `make test` runs a short seeded run. `make fuzz-cli` runs many more cases on the release
/// build: STIPPLE_FUZZ_CASES (cases), STIPPLE_FUZZ_SEED, STIPPLE_FUZZ_BINARY (the `stipple`
/// to run), STIPPLE_FUZZ_JOBS (runs at once), STIPPLE_FUZZ_OUT (a folder for the summary and
/// each finding's files).
final class CLIGrammarFuzzTests: XCTestCase {
    struct Outcome {
        var status: Int32 = 0
        var signal: Int32?
        var timedOut = false
        var stdout = ""
        var stderr = ""
        var peakBytes = 0
        var seconds = 0.0
    }

    static let timeLimit: TimeInterval = 60
    static let memoryLimit = 2 << 30

    func testASeededRunOverTheWholeGrammar() throws {
        let env = ProcessInfo.processInfo.environment
        let count = Int(env["STIPPLE_FUZZ_CASES"] ?? "") ?? 40
        let seed = UInt64(env["STIPPLE_FUZZ_SEED"] ?? "") ?? 20_261_125
        let binary = env["STIPPLE_FUZZ_BINARY"] ?? TestSupport.stippleBinary.path
        let jobs = max(1, Int(env["STIPPLE_FUZZ_JOBS"] ?? "") ?? 2)
        let out = env["STIPPLE_FUZZ_OUT"].map { URL(fileURLWithPath: $0) }
        var grammar = CLIGrammar(seed: seed)
        let cases = (0..<count).map { _ in grammar.next() }
        let root = try TestSupport.temporaryDirectory(self, "cli-fuzz")
        let verdicts = Mutex([(String, [String])](repeating: ("", []), count: count))
        let started = Date()
        DispatchQueue.concurrentPerform(iterations: jobs) { worker in
            for i in stride(from: worker, to: count, by: jobs) {
                let dir = root.appendingPathComponent("case-\(i)")
                let verdict = (try? Self.check(cases[i], binary: binary, in: dir)) ?? ("harness error", ["could not run"])
                try? FileManager.default.removeItem(at: dir)
                verdicts.withLock { $0[i] = verdict }
            }
        }
        let results = verdicts.withLock { $0 }
        // Counts per command and class; findings with what reproduces them.
        var counts: [String: [String: Int]] = [:]
        var findings: [String] = []
        for (i, (outcome, problems)) in results.enumerated() {
            counts[cases[i].kind, default: [:]][outcome, default: 0] += 1
            guard !problems.isEmpty else { continue }
            let args = cases[i].arguments.map { TestArgs.shellWord($0) }.joined(separator: " ")
            findings.append("case \(i) (seed \(seed)): stipple \(args): \(problems.joined(separator: "; "))")
            if let out {
                let dir = out.appendingPathComponent("finding-\(i)")
                try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                for (name, data) in cases[i].files { try? data.write(to: dir.appendingPathComponent(name)) }
                try? Data("stipple \(args)\n\(problems.joined(separator: "\n"))\n".utf8).write(to: dir.appendingPathComponent("command.txt"))
            }
        }
        let classes = Set(counts.values.flatMap(\.keys)).sorted()
        var table = "cli fuzz: \(count) cases, seed \(seed), \(String(format: "%.0f", Date().timeIntervalSince(started))) s, "
            + "\(findings.count) finding\(findings.count == 1 ? "" : "s")\n"
        table += ("command".padding(toLength: 16, withPad: " ", startingAt: 0)) + classes.map { $0.padding(toLength: 12, withPad: " ", startingAt: 0) }.joined() + "\n"
        for kind in counts.keys.sorted() {
            table += kind.padding(toLength: 16, withPad: " ", startingAt: 0)
                + classes.map { String(counts[kind]?[$0] ?? 0).padding(toLength: 12, withPad: " ", startingAt: 0) }.joined() + "\n"
        }
        print(table + findings.prefix(50).joined(separator: "\n"))
        if let out {
            try? FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            try? Data((table + findings.joined(separator: "\n") + "\n").utf8).write(to: out.appendingPathComponent("summary.txt"))
        }
        XCTAssertTrue(findings.isEmpty, findings.prefix(20).joined(separator: "\n"))
    }

    /// Runs one case in `dir`: its class (the exit status's meaning) and its problems.
    static func check(_ c: CLIGrammar.Case, binary: String, in dir: URL) throws -> (String, [String]) {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, data) in c.files { try data.write(to: dir.appendingPathComponent(name)) }
        let outputs = Set(zip(c.arguments, c.arguments.dropFirst()).filter { ["-o", "--diff"].contains($0.0) }.map(\.1))
        let inputsNamed = Set(c.files.keys).filter { c.arguments.contains($0) }
        let protected = c.files.filter { !outputs.contains($0.key) || inputsNamed.contains($0.key) && c.mustFail != nil }
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        let o = run(binary, c.arguments, in: dir)
        var problems: [String] = []
        let outcome: String
        if o.timedOut {
            outcome = "hang"; problems.append("no exit after \(Int(timeLimit)) s")
        } else if let s = o.signal {
            outcome = "crash"; problems.append("killed by signal \(s): \(o.stderr.suffix(300))")
        } else {
            switch o.status {
            case 0: outcome = "ok"
            case 1: outcome = "differs"
            case 2: outcome = "refused"
            case 64: outcome = "usage"
            default: outcome = "exit \(o.status)"; problems.append("exit status \(o.status): \(o.stderr.suffix(300))")
            }
        }
        if o.peakBytes > memoryLimit { problems.append("peak memory \(o.peakBytes >> 20) MiB") }
        if o.status == 2 || o.status == 64 {
            let lines = o.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            if !(lines.count == 2 && lines[1].isEmpty && lines[0].hasPrefix("stipple: error: ")) {
                problems.append("a refusal that is not one line on stderr: \(o.stderr.prefix(300).debugDescription)")
            }
            let after = Set((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
            let left = after.subtracting(before)
            if !left.isEmpty { problems.append("a failed run left \(left.sorted())") }
        }
        for (name, data) in protected where !outputs.contains(name) || c.mustFail != nil {
            let now = try? Data(contentsOf: dir.appendingPathComponent(name))
            if now != data { problems.append("\(name) was \(now == nil ? "removed" : "changed")") }
        }
        if let reason = c.mustFail, o.status == 0 || o.status == 1, !o.timedOut, o.signal == nil {
            problems.append("accepted: \(reason)")
        }
        return (outcome, problems)
    }

    /// Runs `stipple` with a time limit, reading its output and its peak resident memory
    /// (VmHWM) while it runs.
    static func run(_ binary: String, _ arguments: [String], in dir: URL) -> Outcome {
        var o = Outcome()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.currentDirectoryURL = dir
        process.standardInput = FileHandle.nullDevice
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let start = Date()
        do { try process.run() } catch { o.status = -1; o.stderr = "\(error)"; return o }
        let pid = process.processIdentifier
        let fds = [out.fileHandleForReading.fileDescriptor, err.fileHandleForReading.fileDescriptor]
        var data = [Data(), Data()]
        var open = [true, true]
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while open.contains(true) {
            if Date().timeIntervalSince(start) > timeLimit {
                o.timedOut = true
                kill(pid, SIGKILL)
                break
            }
            if let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
               let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
               let kb = Int(line.split(separator: " ").dropFirst().first ?? "") {
                o.peakBytes = max(o.peakBytes, kb << 10)
            }
            var polls = (0..<2).map { pollfd(fd: open[$0] ? fds[$0] : -1, events: Int16(POLLIN), revents: 0) }
            guard poll(&polls, 2, 50) > 0 else { continue }
            for i in 0..<2 where open[i] && polls[i].revents != 0 {
                let n = read(fds[i], &buffer, buffer.count)
                if n > 0 {
                    // Keep the first 1 MiB of each (a y4m on stdout is read, not kept).
                    if data[i].count < 1 << 20 { data[i].append(contentsOf: buffer[0..<n]) }
                } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                    open[i] = false
                }
            }
        }
        process.waitUntilExit()
        o.seconds = Date().timeIntervalSince(start)
        if process.terminationReason == .uncaughtSignal, !o.timedOut { o.signal = process.terminationStatus }
        o.status = process.terminationStatus
        o.stdout = String(decoding: data[0], as: UTF8.self)
        o.stderr = String(decoding: data[1], as: UTF8.self)
        return o
    }
}

/// Arguments as a shell line, for a finding's reproduction.
enum TestArgs {
    static func shellWord(_ s: String) -> String {
        let safe = s.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "@%+=:,./_-".unicodeScalars.contains($0) }
        return safe && !s.isEmpty ? s : "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
