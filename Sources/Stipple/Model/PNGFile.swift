import CStipple
import Foundation

/// PNG in and out through the C shim's libpng wrappers (docs/reference.md §1: 8 bits a channel,
/// rows top to bottom, written RGBA straight).
public enum PNGFile {
    public struct Decoded: Sendable {
        public var image: Image
        /// The file had an alpha channel (or tRNS): brush coverage is its alpha, else its luma.
        public var hasAlpha: Bool
        public var isGrey: Bool
    }

    /// Reads any PNG into 8-bit RGBA. Errors name the file.
    public static func read(path: String) throws -> Decoded {
        var decoded = stp_png_image()
        var err = [CChar](repeating: 0, count: 512)
        guard stp_png_read(path, &decoded, &err, err.count) == 0 else {
            let why = String(cBuffer: err)
            let exists = FileManager.default.fileExists(atPath: path)
            throw InputError(file: path, exists ? "not a readable PNG: \(why)" : "no such file (a PNG was expected here)")
        }
        defer { stp_png_free(&decoded) }
        let count = Int(decoded.width) * Int(decoded.height) * 4
        let pixels = [UInt8](UnsafeBufferPointer(start: decoded.rgba, count: count))
        return Decoded(image: Image(width: Int(decoded.width), height: Int(decoded.height), pixels: pixels),
                       hasAlpha: decoded.has_alpha != 0, isGrey: decoded.is_grey != 0)
    }

    /// Compression used for written frames: 0…3 is the fast profile (Sub filter, run-length
    /// deflate), 4…9 libpng's adaptive filters at that deflate level (smaller, slower).
    public static let defaultCompression: Int32 = 1

    /// Encodes 8-bit straight RGBA into PNG bytes.
    public static func encode(_ image: Image, compression: Int32 = defaultCompression) throws -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        var err = [CChar](repeating: 0, count: 512)
        let rc = image.pixels.withUnsafeBufferPointer {
            stp_png_encode($0.baseAddress, Int32(image.width), Int32(image.height), compression, &out, &length,
                           &err, err.count)
        }
        guard rc == 0, let out else { throw RenderError("PNG encoding failed: \(String(cBuffer: err))") }
        defer { free(out) }
        return [UInt8](UnsafeBufferPointer(start: out, count: length))
    }

    /// Writes `image` to `path` atomically: a failed write leaves no partial file and the
    /// old file, if any, untouched.
    public static func write(_ image: Image, to path: String, compression: Int32 = defaultCompression,
                             durable: Bool = true) throws {
        try AtomicFile.write(try encode(image, compression: compression), to: path, durable: durable)
    }
}

extension Image {
    /// Writes the image as a PNG at `path`, atomically (a failure leaves no partial file):
    /// `try image.writePNG(to: "out.png")`.
    public func writePNG(to path: String, compression: Int32 = PNGFile.defaultCompression) throws {
        try PNGFile.write(self, to: path, compression: compression)
    }

    /// The image encoded as PNG bytes.
    public func pngData(compression: Int32 = PNGFile.defaultCompression) throws -> [UInt8] {
        try PNGFile.encode(self, compression: compression)
    }

    /// Reads a PNG into 8-bit straight RGBA: `let image = try Image(contentsOfPNG: "in.png")`.
    public init(contentsOfPNG path: String) throws {
        self = try PNGFile.read(path: path).image
    }
}

/// Writes a file by writing a temporary beside it and renaming it into place: a failed
/// write leaves no partial file and keeps any existing one intact.
public enum AtomicFile {
    /// `durable` also flushes the data to the disk before the rename (fsync): for a file a
    /// person asked for by name. Frame sequences skip it: a flush per frame costs more
    /// than the encoding.
    public static func write(_ bytes: [UInt8], to path: String, durable: Bool = true) throws {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent()
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDir), isDir.boolValue else {
            throw InputError(file: path, "cannot write: the folder \(dir.path) does not exist")
        }
        try FileSystem.writeAtomically(bytes, to: path, durable: durable)
    }
}
