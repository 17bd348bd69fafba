import Foundation
import Stipple

/// `render cats.ndjson -o cats/`, `-o cats.npy`, several files or folders: drawings rendered
/// as a dataset (docs/ink-formats.md, "Datasets").
extension RenderCommand {
    func renderDataset() async throws {
        let npy = OutputKind.pathExtension(output) == "npy"
        let size = try ink.size.map(InkArguments.parseSize) ?? (npy ? (28, 28) : (256, 256))
        var files: [String] = []
        for input in inputs {
            if FileSystem.entry(at: input) == .folder {
                let found = try InkDataset.files(in: input)
                if found.isEmpty { throw InputError(file: input, "is a folder with no ink files in it (.ndjson, .inkml, .ink)") }
                files += found
            } else {
                files.append(input)
            }
        }
        let kind: InkDataset.Output = npy ? .npy(output) : .folder(output)
        let part = shard.flatMap(FrameShard.init).map { (index: $0.index, count: $0.count) }
        let sideFiles = [InkDataset.labelsPath(kind, part: part)] + (ink.skipBadLines ? [InkDataset.skippedPath(kind, part: part)] : [])
        if npy {
            for file in [output] + sideFiles { try checkOutput(file, notAnyOf: files, inputsAre: "the drawings being rendered") }
        }
        var made: OutputFolder?
        if !npy { made = try OutputFolder.make(output, for: "rendering drawings into a folder") }
        var options = try ink.options()
        options.lines = lines
        var run = InkDataset(inputs: files, output: kind, width: size.0, height: size.1, options: options)
        run.part = part
        run.skipBadLines = ink.skipBadLines
        run.overwrite = overwrite
        run.compression = Int32(compression)
        let renderer = try makeRenderer()
        let progress = ProgressLine(total: 0, label: "rendering drawings")
        var shown = 0
        let summary: InkDataset.Summary
        do {
            summary = try await run.run(on: renderer, report: { error in
                shown += 1
                if shown <= 20 { note("\(error); skipped") }
            }, progress: { done, total in progress.update(done, of: total) })
        } catch {
            made?.removeIfEmpty()
            throw error
        }
        let source = files.count == 1 ? files[0] : "\(files.count) files"
        let ofPart = shard.map { " (shard \($0) of \(summary.totalInInputs))" } ?? ""
        let bad = summary.skipped
        let skipped = bad == 0 ? "" : "; skipped \(bad) bad line\(bad == 1 ? "" : "s")"
            + (bad > 20 ? " (the first 20 shown)" : "") + (summary.skippedPath.map { ", listed in \($0)" } ?? "")
        let rate = summary.seconds > 0 ? Int((Double(summary.drawings) / summary.seconds).rounded()) : 0
        let what = npy ? "a \(summary.drawings)×\(size.1)×\(size.0) uint8 array" : "\(summary.files) PNG\(summary.files == 1 ? "" : "s") \(size.0)×\(size.1)"
        let t = summary.timings
        func ms(_ s: Double) -> String { "\(Int((s * 1000).rounded())) ms" }
        let steps = "read \(ms(summary.parseSeconds)), stamps \(ms(t.stamp)), draw \(ms(t.draw)), readback \(ms(t.readback)), "
            + "downscale \(ms(t.downscale)), encode and write \(ms(t.deliver)); \(t.pages) page\(t.pages == 1 ? "" : "s")"
            + (t.alone > 0 ? ", \(t.alone) drawn alone" : "")
        note("\(output): \(what) from \(summary.drawings) drawing\(summary.drawings == 1 ? "" : "s") of \(source)\(ofPart)\(skipped); "
             + "labels in \(summary.labelsPath); \(rate) drawings/s (\(steps))")
    }
}
