import Foundation
import Stipple

/// The Python pipeline the ink scenario races: what a user writes to render Quick, Draw!
/// drawings with cairocffi (lines 16 wide, round caps and joins, one thread), to PNG files
/// or through Pillow's box resize to 28×28 into one numpy array. It draws and writes what
/// Stipple does: one 8-bit grey channel (cairo's A8 surface, the ink's coverage, written as
/// a greyscale PNG; its ink light on dark where Stipple's is dark on white, which costs the
/// same), not colour. It times itself from the first line read to the last file
/// written and prints its figures as JSON.
struct InkPeer {
    let python: String
    let script: String

    static let source = """
        import json, os, sys, time
        import cairocffi as cairo
        import numpy as np
        from PIL import Image

        mode, src, out = sys.argv[1], sys.argv[2], sys.argv[3]
        if mode == "png":
            os.makedirs(out, exist_ok=True)
        start = time.perf_counter()
        draw = encode = 0.0
        arrays = []
        with open(src) as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                d = json.loads(line)
                a = time.perf_counter()
                surface = cairo.ImageSurface(cairo.FORMAT_A8, 256, 256)
                c = cairo.Context(surface)
                c.set_line_width(16)
                c.set_line_cap(cairo.LINE_CAP_ROUND)
                c.set_line_join(cairo.LINE_JOIN_ROUND)
                for stroke in d["drawing"]:
                    xs, ys = stroke[0], stroke[1]
                    c.move_to(xs[0], ys[0])
                    for x, y in zip(xs[1:], ys[1:]):
                        c.line_to(x, y)
                    c.stroke()
                surface.flush()
                b = time.perf_counter()
                draw += b - a
                if mode == "png":
                    surface.write_to_png(os.path.join(out, str(d.get("key_id", number)) + ".png"))
                else:
                    img = Image.frombuffer("L", (256, 256), bytes(surface.get_data()), "raw", "L", surface.get_stride(), 1)
                    arrays.append(np.asarray(img.resize((28, 28), Image.BOX)))
                encode += time.perf_counter() - b
        if mode == "npy":
            b = time.perf_counter()
            np.save(out, np.stack(arrays).astype(np.uint8))
            encode += time.perf_counter() - b
        print(json.dumps({"seconds": time.perf_counter() - start, "draw": draw, "encode": encode}))
        """

    struct Result: Decodable { var seconds: Double; var draw: Double; var encode: Double }

    func run(mode: String, input: String, output: String) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, mode, input, output]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let result = try? JSONDecoder().decode(Result.self, from: data) else {
            throw InputError(file: python, "the Python peer failed: \(String(decoding: errors.suffix(300), as: UTF8.self))")
        }
        return result
    }
}

extension BenchSuite {
    /// The peer, when python3 with cairocffi, numpy and pillow is here; nil otherwise.
    static func inkPeer(folder: String) -> InkPeer? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        guard let python = paths.map({ "\($0)/python3" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: python)
        check.arguments = ["-c", "import cairocffi, numpy, PIL"]
        check.standardOutput = FileHandle.nullDevice
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return nil }
        check.waitUntilExit()
        guard check.terminationStatus == 0 else { return nil }
        let script = (folder as NSString).appendingPathComponent("peer.py")
        guard (try? Data(InkPeer.source.utf8).write(to: URL(fileURLWithPath: script))) != nil else { return nil }
        return InkPeer(python: python, script: script)
    }
}
