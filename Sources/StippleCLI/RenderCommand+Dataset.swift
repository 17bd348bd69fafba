import Foundation
import Stipple

/// `render cats.ndjson -o cats/` and `-o cats.npy`: a whole Quick, Draw! file in one run
/// (docs/ink-formats.md, "Datasets").
extension RenderCommand {
    func renderDataset() async throws {
        let npy = OutputKind.pathExtension(output) == "npy"
        let size = try ink.size.map(InkArguments.parseSize) ?? (npy ? (28, 28) : (256, 256))
        if npy { try checkOutput(output, notAnyOf: [script], inputsAre: "the drawings being rendered") }
        let bytes = try FileSystem.readBytes(path: script, limit: InkImport.maxQuickDrawBytes)
        var made: OutputFolder?
        if !npy { made = try OutputFolder.make(output, for: "rendering a .ndjson file into a folder") }
        var options = try ink.options()
        options.lines = lines
        var run = InkDataset(input: script, output: npy ? .npy(output) : .folder(output), width: size.0, height: size.1,
                             options: options)
        run.shard = shard.flatMap(FrameShard.init)
        run.skipBadLines = ink.skipBadLines
        run.overwrite = overwrite
        run.compression = Int32(compression)
        let renderer = try makeRenderer()
        let progress = ProgressLine(total: 0, label: "rendering drawings")
        var shown = 0
        let summary: InkDataset.Summary
        do {
            summary = try await run.run(on: renderer, bytes: bytes, report: { error in
                shown += 1
                if shown <= 20 { note("\(error); skipped") }
            }, progress: { done, total in progress.update(done, of: total) })
        } catch {
            made?.removeIfEmpty()
            throw error
        }
        let part = shard.map { " (shard \($0) of \(summary.totalInFile))" } ?? ""
        let bad = summary.badLines.count
        let skipped = bad == 0 ? "" : "; skipped \(bad) bad line\(bad == 1 ? "" : "s")"
            + (bad > 20 ? " (the first 20 shown)" : "")
        let rate = summary.seconds > 0 ? Int((Double(summary.drawings) / summary.seconds).rounded()) : 0
        let what = npy ? "a \(summary.drawings)×\(size.1)×\(size.0) uint8 array" : "\(summary.files) PNG\(summary.files == 1 ? "" : "s") \(size.0)×\(size.1)"
        let t = summary.timings
        func ms(_ s: Double) -> String { "\(Int((s * 1000).rounded())) ms" }
        let steps = "read \(ms(summary.parseSeconds)), stamps \(ms(t.stamp)), draw \(ms(t.draw)), readback \(ms(t.readback)), "
            + "downscale \(ms(t.downscale)), encode and write \(ms(t.deliver)); \(t.pages) page\(t.pages == 1 ? "" : "s")"
            + (t.alone > 0 ? ", \(t.alone) drawn alone" : "")
        note("\(output): \(what) from \(summary.drawings) drawing\(summary.drawings == 1 ? "" : "s") of \(script)\(part)\(skipped); \(rate) drawings/s (\(steps))")
    }
}
