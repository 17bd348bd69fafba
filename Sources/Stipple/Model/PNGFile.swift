import CStipple
import Foundation

/// PNG in and out through the C shim's libpng wrappers (docs/reference.md §1: 8 bits a channel,
/// rows top to bottom, written RGBA straight).
public enum PNGFile {
    /// A PNG file as read: the image and what its file held.
    public struct Decoded: Sendable {
        /// The pixels, straight RGBA, rows top to bottom (grey and palette images expanded).
        public var image: Image
        /// The file had an alpha channel (or tRNS): brush coverage is its alpha, else its luma.
        public var hasAlpha: Bool
        /// True when the file stored grey values (a brush then reads its coverage from them).
        public var isGrey: Bool
    }

    /// Reads any PNG into 8-bit RGBA. Only a regular file is read (a FIFO or a device is
    /// refused before a byte is read), at most `Limits.maxPNGFileBytes`, and its declared
    /// size is checked against `Limits.maxPNGSide` and `Limits.maxPNGPixels` before
    /// anything is decoded. Errors name the file and, for a bad PNG, the byte.
    public static func read(path: String) throws -> Decoded {
        let opened: (fd: Int32, size: Int)
        do {
            opened = try FileSystem.openRegularFile(path: path, limit: Limits.maxPNGFileBytes)
        } catch {
            if error.message == "file not found" { throw InputError(file: path, "no such file (a PNG was expected here)") }
            throw error
        }
        var decoded = stp_png_image()
        var err = [CChar](repeating: 0, count: 512)
        var offset: Int64 = -1
        let size: Int64 = Int64(opened.size)
        let side: Int32 = Int32(Limits.maxPNGSide)
        let maxPixels: Int64 = Int64(Limits.maxPNGPixels)
        let errCount: Int = err.count
        let rc: Int32 = stp_png_read_fd(opened.fd, size, side, maxPixels, &decoded, &offset, &err, errCount)
        return try taken(&decoded, rc: rc, offset: offset, err: err, file: path)
    }

    /// Decodes PNG bytes held in memory, with the checks `read(path:)` makes; errors name
    /// `name` as the file.
    package static func decode(_ bytes: [UInt8], name: String = "PNG data") throws -> Decoded {
        var decoded = stp_png_image()
        var err = [CChar](repeating: 0, count: 512)
        var offset: Int64 = -1
        let errCount: Int = err.count
        let rc: Int32 = bytes.withUnsafeBytes {
            stp_png_read_memory($0.baseAddress, $0.count, Int32(Limits.maxPNGSide), Int64(Limits.maxPNGPixels),
                                &decoded, &offset, &err, errCount)
        }
        return try taken(&decoded, rc: rc, offset: offset, err: err, file: name)
    }

    /// The image the C reader decoded (freed here), or its error.
    private static func taken(_ decoded: inout stp_png_image, rc: Int32, offset: Int64, err: [CChar],
                              file: String) throws -> Decoded {
        guard rc == 0 else {
            let why = String(cBuffer: err)
            var location = InputLocation.file
            if offset >= 0 { location = .byte(Int(offset)) }
            throw InputError(file: file, location: location, "not a readable PNG: \(why)")
        }
        defer { stp_png_free(&decoded) }
        let count = Int(decoded.width) * Int(decoded.height) * 4
        let pixels = [UInt8](UnsafeBufferPointer(start: decoded.rgba, count: count))
        return Decoded(image: Image(width: Int(decoded.width), height: Int(decoded.height), pixels: pixels),
                       hasAlpha: decoded.has_alpha != 0, isGrey: decoded.is_grey != 0)
    }

    /// Compression used for written frames: 0…3 is the fast profile (`PNGSegments`: per-row
    /// None/Sub/Up/Paeth (grey: None/Sub/Up), run-length deflate on every core; 0 stores; also
    /// copies from farther back, kept where smaller: at 2…3 always, at 1 where a sample of an
    /// RGBA segment shows they pay), 4…9 libpng's adaptive filters at that deflate level
    /// (smaller, slower).
    public static let defaultCompression: Int32 = 1

