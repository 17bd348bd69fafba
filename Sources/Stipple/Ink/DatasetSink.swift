import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where a dataset run's drawings go as they come: PNG files or the rows of a `.npy` array,
/// the labels file (a row a drawing, in the array's order) and the list of skipped lines.
/// Every file but the PNGs is written into a temporary and renamed into place by `finish()`,
/// so a run that fails leaves none of them half written.
struct DatasetSink {
    let output: InkDataset.Output
    let width: Int, height: Int
    let overwrite: Bool
    let compression: Int32
    let labels: TextOutput
    let skipped: TextOutput?
    /// The `.npy` file: rows written in place as they come (a special file gets them at the end).
    let array: NpyOutput?
    /// Rows labelled so far (the next drawing's row).
    var rows = 0
    /// Where each pending drawing goes: its row, or its PNG file.
    var rowOf: [Int: Int] = [:]
    var fileOf: [Int: String] = [:]
    /// PNG names given so far (a repeated `key_id` gets its line added).
    var used: Set<String> = []
    let written = ByteCount()

    init(output: InkDataset.Output, part: (index: Int, count: Int)?, width: Int, height: Int, rows: Int, overwrite: Bool,
         compression: Int32, listSkipped: Bool) throws(InputError) {
        self.output = output; self.width = width; self.height = height
        self.overwrite = overwrite; self.compression = compression
        labels = try TextOutput(path: InkDataset.labelsPath(output, part: part))
        skipped = listSkipped ? try TextOutput(path: InkDataset.skippedPath(output, part: part)) : nil
        switch output {
        case .folder:
            array = nil
            try labels.write("file,word,key_id,source,line\n")
        case let .npy(path):
            array = try NpyOutput(path: path, rows: rows, width: width, height: height)
            try labels.write("row,word,key_id,source,line\n")
        }
    }

    /// Gives the drawing `index` of the run its row or file, and its line in the labels.
    mutating func label(index: Int, drawing: InkDrawing, source: String, line: Int?) throws(InputError) {
        let first: String
        switch output {
        case let .folder(folder):
            var name = InkDataset.fileName(drawing, line: line, source: source)
            if used.contains(name) {
                let stem = String(name.dropLast(4))
                name = line.map { "\(stem)-line-\($0).png" } ?? "\(stem)-\(rows).png"
                var n = 2
                while used.contains(name) { name = "\(stem)-\(n).png"; n += 1 }
            }
            used.insert(name)
            let path = FileSystem.resolve(name, against: folder)
            if !overwrite, FileManager.default.fileExists(atPath: path) {
                throw InputError(file: path, "exists; add --overwrite to replace the drawings an earlier run wrote")
            }
            fileOf[index] = path
            first = name
        case .npy:
            rowOf[index] = rows
            first = String(rows)
        }
        rows += 1
        let fields = [first, drawing.label ?? "", drawing.name ?? "", source, line.map(String.init) ?? ""]
        try labels.write(fields.map(DatasetSink.csv).joined(separator: ",") + "\n")
    }

    /// Lists a skipped line.
    func skip(_ error: InputError) throws(InputError) {
        try skipped?.write("\(error)\n")
    }

