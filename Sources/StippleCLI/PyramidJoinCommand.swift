import ArgumentParser
import Foundation
import Stipple

struct PyramidJoinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pyramid-join",
        abstract: "Finish a pyramid written in parts: build its upper levels and write its descriptor.",
        discussion: """
            `stipple render S --pyramid PATH --shard K/N` writes part K of N: the canvas's tiles \
            for its share of their rows, and the rows the levels above need. Once all N parts \
            are written (on one machine or several sharing the folder), `pyramid-join PATH` \
            builds every level above the canvas from them, writes the descriptor last and \
            removes the parts: the same files, byte for byte, as one `render --pyramid` run \
            (docs/views.md, docs/distributed.md). A missing or unfinished part is an error and \
            nothing is written.
            Examples:
              stipple render huge.json --pyramid out/huge --shard 1/2 & stipple render huge.json --pyramid out/huge --shard 2/2; wait
              stipple pyramid-join out/huge
            """)

    @Argument(help: "The pyramid's PATH, as given to render --pyramid.")
    var path: String

    @Option(help: "The layout the parts were written in: dz (Deep Zoom, the default) or xyz.")
    var layout: PyramidOptions.Layout = .deepZoom

    func run() throws {
        let summary = try Pyramid.join(path, layout: layout)
        note("\(summary.descriptor): \(summary.levels) levels, \(summary.tileCount) tiles (\(summary.bytes / 1024) KiB) "
             + "in \(summary.tiles)/")
    }
}
