import Foundation

/// A Markdown page read as GitHub reads it, for the docs check: its headings with their
/// anchors, its relative links, and its prose (code blocks left out).
struct MarkdownPage {
    struct Heading {
        var text: String
        var anchor: String
    }

    struct Link {
        var line: Int
        var target: String
    }

    let url: URL
    let text: String

    init(_ url: URL) throws {
        self.url = url
        text = try String(contentsOf: url, encoding: .utf8)
    }

    /// The page's lines outside fenced code blocks, with their 1-based numbers.
    var proseLines: [(number: Int, text: String)] {
        var result: [(Int, String)] = []
        var fence: String?
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil }
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = String(trimmed.prefix(3))
                continue
            }
            result.append((index + 1, line))
        }
        return result
    }

    /// ATX headings, with the anchors GitHub gives them (a repeated anchor gets `-1`, `-2`, …).
    var headings: [Heading] {
        var seen: [String: Int] = [:]
        var result: [Heading] = []
        for (_, line) in proseLines {
            guard let match = line.regexMatch(#"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$"#) else { continue }
            let heading = Self.plainText(match[1])
            var anchor = Self.slug(heading)
            if let count = seen[anchor] {
                seen[anchor] = count + 1
                anchor += "-\(count)"
            } else {
                seen[anchor] = 1
            }
            result.append(Heading(text: heading, anchor: anchor))
        }
        return result
    }

    /// Links and images whose target is not a URL with a scheme (`https:`, `mailto:`).
    var relativeLinks: [Link] {
        var result: [Link] = []
        for (number, line) in proseLines {
            let prose = Self.withoutCodeSpans(line)
            for match in prose.regexMatches(#"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)"#) {
                result.append(Link(line: number, target: match[1]))
            }
            if let match = prose.regexMatch(#"^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?"#) {
                result.append(Link(line: number, target: match[1]))
            }
        }
        return result.filter { $0.target.regexMatch(#"^[a-zA-Z][a-zA-Z0-9+.-]*:"#) == nil }
    }

    /// A heading's text as rendered: links and images give their text, code spans and
    /// emphasis marks go.
    static func plainText(_ markdown: String) -> String {
        var text = markdown.regexReplacing(#"!?\[([^\]]*)\]\([^)]*\)"#, with: "$1")
        text = text.replacingOccurrences(of: "`", with: "")
        text = text.regexReplacing(#"\*+"#, with: "")
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// GitHub's anchor for a heading's text: lower case; letters, marks, digits, `-` and `_`
    /// kept, every space a `-`, everything else dropped.
    static func slug(_ heading: String) -> String {
        var result = ""
        for scalar in heading.lowercased().unicodeScalars {
            let p = scalar.properties
            if scalar == " " {
                result.append("-")
            } else if scalar == "-" || scalar == "_" || p.isAlphabetic || p.generalCategory == .decimalNumber
                        || p.generalCategory == .otherNumber || p.generalCategory == .letterNumber
                        || p.generalCategory == .nonspacingMark || p.generalCategory == .spacingMark {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A line with its inline code spans blanked out (a `[x](y)` in code is not a link).
    static func withoutCodeSpans(_ line: String) -> String {
        line.regexReplacing(#"(`+)[^`]*?\1"#, with: "")
    }
}

extension String {
    /// The first match of `pattern`, as the whole match then each group ("" for a group that
    /// took no part).
    func regexMatch(_ pattern: String) -> [String]? {
        regexMatches(pattern).first
    }

    func regexMatches(_ pattern: String) -> [[String]] {
        let regex = try! NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        let ns = self as NSString
        return regex.matches(in: self, range: NSRange(location: 0, length: ns.length)).map { match in
            (0..<match.numberOfRanges).map { i in
                let range = match.range(at: i)
                return range.location == NSNotFound ? "" : ns.substring(with: range)
            }
        }
    }

    func regexReplacing(_ pattern: String, with template: String) -> String {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.stringByReplacingMatches(in: self, range: NSRange(location: 0, length: (self as NSString).length),
                                              withTemplate: template)
    }
}
