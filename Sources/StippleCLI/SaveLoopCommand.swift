import ArgumentParser
import Foundation
import Stipple

#if DEBUG
/// Hidden, and in debug builds only: draws and saves a drawing over and over, printing "saved N" after each save, until
/// killed. The kill-mid-save test (SessionKillTests) runs it as a child process and kills it
/// at random moments: the save on disk must always load.
struct SaveLoopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "_save-loop", abstract: "Save a drawing again and again until killed (for tests).",
        shouldDisplay: false)

    @Argument(help: "The script to save to.")
    var path: String

    @Option(help: "The canvas side.")
    var side: Int = 512

    func run() async throws {
        let live = LiveCanvas(renderer: try makeRenderer(), canvas: Canvas(width: side, height: side),
                              undo: UndoLimits(steps: 3))
        var rng = SplitMix64(seed: 11)
        let brush = Brush.builtin(.softRound, size: 32)
        for n in 1... {
            let id = await live.beginStroke(brushKey: "soft", brush: brush,
                                            style: StrokeStyle(color: Color(red: .random(in: 0...1, using: &rng), green: 0.5,
                                                                            blue: 0.5), radius: 8))
            for _ in 0..<4 {
                try await live.add(TouchSample(x: .random(in: 0..<Float(side), using: &rng),
                                               y: .random(in: 0..<Float(side), using: &rng), t: 0), to: id)
            }
            try await live.endStroke(id)
            _ = try await live.render()
            try await live.save(to: path)
            FileHandle.standardOutput.write(Data("saved \(n)\n".utf8))
        }
    }
}
#endif