    /// Encodes 8-bit straight RGBA into PNG bytes: compression 0…3 on every core
    /// (`PNGSegments`), 4…9 through libpng.
    public static func encode(_ image: Image, compression: Int32 = defaultCompression) throws -> [UInt8] {
        try encode(image, compression: compression, onEveryCore: true)
    }

    /// As `encode(_:compression:)`; with `onEveryCore` false, levels 0…3 encode on the calling
    /// thread alone (for callers that run an encoder a core themselves).
    package static func encode(_ image: Image, compression: Int32, onEveryCore: Bool) throws -> [UInt8] {
        if compression <= 3 {
            return try image.pixels.withUnsafeBufferPointer {
                try PNGSegments.png($0, width: image.width, height: image.height, channels: 4, level: compression,
                                    onEveryCore: onEveryCore)
            }
        }
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
                             durable: Bool = true, exclusive: Bool = false) throws {
        try write(image, to: path, compression: compression, durable: durable, exclusive: exclusive, onEveryCore: true)
    }

    /// As `write(_:to:compression:durable:exclusive:)`, `onEveryCore` as `encode`'s.
    package static func write(_ image: Image, to path: String, compression: Int32, durable: Bool, exclusive: Bool,
                              onEveryCore: Bool) throws {
        try OutputFile.write(try encode(image, compression: compression, onEveryCore: onEveryCore), to: path,
                             durable: durable, exclusive: exclusive)
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

/// Writes a file whole or not at all (see `OutputFile`, which every writer goes through).
package enum AtomicFile {
    /// `durable` also flushes the data to the disk before the rename (fsync): for a file a
    /// person asked for by name. Frame sequences skip it: a flush per frame costs more
    /// than the encoding. `exclusive` refuses to replace an existing file.
    public static func write(_ bytes: [UInt8], to path: String, durable: Bool = true,
                             exclusive: Bool = false) throws {
        try OutputFile.write(bytes, to: path, durable: durable, exclusive: exclusive)
    }
}

extension PNGFile {
    /// Encodes 8-bit grey pixels (`width` × `height`, rows top to bottom) into PNG bytes.
    package static func encodeGrey(_ pixels: [UInt8], width: Int, height: Int,
                                   compression: Int32 = defaultCompression) throws -> [UInt8] {
        precondition(pixels.count == width * height, "one byte a pixel")
        if compression <= 3 {
            return try pixels.withUnsafeBufferPointer {
                try PNGSegments.png($0, width: width, height: height, channels: 1, level: compression)
            }
        }
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        var err = [CChar](repeating: 0, count: 512)
        let rc = pixels.withUnsafeBufferPointer {
            stp_png_encode_channels($0.baseAddress, Int32(width), Int32(height), 1, compression, &out, &length,
                                    &err, err.count)
        }
        guard rc == 0, let out else { throw RenderError("PNG encoding failed: \(String(cBuffer: err))") }
        defer { free(out) }
        return [UInt8](UnsafeBufferPointer(start: out, count: length))
    }
}

extension PNGFile {
    /// libpng alone on one thread, for the benchmark: its own filter choice at `level`
    /// (`fast` false), or the Sub filter and run-length deflate that Stipple's levels 0…3 use
    /// (`fast` true). The same pixels as `encode`; other bytes.
    package static func encodeWithLibpng(_ image: Image, level: Int32, fast: Bool) throws -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        var err = [CChar](repeating: 0, count: 512)
        let rc = image.pixels.withUnsafeBufferPointer {
            stp_png_encode_libpng($0.baseAddress, Int32(image.width), Int32(image.height), 4, level, fast ? 1 : 0, &out, &length,
                                  &err, err.count)
        }
        guard rc == 0, let out else { throw RenderError("PNG encoding failed: \(String(cBuffer: err))") }
        defer { free(out) }
        return [UInt8](UnsafeBufferPointer(start: out, count: length))
    }
}
