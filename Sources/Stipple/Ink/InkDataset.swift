import Dispatch
import Foundation

/// Drawings rendered in one run, as ML pipelines take them: every drawing of Quick, Draw!
/// files (a drawing a line) and InkML files (a drawing a file) into a folder of grey PNGs
/// (dark strokes on white) or one N × H × W uint8 `.npy` array (white strokes on black, as
/// Google's `numpy_bitmap`), with a labels file that says where each row or PNG came from
/// (its class, `key_id`, source file and line) and, with `skipBadLines`, a file listing every
/// line skipped and why. Files are read a piece at a time and the array is written as rows
/// come, so memory stays bounded whatever the input's size. One renderer for the run;
/// drawings share render targets (`InkAtlas`).
///
/// ```swift
/// var run = InkDataset(inputs: ["cat.ndjson", "dog.ndjson"], output: .npy("pets.npy"), width: 28, height: 28)
/// run.skipBadLines = true
/// let summary = try await run.run(on: try Renderer())
/// // pets.npy, pets.labels.csv (row,word,key_id,source,line) and pets.skipped.txt
/// ```
public struct InkDataset: Sendable {
    /// Where the drawings go.
    public enum Output: Sendable {
        /// PNG files named by `key_id` (else `line-N`), with `labels.csv` beside them.
        case folder(String)
        /// One `.npy` file, with `NAME.labels.csv` beside it.
        case npy(String)
    }

    /// Quick, Draw! `.ndjson` files and InkML files, read in this order; rows follow it.
    public var inputs: [String]
    public var output: Output
    /// Each drawing's size in pixels.
    public var width: Int
    public var height: Int
    public var options: InkOptions
    /// The K-th (from 1) of N contiguous parts of the run's drawings (counted over all inputs,
    /// lines that are not blank); nil: all of them. The parts' rows, in order, are the whole
    /// run's, and their pixels the same.
    public var part: (index: Int, count: Int)? {
        get { shard.map { ($0.index, $0.count) } }
        set { shard = newValue.map { FrameShard(index: $0.index, count: $0.count) } }
    }
    package var shard: FrameShard?
    /// Skip lines that are not a drawing (each listed in the skipped file); otherwise the first
    /// one stops the run.
    public var skipBadLines = false
    /// Replace PNG files that exist (otherwise an existing file stops the run).
    public var overwrite = false
    /// PNG compression, 0…9.
    public var compression: Int32 = PNGFile.defaultCompression

    public init(inputs: [String], output: Output, width: Int, height: Int, options: InkOptions = InkOptions()) {
        self.inputs = inputs; self.output = output; self.width = width; self.height = height; self.options = options
    }

    /// What a run did.
    public struct Summary: Sendable {
        /// Drawings written (rows of the array, or PNG files).
        public var drawings = 0
        /// Drawings in the inputs (lines that are not blank, InkML files), whether in this part or not.
        public var totalInInputs = 0
        /// Lines skipped, and the first 20 of them (all are in the skipped file).
        public var skipped = 0
        public var firstSkipped: [InputError] = []
        /// Files written, and their bytes (labels and skipped lists not counted).
        public var files = 0
        public var bytes = 0
        /// The labels file and the skipped-lines file (nil without `skipBadLines`).
        public var labelsPath = ""
        public var skippedPath: String?
        public var seconds = 0.0
        public var parseSeconds = 0.0
        package var timings = InkAtlas.Timings()
    }

    /// The labels file of an output: `labels.csv` in a folder (`labels-K-of-N.csv` for part K
    /// of N, since every part writes into the one folder), `NAME.labels.csv` beside `NAME.npy`.
    public static func labelsPath(_ output: Output, part: (index: Int, count: Int)? = nil) -> String {
        sidePath(output, "labels", "csv", part: part)
    }
    /// The skipped-lines file of an output: `skipped.txt` in a folder (`skipped-K-of-N.txt`),
    /// `NAME.skipped.txt` beside `NAME.npy`.
    public static func skippedPath(_ output: Output, part: (index: Int, count: Int)? = nil) -> String {
        sidePath(output, "skipped", "txt", part: part)
    }

