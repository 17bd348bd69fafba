import Foundation
import Stipple
import Testing

/// Ink from Swift as a user's package reads it: InkML from bytes and from an Office `.xml`
/// file, a Quick, Draw! line, the script either becomes, rendered; the script written back
/// as InkML; a Quick, Draw! file read a drawing at a time; a dataset into a `.npy` array.
@Test func inkFromSwift() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("consumer-ink-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let renderer = try Renderer()

    // InkML, from its bytes: a stroke, placed on a 64×48 canvas.
    let inkML = #"<ink xmlns="http://www.w3.org/2003/InkML"><trace>10 10, 60 40, 110 10</trace></ink>"#
    let drawing = try InkDrawing(inkML: Data(inkML.utf8))
    #expect(drawing.strokes.count == 1 && drawing.strokes[0].points.count == 3)
    var options = InkOptions()
    options.size = (64, 48)
    let script = try drawing.script(options)
    #expect(script.canvas.width == 64 && script.canvas.height == 48)
    let image = try await renderer.render(try Scene(script: script), frame: 0)
    let inked = stride(from: 0, to: image.pixels.count, by: 4).filter { image.pixels[$0] < 128 }.count
    #expect(inked > 50, "the stroke is drawn dark on white")

    // Written back as InkML, it reads and renders as the same image.
    let back = try InkDrawing(inkML: Array(try script.inkML().utf8))
    let again = try await renderer.render(try Scene(script: try back.script()), frame: 0)
    #expect(again == image)

    // Office writes InkML in .xml files: recognised by content.
    let xml = folder.appendingPathComponent("word_output.xml")
    try Data(inkML.utf8).write(to: xml)
    #expect(InkFormat(path: xml.path) == .inkML)
    #expect(try InkDrawing(contentsOf: xml.path).strokes.count == 1)

    // Quick, Draw!: a line, its word and key_id; a file a drawing at a time, a bad line kept apart.
    let cat = try InkDrawing(quickDrawLine: #"{"word":"cat","key_id":"42","drawing":[[[0,100,200],[0,80,10]]]}"#)
    #expect(cat.label == "cat" && cat.name == "42")
    let lines = (1...3).map { #"{"word":"cat","key_id":"\#($0)","drawing":[[[0,\#(50 * $0),255],[0,200,\#(40 * $0)]]]}"# }
        + [#"{"word":"cat","key_id":"9","drawing":[[[0,1],[0]]]}"#]
    let ndjson = folder.appendingPathComponent("cats.ndjson")
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: ndjson)
    let entries = Array(QuickDrawFile(path: ndjson.path))
    #expect(entries.count == 4)
    if case let .failure(error) = entries[3] { #expect(error.description.contains("cats.ndjson:4:")) } else { Issue.record("line 4 is bad") }

    // The file as a dataset: a 3×28×28 array, its labels and the skipped line beside it.
    let npy = folder.appendingPathComponent("cats.npy").path
    var run = InkDataset(inputs: [ndjson.path], output: .npy(npy), width: 28, height: 28)
    run.skipBadLines = true
    let summary = try await run.run(on: renderer)
    #expect(summary.drawings == 3 && summary.skipped == 1)
    let labels = try String(contentsOfFile: summary.labelsPath, encoding: .utf8).split(separator: "\n")
    #expect(labels.count == 4 && labels[1] == "0,cat,1,\(ndjson.path),1")
    #expect(try String(contentsOfFile: summary.skippedPath!, encoding: .utf8).contains("cats.ndjson:4:"))
    let array = try Data(contentsOf: URL(fileURLWithPath: npy))
    #expect(array.count == 128 + 3 * 28 * 28)
}
