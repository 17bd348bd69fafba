import Dispatch
import Foundation

/// A Quick, Draw! file rendered whole in one run (docs/ink-formats.md, "Datasets"): one grey
/// PNG a drawing into a folder, or every drawing's coverage in one N × H × W uint8 `.npy`
/// array (white strokes on black, as Google's `numpy_bitmap`). One renderer for the run;
/// drawings share render targets through `InkAtlas`.
package struct InkDataset {
    package enum Output: Sendable {
        /// PNG files named by `key_id` (else `line-N`), dark strokes on white.
        case folder(String)
        /// One `.npy` file.
        case npy(String)
    }

    package var input: String
    package var output: Output
    package var width: Int
    package var height: Int
    package var options: InkOptions
    /// The part of the file's drawings (0-based, counting lines that are not blank) to render.
    package var shard: FrameShard?
    package var skipBadLines = false
    package var overwrite = false
    package var compression: Int32 = PNGFile.defaultCompression

    package init(input: String, output: Output, width: Int, height: Int, options: InkOptions) {
        self.input = input; self.output = output; self.width = width; self.height = height; self.options = options
    }

    /// What a run did.
    package struct Summary: Sendable {
        package var drawings = 0
        package var totalInFile = 0
        package var badLines: [InputError] = []
        package var files = 0
        package var bytes = 0
        package var seconds = 0.0
        package var parseSeconds = 0.0
        package var timings = InkAtlas.Timings()
    }

    /// The factor a side is drawn larger before it is averaged down: 2 at 28 pixels, 1 from 48 up.
    package static func supersample(width: Int, height: Int) -> Int {
        min(4, max(1, Int((48.0 / Double(max(width, height))).rounded(.up))))
    }

    /// A file name for a drawing: its `key_id` when that is a plain name, else its line.
    package static func fileName(_ drawing: InkDrawing, line: Int) -> String {
        if let key = drawing.name, !key.isEmpty, key.count <= 100,
           key.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F }) {
            return "\(key).png"
        }
        return "line-\(line).png"
    }

    /// Renders the run. `report` is told of every bad line that is skipped; `progress` of
    /// drawings done out of those to do.
    package func run(on renderer: Renderer, bytes: [UInt8], report: (InputError) -> Void = { _ in },
                     progress: @escaping (Int, Int) -> Void = { _, _ in }) async throws -> Summary {
        let start = Date()
        var summary = Summary()
        let lines = QuickDrawReader.lines(bytes)
        summary.totalInFile = lines.count
        guard !lines.isEmpty else { throw InputError(file: input, "holds no drawing (no line that is not blank)") }
        let whole = 0...(lines.count - 1)
        let part = shard.map { $0.part(of: whole) } ?? whole
        let atlas = InkAtlas(width: width, height: height, supersample: InkDataset.supersample(width: width, height: height),
                             options: options, maxSide: min(renderer.info.maxCanvasSide.width, renderer.info.maxCanvasSide.height))
        var items: [(index: Int, drawing: InkDrawing)] = []
        var lineOf: [Int: Int] = [:]
        if let part {
            let file = input
            let parsed: [Result<InkDrawing, InputError>] = InkAtlas.parallelMap(part.count) { i in
                let line = lines[part.lowerBound + i]
                do throws(InputError) {
                    let d = try QuickDrawReader.drawing(bytes, line: line, file: file)
                    try d.check(file: file)
                    let bound = atlas.stampBound(d)
                    guard bound <= Double(Limits.maxStampsPerScript) else {
                        throw InputError(file: file, location: .text(line: line.number, column: 1),
                                         "this drawing would make over \(Limits.maxStampsPerScript) stamps at this size (about \(Int(min(bound, 1e15))))")
                    }
                    return .success(d)
                } catch { return .failure(error) }
            }
            for (i, r) in parsed.enumerated() {
                switch r {
                case let .success(d):
                    items.append((part.lowerBound + i, d))
                    lineOf[part.lowerBound + i] = lines[part.lowerBound + i].number
                case let .failure(e):
                    guard skipBadLines else {
                        throw InputError(file: e.file, location: e.location, "\(e.message) (add --skip-bad-lines to skip lines like this)")
                    }
                    summary.badLines.append(e)
                    report(e)
                }
            }
        }
        summary.parseSeconds = Date().timeIntervalSince(start)
        summary.drawings = items.count

        let count = items.count
        switch output {
        case let .folder(folder):
            var names: [Int: String] = [:]
            var used: Set<String> = []
            for item in items {
                var name = InkDataset.fileName(item.drawing, line: lineOf[item.index]!)
                if used.contains(name) { name = "\(name.dropLast(4))-line-\(lineOf[item.index]!).png" }
                used.insert(name)
                names[item.index] = FileSystem.resolve(name, against: folder)
            }
            if !overwrite, let existing = names.values.sorted().first(where: { FileManager.default.fileExists(atPath: $0) }) {
                throw InputError(file: existing, "exists; add --overwrite to replace the drawings an earlier run wrote")
            }
            let (w, h, level) = (width, height, compression)
            let paths = names
            let written = UnsafeSendableBox(0)
            let lock = NSLock()
            try await atlas.render(items, on: renderer, progress: { progress($0, count) }) { index, coverage in
                let grey = coverage.map { 255 - $0 }
                let png = try PNGFile.encodeGrey(grey, width: w, height: h, compression: level)
                try OutputFile.write(png, to: paths[index]!, durable: false)
                lock.lock(); written.value += png.count; lock.unlock()
            }
            summary.files = items.count
            summary.bytes = written.value
        case let .npy(path):
            let header = NumPyFile.header(shape: [items.count, height, width])
            let plane = width * height
            let data = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: header.count + items.count * plane)
            defer { data.deallocate() }
            data.initialize(repeating: 0)
            _ = UnsafeMutableBufferPointer(rebasing: data[0..<header.count]).update(from: header)
            var slot: [Int: Int] = [:]
            for (k, item) in items.enumerated() { slot[item.index] = k }
            let slots = slot
            let target = UnsafeSendableBox(data)
            try await atlas.render(items, on: renderer, progress: { progress($0, count) }) { index, coverage in
                let at = header.count + slots[index]! * plane
                coverage.withUnsafeBufferPointer { src in
                    UnsafeMutableRawPointer(target.value.baseAddress! + at).copyMemory(from: src.baseAddress!, byteCount: plane)
                }
            }
            try OutputFile.write(Array(data), to: path)
            summary.files = 1
            summary.bytes = data.count
        }
        summary.timings = atlas.timings
        summary.seconds = Date().timeIntervalSince(start)
        return summary
    }
}
