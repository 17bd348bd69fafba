import ArgumentParser
import Foundation
import Stipple

struct StippleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stipple",
        abstract: "Render brush strokes made of point-sprite stamps to PNG, headlessly, with OpenGL ES 2 on EGL.",
        discussion: """
            Exit status: 0 on success; 1 for a verdict: `compare` found images that differ beyond the \
            tolerance, `test` a case that failed, was missing or flaky, `bisect` no draw entry to blame; \
            2 for bad input or a rendering failure (one line on stderr names the file, the place and \
            what was expected); 64 for a command-line usage error.

            Environment: STIPPLE_EGL_PLATFORM=gbm|device|surfaceless forces an EGL platform; \
            GALLIUM_DRIVER=llvmpipe|softpipe picks Mesa's software driver; LP_NUM_THREADS sets llvmpipe's threads.
            """,
        version: StippleVersion.string,
        subcommands: [RenderCommand.self, StampsCommand.self, DescribeCommand.self, ConvertCommand.self,
                      BrushCommand.self, CompareCommand.self, InfoCommand.self, BenchCommand.self,
                      TestCommand.self, BisectCommand.self, BakeCommand.self, PyramidJoinCommand.self,
                      ServeCommand.self] + testOnlyCommands
    )

    /// Commands Stipple's own tests run as child processes: in debug builds only.
    #if DEBUG
    static let testOnlyCommands: [ParsableCommand.Type] = [SaveLoopCommand.self]
    #else
    static let testOnlyCommands: [ParsableCommand.Type] = []
    #endif
}

/// Exit codes shared by every command.
enum ExitStatus {
    static let differs: Int32 = 1
    static let failure: Int32 = 2
    static let usage: Int32 = 64
}

@main
enum Main {
    static func main() async {
        // The program owns its signals: a killed run removes its temporaries.
        TemporaryFiles.removeOnFatalSignals()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let message = unknownCommand(arguments) {
            fail("\(message) (see 'stipple --help')", status: ExitStatus.usage)
        }
        do {
            var command = try StippleCommand.parseAsRoot(TestCommand.normalized(Array(CommandLine.arguments.dropFirst())))
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as InputError {
            fail("\(error)")
        } catch let error as RenderError {
            fail("\(error)")
        } catch let error as ExitCode {
            exit(error.rawValue)
        } catch {
            let code = StippleCommand.exitCode(for: error)
            if code == .success {
                // --help, --version: ArgumentParser's text, fitted to the terminal.
                print(HelpText.fitted(for: error))
                exit(0)
            }
            // A Foundation file-system error is one line naming the path, never its dump.
            let message = (error as NSError).domain == NSCocoaErrorDomain
                ? OutputFile.describe(error) : StippleCommand.message(for: error)
            guard code == .validationFailure else {
                // Not the command line's fault (a file system error, say): a failure, not a usage error.
                fail(message)
            }
            // A usage error: one line, and where to look.
            fail("\(message) (see '\(helpCommand(for: Array(CommandLine.arguments.dropFirst())))')",
                 status: ExitStatus.usage)
        }
    }

    /// The commands by name, `help` (ArgumentParser's) included.
    static var commandNames: [String] {
        StippleCommand.configuration.subcommands.map { $0.configuration.commandName ?? "" } + ["help"]
    }

    /// "Unknown command 'rendr'; did you mean 'render'?" when the first argument is a word
    /// and no command's name, before ArgumentParser reads on and complains about an option
    /// that the command it could not find would have taken.
    static func unknownCommand(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), !commandNames.contains(first) else { return nil }
        let shown = InputError.escaped(first)
        let near = commandNames.map { ($0, editDistance(first.lowercased(), $0)) }.min { $0.1 < $1.1 }
        if let (name, distance) = near, distance <= max(1, name.count / 3) {
            return "Unknown command '\(shown)'; did you mean '\(name)'?"
        }
        let listed = commandNames.dropLast().filter { !$0.hasPrefix("_") }
        return "Unknown command '\(shown)'; the commands are \(listed.joined(separator: ", "))"
    }

    /// Levenshtein distance, for the suggestion above (command names are short).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.prefix(64)), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in 1...b.count {
                let saved = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = saved
            }
        }
        return row[b.count]
    }

    /// `stipple render --help` when the arguments name a command, else `stipple --help`.
    static func helpCommand(for arguments: [String]) -> String {
        let names = StippleCommand.configuration.subcommands.map { $0.configuration.commandName }
        if let first = arguments.first, names.contains(first) { return "stipple \(first) --help" }
        return "stipple --help"
    }
}

/// Prints one line on stderr and exits. A message of several lines (ArgumentParser lists
/// an option's values on lines of their own) is joined into one; control characters a
/// user's value brought in are escaped (see `InputError.escaped`). `exit` first ends every
/// render thread (see `RenderThread`).
func fail(_ message: String, status: Int32 = ExitStatus.failure) -> Never {
    let line = message.split(whereSeparator: \.isNewline)
        .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
    FileHandle.standardError.write(Data("stipple: error: \(InputError.escaped(InputError.shortened(line)))\n".utf8))
    exit(status)
}

func note(_ message: String) {
    // One line, safe on a terminal: an output path may hold a newline, an ESC or U+202E.
    FileHandle.standardError.write(Data("\(InputError.escaped(message))\n".utf8))
}
