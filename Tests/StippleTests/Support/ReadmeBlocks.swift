import Foundation

/// The fenced code blocks of a Markdown file: ```sh and ```swift blocks run in
/// `ReadmeTests`; a block whose fence says `no-run` (```sh no-run) is only shown.
struct ReadmeBlock {
    var language: String
    var runs: Bool
    /// The line of the first line of code (1-based), for messages and #sourceLocation.
    var line: Int
    var code: String

    static func all(in text: String) -> [ReadmeBlock] {
        var blocks: [ReadmeBlock] = []
        var open: (language: String, runs: Bool, line: Int)?
        var body: [String] = []
        for (i, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let o = open {
                if trimmed == "```" {
                    blocks.append(ReadmeBlock(language: o.language, runs: o.runs, line: o.line,
                                              code: body.joined(separator: "\n")))
                    open = nil; body = []
                } else {
                    body.append(line)
                }
            } else if trimmed.hasPrefix("```") {
                let words = trimmed.dropFirst(3).split(separator: " ").map(String.init)
                open = (words.first ?? "", !words.contains("no-run"), i + 2)
            }
        }
        return blocks
    }

    /// The swift blocks as one program: each block a function (its imports hoisted),
    /// `#sourceLocation` pointing errors at README.md; `PROGRAM N` runs block N.
    static func program(_ blocks: [(index: Int, block: ReadmeBlock)], readme: String) -> String {
        var imports: Set<String> = ["import Foundation"]
        var functions: [String] = []
        for (index, block) in blocks {
            var lines: [String] = []
            for (offset, line) in block.code.components(separatedBy: "\n").enumerated() {
                if line.hasPrefix("import ") {
                    imports.insert(line.trimmingCharacters(in: .whitespaces))
                    lines.append("")
                } else {
                    lines.append(line)
                }
                _ = offset
            }
            functions.append("""
                func block\(index)() async throws {
                #sourceLocation(file: "\(readme)", line: \(block.line))
                \(lines.joined(separator: "\n"))
                #sourceLocation()
                }
                """)
        }
        let cases = blocks.map { "case \"\($0.index)\": try await block\($0.index)()" }.joined(separator: "\n")
        return imports.sorted().joined(separator: "\n") + "\n\n" + functions.joined(separator: "\n\n") + """


            switch CommandLine.arguments.dropFirst().first ?? "" {
            \(cases)
            default: fatalError("no such README block")
            }

            """
    }
}