    /// A CSV field: quoted when it holds a comma, a quote or a line break.
    static func csv(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Where the pending drawings go, for the atlas's delivery (any thread).
    mutating func prepare() -> Targets {
        let targets = Targets(rows: rowOf, files: fileOf, array: array, width: width, height: height,
                              compression: compression, written: written)
        rowOf.removeAll(keepingCapacity: true)
        fileOf.removeAll(keepingCapacity: true)
        return targets
    }

    struct Targets: Sendable {
        let rows: [Int: Int]
        let files: [Int: String]
        let array: NpyOutput?
        let width: Int, height: Int
        let compression: Int32
        let written: ByteCount

        /// PNG files take dark ink on white (255 minus the coverage), the array the coverage.
        var inkOnWhite: Bool { array == nil }

        /// Writes drawing `index`: its coverage, or with `inkOnWhite` 255 minus it.
        func deliver(_ index: Int, _ pixels: [UInt8]) throws {
            if let array, let row = rows[index] {
                try array.write(row: row, pixels)
            } else if let path = files[index] {
                let png = try PNGFile.encodeGrey(pixels, width: width, height: height, compression: compression)
                try OutputFile.write(png, to: path, durable: false)
                written.add(png.count)
            }
        }
    }

    /// Puts every file in place: (files, bytes) of the drawings.
    func finish() throws(InputError) -> (files: Int, bytes: Int) {
        try labels.commit()
        try skipped?.commit()
        if let array {
            let bytes = try array.finish(rows: rows)
            return (1, bytes)
        }
        return (rows, written.value)
    }
}

/// A sum shared by the threads that deliver drawings.
final class ByteCount: Sendable {
    private let total = Mutex(0)
    func add(_ n: Int) { total.withLock { $0 += n } }
    var value: Int { total.withLock { $0 } }
}

/// A text file written as it grows (buffered), put in place by `commit()`.
final class TextOutput {
    private let file: StreamedOutput
    private var buffer: [UInt8] = []
    var name: String { file.name }

    init(path: String) throws(InputError) { file = try StreamedOutput(path: path) }

    func write(_ text: String) throws(InputError) {
        buffer += Array(text.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    func flush() throws(InputError) {
        try FileDescriptor.writeAll(file.descriptor, buffer, name: file.name)
        buffer.removeAll(keepingCapacity: true)
    }

    func commit() throws(InputError) {
        try flush()
        try file.commit(durable: false)
    }
}

/// A `.npy` array of uint8 rows written in place as they come, its header rewritten at the
/// end with the rows there are (padded to the same length); a special file (a pipe) gets the
/// whole array at the end instead.
final class NpyOutput: @unchecked Sendable {  // Unchecked: rows are written with pwrite at offsets of their own; `memory` rows are disjoint.
    private let file: StreamedOutput
    let headerLength: Int
    let plane: Int
    let width: Int, height: Int
    private var memory: UnsafeMutableBufferPointer<UInt8>?

    init(path: String, rows: Int, width: Int, height: Int) throws(InputError) {
        file = try StreamedOutput(path: path)
        self.width = width; self.height = height
        plane = width * height
        let header = NumPyFile.header(shape: [rows, height, width])
        headerLength = header.count
        if file.isSpecial {
            let m = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: rows * plane)
            m.initialize(repeating: 0)
            memory = m
        } else {
            try FileDescriptor.writeAll(file.descriptor, header, name: path, at: 0)
        }
    }

    deinit { memory?.deallocate() }

    func write(row: Int, _ coverage: [UInt8]) throws(InputError) {
        if let memory {
            coverage.withUnsafeBufferPointer { src in
                UnsafeMutableRawPointer(memory.baseAddress! + row * plane).copyMemory(from: src.baseAddress!, byteCount: plane)
            }
        } else {
            try FileDescriptor.writeAll(file.descriptor, coverage, name: file.name, at: headerLength + row * plane)
        }
    }

    /// The header with the final count of rows; the file put in place. Its size in bytes.
    func finish(rows: Int) throws(InputError) -> Int {
        let header = NumPyFile.header(shape: [rows, height, width], length: headerLength)
        if let memory {
            try FileDescriptor.writeAll(file.descriptor, header, name: file.name)
            try FileDescriptor.writeAll(file.descriptor, Array(memory[0..<(rows * plane)]), name: file.name)
        } else {
            try FileDescriptor.writeAll(file.descriptor, header, name: file.name, at: 0)
            if ftruncate(file.descriptor, off_t(headerLength + rows * plane)) != 0 {
                throw InputError(file: file.name, "cannot write: \(FileSystem.reason(errno))")
            }
        }
        try file.commit()
        return headerLength + rows * plane
    }
}
