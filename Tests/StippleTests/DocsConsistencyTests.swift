import Foundation
import XCTest

/// The documentation against the project and the built `stipple`:
/// - every relative link in README.md, docs/*.md and the examples' READMEs reaches a file or
///   folder in the package, and a `#fragment` reaches a heading (GitHub's anchors);
/// - every section cited by a page, a DocC article or Sources/StippleCLI exists: `reference.md
///   §3` needs a heading numbered 3 there; `limits.md, "Outputs"`, `(video.md, Timelapse)` and
///   "the README's X section (or table)" need a heading of that name; a cited page exists;
/// - every option of every command's `--help` is in that command's synopsis in
///   docs/commands.md, every option a synopsis line gives exists in that command's `--help`,
///   and every option commands.md names exists in some `--help`;
/// - every `stipple COMMAND …` written as code in a page, or as an example in a `--help`,
///   names a command that exists, with options that command's `--help` has, and every `make TARGET` a target of the Makefile.
final class DocsConsistencyTests: XCTestCase {
    static let root = TestSupport.packageRoot

    /// The user-facing pages: README.md, docs/*.md, and every README.md under examples/.
    static func pages() throws -> [URL] {
        let fm = FileManager.default
        var pages = [root.appendingPathComponent("README.md")]
        let docs = root.appendingPathComponent("docs")
        pages += try fm.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
            .map { docs.appendingPathComponent($0) }
        let examples = root.appendingPathComponent("examples")
        if let walk = fm.enumerator(atPath: examples.path) {
            for case let path as String in walk where (path as NSString).lastPathComponent == "README.md" {
                pages.append(examples.appendingPathComponent(path))
            }
        }
        return pages
    }

    /// DocC articles: they cite sections of docs/ as text.
    static func articles() throws -> [URL] {
        var result: [URL] = []
        let sources = root.appendingPathComponent("Sources")
        if let walk = FileManager.default.enumerator(atPath: sources.path) {
            for case let path as String in walk where path.hasSuffix(".md") && path.contains(".docc/") {
                result.append(sources.appendingPathComponent(path))
            }
        }
        return result.sorted { $0.path < $1.path }
    }

    /// The CLI's sources: help texts (and the comments beside them) cite sections too.
    static func cliSources() throws -> [URL] {
        let folder = root.appendingPathComponent("Sources/StippleCLI")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
            .map { folder.appendingPathComponent($0) }
    }

    func relative(_ url: URL) -> String {
        String(url.standardizedFileURL.path.dropFirst(Self.root.standardizedFileURL.path.count + 1))
    }

    // MARK: Links

    func testEveryRelativeLinkResolves() throws {
        var problems: [String] = []
        var cache: [String: MarkdownPage] = [:]
        func page(_ url: URL) throws -> MarkdownPage {
            if let page = cache[url.path] { return page }
            let page = try MarkdownPage(url)
            cache[url.path] = page
            return page
        }
        let rootPath = Self.root.standardizedFileURL.path
        for url in try Self.pages() {
            let source = try page(url)
            for link in source.relativeLinks {
                let place = "\(relative(url)):\(link.line): (\(link.target))"
                let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                let target = path.isEmpty ? url : url.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                guard target.path == rootPath || target.path.hasPrefix(rootPath + "/") else {
                    problems.append("\(place) leaves the package")
                    continue
                }
                guard FileManager.default.fileExists(atPath: target.path) else {
                    problems.append("\(place) names no file: \(relative(target))")
                    continue
                }
                guard parts.count == 2 else { continue }
                let fragment = String(parts[1]).lowercased()
                guard target.pathExtension == "md" else {
                    problems.append("\(place) has a #fragment on a file that is not Markdown")
                    continue
                }
                let anchors = try page(target).headings.map(\.anchor)
                if !anchors.contains(fragment) {
                    problems.append("\(place) names no heading of \(relative(target)); its anchors: \(anchors.joined(separator: ", "))")
                }
            }
        }
        XCTAssertTrue(problems.isEmpty, "broken links:\n" + problems.joined(separator: "\n"))
    }

