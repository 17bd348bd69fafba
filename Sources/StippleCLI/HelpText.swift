import ArgumentParser
import Foundation

/// Help texts fitted to the terminal. ArgumentParser leaves the USAGE line as long as it
/// is and wraps an example command wherever the width falls, so the help is taken from it
/// unwrapped and wrapped here: prose at spaces, option descriptions under their column,
/// the USAGE line between options, and an example command between arguments with a shell
/// continuation (` \`), so a command copied from the help still runs.
enum HelpText {
    /// The help (or version) text ArgumentParser has for `error`, fitted to `width`.
    static func fitted(for error: Error, width: Int = terminalWidth()) -> String {
        let old = ProcessInfo.processInfo.environment["COLUMNS"]
        setenv("COLUMNS", "100000", 1)
        let text = StippleCommand.fullMessage(for: error)
        if let old { setenv("COLUMNS", old, 1) } else { unsetenv("COLUMNS") }
        return fit(text, width: width)
    }

    /// COLUMNS when set, else the terminal's width, else 80.
    static func terminalWidth() -> Int {
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let n = Int(text), n > 0 { return n }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    /// Where ArgumentParser starts option descriptions (2 spaces, a 24-column label).
    static let optionColumn = 26

    static func fit(_ text: String, width: Int) -> String {
        let width = max(width, 40)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .flatMap { fitLine(String($0), width: width) }
            .joined(separator: "\n")
    }

    static func fitLine(_ line: String, width: Int) -> [String] {
        guard line.count > width else { return [line] }
        let indent = line.prefix { $0 == " " }.count
        let body = String(line.dropFirst(indent))
        if body.hasPrefix("USAGE: ") {
            return pack(tokens(body), first: "", rest: String(repeating: " ", count: 9), width: width)
        }
        if indent > 0, body.hasPrefix("stipple ") {
            // An example: break between arguments, each break a shell line continuation.
            let lines = pack(tokens(body), first: String(repeating: " ", count: indent),
                             rest: String(repeating: " ", count: indent + 4), width: width - 2)
            return lines.enumerated().map { $0.offset < lines.count - 1 ? $0.element + " \\" : $0.element }
        }
        let chars = Array(line)
        if indent == 2, chars.count > optionColumn,
           chars[optionColumn - 1] == " ", chars[optionColumn] != " " {
            // An option: its description continues under the description's column.
            let words = String(chars[optionColumn...]).split(separator: " ").map(String.init)
            var lines = pack(words, first: "", rest: "", width: width - optionColumn)
            lines[0] = String(chars[..<optionColumn]) + lines[0]
            for i in 1..<lines.count { lines[i] = String(repeating: " ", count: optionColumn) + lines[i] }
            return lines
        }
        let pad = String(repeating: " ", count: indent)
        return pack(body.split(separator: " ").map(String.init), first: pad, rest: pad, width: width)
    }

    /// Words joined by spaces into lines of at most `width` (a longer word has a line of its own).
    static func pack(_ words: [String], first: String, rest: String, width: Int) -> [String] {
        var lines: [String] = [], current = first
        var empty = true
        for word in words {
            if !empty && current.count + 1 + word.count > width {
                lines.append(current)
                current = rest; empty = true
            }
            current += (empty ? "" : " ") + word
            empty = false
        }
        lines.append(current)
        return lines
    }

    /// Splits at spaces outside brackets: `[--golden <golden>]` stays one token.
    static func tokens(_ text: String) -> [String] {
        var out: [String] = [], current = "", depth = 0
        for c in text {
            if c == "[" || c == "<" { depth += 1 }
            if c == "]" || c == ">" { depth = max(0, depth - 1) }
            if c == " " && depth == 0 {
                if !current.isEmpty { out.append(current) }
                current = ""
            } else {
                current.append(c)
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }
}