    static func sidePath(_ output: Output, _ name: String, _ ext: String, part: (index: Int, count: Int)?) -> String {
        switch output {
        case let .folder(folder):
            let file = part.map { "\(name)-\($0.index)-of-\($0.count).\(ext)" } ?? "\(name).\(ext)"
            return FileSystem.resolve(file, against: folder)
        case let .npy(path):
            let base = path.lowercased().hasSuffix(".npy") ? String(path.dropLast(4)) : path
            return base + ".\(name).\(ext)"
        }
    }

    /// The ink files of a folder and the folders in it, in name order: `.ndjson`, `.inkml`, `.ink`.
    public static func files(in folder: String) throws(InputError) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else {
            throw InputError(file: folder, "cannot list the folder")
        }
        var found: [String] = []
        while let name = walker.nextObject() as? String {
            let lower = name.lowercased()
            guard lower.hasSuffix(".ndjson") || lower.hasSuffix(".inkml") || lower.hasSuffix(".ink") else { continue }
            let path = FileSystem.resolve(name, against: folder)
            if FileSystem.entry(at: path) == .file { found.append(path) }
        }
        return found.sorted()
    }

    /// The factor a side is drawn larger before it is averaged down: 2 at 28 pixels, 1 from 48 up.
    package static func supersample(width: Int, height: Int) -> Int {
        min(4, max(1, Int((48.0 / Double(max(width, height))).rounded(.up))))
    }

    /// A file name for a drawing: its `key_id` when that is a plain name, else its source's
    /// name (InkML) or its line.
    package static func fileName(_ drawing: InkDrawing, line: Int?, source: String) -> String {
        if let key = drawing.name, plainName(key) { return "\(key).png" }
        if let line { return "line-\(line).png" }
        let stem = ((source as NSString).lastPathComponent as NSString).deletingPathExtension
        return plainName(stem) ? "\(stem).png" : "drawing.png"
    }

    static func plainName(_ s: String) -> Bool {
        !s.isEmpty && s.count <= 100 && s.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A)
            || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F }
    }

    /// Drawings parsed at a time before they are drawn.
    static let batch = 4096

    /// Renders the run. `report` is told of every bad line that is skipped; `progress` of
    /// drawings done out of those to do.
    public func run(on renderer: Renderer, report: (InputError) -> Void = { _ in },
                    progress: @escaping (Int, Int) -> Void = { _, _ in }) async throws -> Summary {
        let start = Date()
        var summary = Summary()
        // The inputs' drawings, counted first: the part and the progress need the total.
        var formats: [InkFormat] = []
        var counts: [Int] = []
        for input in inputs {
            guard let format = InkImport.format(of: input) else {
                throw InputError(file: input, "is not an ink file: a dataset is made of Quick, Draw! (.ndjson) and InkML (.inkml) files")
            }
            formats.append(format)
            counts.append(format == .quickDraw ? try QuickDrawChunks.count(path: input) : 1)
        }
        let total = counts.reduce(0, +)
        summary.totalInInputs = total
        guard total > 0 else {
            throw InputError(file: inputs.first ?? "", "holds no drawing (no line that is not blank)")
        }
        let part = shard.map { $0.part(of: 0...(total - 1)) } ?? (0...(total - 1))
        let todo = part?.count ?? 0
        let atlas = InkAtlas(width: width, height: height, supersample: InkDataset.supersample(width: width, height: height),
                             options: options, maxSide: min(renderer.info.maxCanvasSide.width, renderer.info.maxCanvasSide.height))
        var sink = try DatasetSink(output: output, part: self.part, width: width, height: height, rows: todo,
                                   overwrite: overwrite, compression: compression, listSkipped: skipBadLines)
        summary.labelsPath = sink.labels.name
        summary.skippedPath = sink.skipped?.name

        // Parsed drawings waiting to be drawn, each with its index in the run.
        var pending: [(index: Int, drawing: InkDrawing)] = []
        var done = 0
        var parseSeconds = 0.0
        func flush() async throws {
            guard !pending.isEmpty else { return }
            let before = done
            let targets = sink.prepare()
            try await atlas.render(pending, on: renderer, inverted: targets.inkOnWhite, progress: { progress(before + $0, todo) }) { index, coverage in
                try targets.deliver(index, coverage)
            }
            done += pending.count
            pending.removeAll(keepingCapacity: true)
        }
        func take(_ results: [(Int, Int?, String, Result<InkDrawing, InputError>)]) throws {
            for (index, line, source, result) in results {
                switch result {
                case let .success(d):
                    pending.append((index, d))
                    try sink.label(index: index, drawing: d, source: source, line: line)
                case let .failure(e):
                    guard skipBadLines else {
                        throw InputError(file: e.file, location: e.location, "\(e.message) (add --skip-bad-lines to skip lines like this)")
                    }
                    summary.skipped += 1
                    if summary.firstSkipped.count < 20 { summary.firstSkipped.append(e) }
                    try sink.skip(e)
                    report(e)
                }
            }
        }

        var first = 0  // the run's index of the input's first drawing
        for (k, input) in inputs.enumerated() {
            defer { first += counts[k] }
            guard let part, first + counts[k] > part.lowerBound, first <= part.upperBound else { continue }
            if formats[k] == .inkML {
                let t = Date()
                let result: Result<InkDrawing, InputError>
                do throws(InputError) { result = .success(try atlas.checked(try InkMLReader.read(path: input), file: input, line: nil)) }
                catch { result = .failure(error) }
                parseSeconds += Date().timeIntervalSince(t)
                try take([(first, nil, input, result)])
            } else {
                let chunks = try QuickDrawChunks(path: input)
                var index = first
                while let piece = try chunks.next() {
                    let lines = piece.lines
                    let from = max(index, part.lowerBound), to = min(index + lines.count - 1, part.upperBound)
                    defer { index += lines.count }
                    guard from <= to else { if index > part.upperBound { break } else { continue } }
                    let t = Date()
                    let base = index
                    let parsed: [(Int, Int?, String, Result<InkDrawing, InputError>)] = InkAtlas.parallelMap(to - from + 1) { i in
                        let line = lines[from - base + i]
                        do throws(InputError) {
                            let d = try atlas.checked(try QuickDrawReader.drawing(piece.bytes, line: line, file: input),
                                                      file: input, line: line.number)
                            return (from + i, line.number, input, .success(d))
                        } catch { return (from + i, line.number, input, .failure(error)) }
                    }
                    parseSeconds += Date().timeIntervalSince(t)
                    try take(parsed)
                    if pending.count >= InkDataset.batch { try await flush() }
                }
            }
            if pending.count >= InkDataset.batch { try await flush() }
        }
        try await flush()
        let written = try sink.finish()
        summary.drawings = done
        summary.files = written.files
        summary.bytes = written.bytes
        summary.parseSeconds = parseSeconds
        summary.timings = atlas.timings
        summary.seconds = Date().timeIntervalSince(start)
        return summary
    }
}

extension InkAtlas {
    /// `drawing`, checked: its extent, and its stamps at this size within a script's limit.
    func checked(_ drawing: InkDrawing, file: String, line: Int?) throws(InputError) -> InkDrawing {
        try drawing.check(file: file)
        let bound = stampBound(drawing)
        guard bound <= Double(Limits.maxStampsPerScript) else {
            throw InputError(file: file, location: line.map { .text(line: $0, column: 1) } ?? .file,
                             "this drawing would make over \(Limits.maxStampsPerScript) stamps at this size (about \(Int(min(bound, 1e15))))")
        }
        return drawing
    }
}