    func testSlugsAreGitHubs() {
        XCTAssertEqual(MarkdownPage.slug(MarkdownPage.plainText("Live events (`--events FILE|FIFO|-`)")),
                       "live-events---events-filefifo-")
        XCTAssertEqual(MarkdownPage.slug(MarkdownPage.plainText("3. Ageing")), "3-ageing")
        XCTAssertEqual(MarkdownPage.slug(MarkdownPage.plainText("Agreement with ffmpeg's `overlay` (the independent oracle)")),
                       "agreement-with-ffmpegs-overlay-the-independent-oracle")
        XCTAssertEqual(MarkdownPage.slug("Timelapse (--speed F)"), "timelapse---speed-f")
    }

    // MARK: Cited sections

    /// A page a citation names: beside the citing file, else from the package root, else in docs/.
    func citedPage(_ name: String, from file: URL) -> URL? {
        let name = name == "README" ? "README.md" : name
        let candidates = [file.deletingLastPathComponent().appendingPathComponent(name),
                          Self.root.appendingPathComponent(name),
                          Self.root.appendingPathComponent("docs").appendingPathComponent(name)]
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// Whether `page` has a heading numbered `number` ("## 3. Ageing").
    func hasNumberedHeading(_ page: MarkdownPage, _ number: String) -> Bool {
        page.headings.contains { $0.text.hasPrefix(number + ". ") }
    }

    /// Whether `page` has a heading of that name: the same words, or the same words first
    /// ("Timelapse" names "Timelapse (--speed F)"), a leading "N. " aside, case ignored.
    func hasNamedHeading(_ page: MarkdownPage, _ name: String) -> Bool {
        let wanted = name.lowercased().trimmingCharacters(in: .whitespaces)
        return page.headings.contains { heading in
            let text = heading.text.regexReplacing(#"^\d+\.\s+"#, with: "").lowercased()
            guard text.hasPrefix(wanted) else { return false }
            let rest = text.dropFirst(wanted.count)
            return rest.isEmpty || rest.first == " " || rest.first == ":" || rest.first == ","
        }
    }

    func testEveryCitedSectionExists() throws {
        let files = try Self.pages() + Self.articles() + Self.cliSources()
        var problems: [String] = []
        for file in files {
            var text = try String(contentsOf: file, encoding: .utf8)
            if file.pathExtension == "swift" { text = text.replacingOccurrences(of: "\\\"", with: "\"") }
            for (index, line) in text.components(separatedBy: "\n").enumerated() {
                problems += citationProblems(in: line, of: file).map { "\(relative(file)):\(index + 1): \($0)" }
            }
        }
        XCTAssertTrue(problems.isEmpty, "sections cited that do not exist:\n" + problems.joined(separator: "\n"))
    }

    func citationProblems(in line: String, of file: URL) -> [String] {
        var problems: [String] = []
        func page(_ name: String) -> MarkdownPage? {
            guard let url = citedPage(name, from: file) else {
                problems.append("\(name) does not exist")
                return nil
            }
            return try? MarkdownPage(url)
        }
        // Every page named exists.
        for match in line.regexMatches(#"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+\.md)\b"#) {
            _ = page(match[1])
        }
        // `reference.md §3`, `docs/reference.md §3–§4`, `reference.md §9, §12`.
        var numbered = line
        for match in line.regexMatches(#"((?:[\w.-]+/)*[\w-]+\.md)\)? (§\d+(?:(?:–|-|, | and )§\d+)*)"#) {
            numbered = numbered.replacingOccurrences(of: match[2], with: "")
            guard let target = page(match[1]) else { continue }
            for number in match[2].regexMatches(#"§(\d+)"#).map({ $0[1] }) where !hasNumberedHeading(target, number) {
                problems.append("\(match[1]) §\(number): no heading numbered \(number)")
            }
        }
        // A bare `§N` is a section of the page it is in (reference.md's own cross-references).
        for match in numbered.regexMatches(#"(?<!\d )§(\d+)"#) {
            guard file.pathExtension == "md", let own = try? MarkdownPage(file) else {
                problems.append("§\(match[1]) names no page")
                continue
            }
            if !hasNumberedHeading(own, match[1]) {
                problems.append("§\(match[1]): \(relative(file)) has no heading numbered \(match[1])")
            }
        }
        // `limits.md, "Outputs"`, `README.md, "Strokes"`, `the README's "Strokes" section`.
        for match in line.regexMatches(#"(README|(?:[\w.-]+/)*[\w-]+\.md)(?:,|'s) "([^"]+)""#) {
            if let target = page(match[1]), !hasNamedHeading(target, match[2]) {
                problems.append("\(match[1]), \"\(match[2])\": no such heading")
            }
        }
        // `(video.md, Timelapse)`.
        for match in line.regexMatches(#"\(((?:[\w.-]+/)*[\w-]+\.md), ([A-Z][^()"§]*)\)"#) {
            if let target = page(match[1]), !hasNamedHeading(target, match[2]) {
                problems.append("\(match[1]), \(match[2]): no such heading")
            }
        }
        // `the README's benchmark table`, `the README's first steps section`.
        for match in line.regexMatches(#"the (README|[\w-]+\.md)'s ([\w ]+?) (?:section|table)"#) {
            if let target = page(match[1]), !hasNamedHeading(target, match[2]) {
                problems.append("the \(match[1])'s \(match[2]): no such heading")
            }
        }
        return problems
    }

    func testTheCitationCheckCatchesWhatItShould() throws {
        let reference = Self.root.appendingPathComponent("docs/reference.md")
        let strokes = Self.root.appendingPathComponent("docs/strokes.md")
        XCTAssertEqual(citationProblems(in: "aged (docs/reference.md §3).", of: strokes), [])
        XCTAssertEqual(citationProblems(in: "(docs/reference.md §3–§4)", of: strokes), [])
        XCTAssertEqual(citationProblems(in: "the buffer (§3)", of: reference), [])
        XCTAssertEqual(citationProblems(in: "(docs/reference.md §99)", of: strokes).count, 1)
        XCTAssertFalse(citationProblems(in: "(docs/nowhere.md §1)", of: strokes).isEmpty)
        XCTAssertEqual(citationProblems(in: "(docs/limits.md, \"Outputs\")", of: strokes), [])
        XCTAssertEqual(citationProblems(in: "in the README's \"Nothing\" section", of: strokes).count, 1)
        XCTAssertEqual(citationProblems(in: "Figures are in the README's nothing table.", of: strokes).count, 1)
        XCTAssertEqual(citationProblems(in: "from frame 0 (video.md, Timelapse).", of: strokes), [])
        XCTAssertEqual(citationProblems(in: "from frame 0 (video.md, Nothing).", of: strokes).count, 1)
        XCTAssertEqual(citationProblems(in: "a page's §4", of: strokes).count, 1, "a bare § outside a page")
    }

    // MARK: Options

    /// One option of a `--help`: all its spellings (`-o`, `--output`; `--checkerboard`,
    /// `--no-checkerboard`).
    struct Option: Hashable {
        var spellings: Set<String>
    }

    func help(_ arguments: [String]) throws -> String {
        let run = try TestSupport.stipple(arguments + ["--help"], environment: ["COLUMNS": "1000"])
        XCTAssertEqual(run.status, 0, "stipple \(arguments.joined(separator: " ")) --help: \(run.stderr)")
        return run.stdout
    }

    /// The lines of a `--help` section (after "NAME:" up to a blank line).
    func section(_ name: String, of help: String) -> [String] {
        let lines = help.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: name + ":") else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
    }

    func subcommands() throws -> [String] {
        let names = section("SUBCOMMANDS", of: try help([])).compactMap { $0.regexMatch(#"^  ([a-z][\w-]*)\b"#)?[1] }
        XCTAssertFalse(names.isEmpty, "stipple --help lists no subcommand")
        return names
    }

    /// The option groups of a help text: OPTIONS and any titled group of options (INK FILES…).
    func optionSections(of help: String) -> [String] {
        help.components(separatedBy: "\n").compactMap { $0.regexMatch(#"^([A-Z][A-Z ,'!-]*):$"#)?[1] }
            .filter { !["OVERVIEW", "USAGE", "ARGUMENTS", "SUBCOMMANDS"].contains($0) }
    }

    func options(of command: String) throws -> [Option] {
        let text = try help([command])
        return optionSections(of: text).flatMap { section($0, of: text) }.compactMap { line in
            guard let match = line.regexMatch(#"^  (-\w, )?(--[\w-]+)(?:/(--[\w-]+))?"#) else { return nil }
            let short = match[1].trimmingCharacters(in: CharacterSet(charactersIn: ", "))
            let spellings = [short, match[2], match[3]].filter { !$0.isEmpty }
            return Option(spellings: Set(spellings))
        }
    }

    /// `-x` and `--xx` words in a piece of text (not the `-NNNN` of `frame-NNNN`, nor `-` alone).
    func flags(in text: String) -> Set<String> {
        Set(text.regexMatches(#"(?<![\w-])(--?[a-zA-Z][\w-]*)"#).map { $0[1] })
    }

    /// commands.md's synopsis (its first code block): command → the flags its lines give.
    func synopsis() throws -> [String: Set<String>] {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/commands.md"), encoding: .utf8)
        let blocks = text.components(separatedBy: "```")
        XCTAssertGreaterThan(blocks.count, 2, "docs/commands.md opens with no code block")
        var result: [String: Set<String>] = [:]
        var current: String?
        for line in blocks.count > 2 ? blocks[1].components(separatedBy: "\n") : [] {
            let code = line.components(separatedBy: " # ")[0]
            if let match = code.regexMatch(#"^stipple ([a-z][\w-]*)"#) {
                current = match[1]
            } else if !code.hasPrefix(" ") {
                current = nil
            }
            guard let command = current else { continue }
            result[command, default: []].formUnion(flags(in: code))
        }
        return result
    }

    func testEveryOptionIsInCommandsMdAndEveryDocumentedOneExists() throws {
        let synopsis = try synopsis()
        let commandsMd = try String(contentsOf: Self.root.appendingPathComponent("docs/commands.md"), encoding: .utf8)
        let global: Set = ["-h", "--help", "--version"]
        var problems: [String] = []
        var everySpelling = global
        let commands = try subcommands()
        for command in commands {
            let options = try options(of: command).filter { $0.spellings.isDisjoint(with: global) }
            everySpelling.formUnion(options.flatMap(\.spellings))
            guard let documented = synopsis[command] else {
                problems.append("stipple \(command) has no line in docs/commands.md's synopsis")
                continue
            }
            for option in options where option.spellings.isDisjoint(with: documented) {
                problems.append("stipple \(command) \(option.spellings.sorted().joined(separator: "/")) is not in its synopsis in docs/commands.md")
            }
            let known = Set(options.flatMap(\.spellings)).union(global)
            for flag in documented.subtracting(known).sorted() {
                problems.append("docs/commands.md gives stipple \(command) \(flag), which its --help does not have")
            }
        }
        for command in synopsis.keys.sorted() where !commands.contains(command) {
            problems.append("docs/commands.md documents stipple \(command), which stipple --help does not list")
        }
        for flag in flags(in: commandsMd).filter({ $0.hasPrefix("--") }).subtracting(everySpelling).sorted() {
            problems.append("docs/commands.md names \(flag), which no --help has")
        }
        XCTAssertTrue(problems.isEmpty, "docs/commands.md against --help:\n" + problems.joined(separator: "\n"))
    }

    /// The code of a page: its fenced blocks' lines and its inline code spans, comments cut.
    func code(of page: MarkdownPage) -> [(line: Int, text: String)] {
        func uncommented(_ line: String) -> String {
            let code = line.components(separatedBy: " # ")[0]
            return code.trimmingCharacters(in: .whitespaces).hasPrefix("#") ? "" : code
        }
        var result: [(Int, String)] = []
        let prose = Set(page.proseLines.map(\.number))
        for (index, line) in page.text.components(separatedBy: "\n").enumerated() {
            if prose.contains(index + 1) {
                for span in line.regexMatches(#"(`+)([^`]+?)\1"#) { result.append((index + 1, span[2])) }
                // An indented code block.
                if line.hasPrefix("    ") { result.append((index + 1, uncommented(line))) }
            } else if !line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                result.append((index + 1, uncommented(line)))
            }
        }
        return result
    }

    func testEveryStippleCommandInThePagesUsesItsOwnOptions() throws {
        let global: Set = ["-h", "--help", "--version"]
        var known: [String: Set<String>] = [:]
        for command in try subcommands() {
            known[command] = Set(try options(of: command).flatMap(\.spellings)).union(global)
        }
        var problems: [String] = []
        for url in try Self.pages() {
            let page = try MarkdownPage(url)
            for (line, text) in code(of: page) {
                problems += commandProblems(in: text, known: known).map { "\(relative(url)):\(line): \($0)" }
            }
        }
        // The examples of every --help too.
        for command in known.keys.sorted() {
            for line in try help([command]).components(separatedBy: "\n") where line.hasPrefix("  stipple ") {
                problems += commandProblems(in: line, known: known).map { "stipple \(command) --help: \($0)" }
            }
        }
        XCTAssertTrue(problems.isEmpty, "commands in the pages that stipple would refuse:\n" + problems.joined(separator: "\n"))
    }

    /// What stipple would refuse in the commands of one line of code: each command of a
    /// pipeline or list on its own.
    func commandProblems(in text: String, known: [String: Set<String>]) -> [String] {
        var problems: [String] = []
        for piece in text.components(separatedBy: " | ").flatMap({ $0.components(separatedBy: "; ") })
            .flatMap({ $0.components(separatedBy: " && ") }) {
            guard let match = piece.regexMatch(#"(?:^|[\s({])stipple ([a-z][\w-]*)(.*)$"#) else { continue }
            guard let options = known[match[1]] else {
                problems.append("stipple \(match[1]): no such command")
                continue
            }
            for flag in flags(in: match[2]).subtracting(options).sorted() {
                problems.append("stipple \(match[1]) has no \(flag)")
            }
        }
        return problems
    }

    func testTheCommandCheckCatchesWhatItShould() {
        let known: [String: Set<String>] = ["render": ["-o", "--output", "--frames"], "bake": ["--video", "-o"]]
        XCTAssertEqual(commandProblems(in: "stipple render a.json -o frames/ --frames 0...9", known: known), [])
        XCTAssertEqual(commandProblems(in: "ffmpeg -i in.mp4 -f y4m - | stipple bake s.json --video - -o - | ffmpeg -i - o.mp4",
                                       known: known), [])
        XCTAssertEqual(commandProblems(in: "seq 1 4 | xargs -I {} stipple render a.json --tile 9 -o x", known: known),
                       ["stipple render has no --tile"])
        XCTAssertEqual(commandProblems(in: "stipple rendr a.json", known: known), ["stipple rendr: no such command"])
    }

    func testEveryMakeTargetInThePagesExists() throws {
        let makefile = try String(contentsOf: Self.root.appendingPathComponent("Makefile"), encoding: .utf8)
        let targets = Set(makefile.regexMatches(#"^([\w-]+)\s*:(?!=)"#).map { $0[1] })
        XCTAssertTrue(targets.contains("test"), "the Makefile's targets were not found")
        var problems: [String] = []
        for url in try Self.pages() {
            for (line, text) in code(of: try MarkdownPage(url)) {
                for match in text.regexMatches(#"(?:^|[\s;|&(])make ([a-z][\w-]*)"#) where !targets.contains(match[1]) {
                    problems.append("\(relative(url)):\(line): make \(match[1]): no such target")
                }
            }
        }
        XCTAssertTrue(problems.isEmpty, "make targets the Makefile lacks:\n" + problems.joined(separator: "\n"))
    }
}
