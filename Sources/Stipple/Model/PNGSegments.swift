import CStipple
import Dispatch

/// The fast PNG profile (compression 0–3: each row filtered by None, Sub, Up or Paeth (grey:
/// None, Sub or Up), whichever sums smallest; runs of a repeated byte and literals coded in
/// one Huffman block of the segment's own counts, also copies from farther back where that
/// codes smaller (at 2–3 always tried, at 1 where an RGBA segment's runs left few literals or
/// a sample of it shows they pay); level 0 stored), encoded on every core: the image's rows
/// are cut into segments of a fixed number of rows (about 256 KiB of pixels, set by the row's
/// size alone), each filtered and compressed on its own
/// thread into raw deflate that ends on a byte boundary, one IDAT chunk a segment; the zlib
/// header goes before them and the Adler-32 of the whole, combined from the segments', after.
/// The bytes depend only on the pixels and the level: the same whether the image is encoded
/// whole or band by band (`PNGBandWriter`), on one core or sixteen.
enum PNGSegments {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Rows in every segment but the last.
    static func rows(width: Int, channels: Int) -> Int { Int(stp_png_segment_rows(Int32(width), Int32(channels))) }

    static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// A chunk: its length, type, data and CRC.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = body.withUnsafeBufferPointer { UInt32(truncatingIfNeeded: stp_crc32(0, $0.baseAddress, $0.count)) }
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
    }

    /// The signature, the header (8-bit grey or RGBA, no interlace) and the zlib stream's
    /// header (deflate, 32 KiB window, fastest), as an IDAT chunk of its own.
    static func start(width: Int, height: Int, channels: Int) -> [UInt8] {
        let ihdr = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, channels == 1 ? 0 : 6, 0, 0, 0]
        return signature + chunk("IHDR", ihdr) + chunk("IDAT", [0x78, 0x01])
    }

    /// The Adler-32 that ends the zlib stream, and the end of the image.
    static func end(adler: UInt) -> [UInt8] {
        chunk("IDAT", bigEndian(UInt32(truncatingIfNeeded: adler))) + chunk("IEND", [])
    }

    /// Encoded rows: their IDAT chunks, and the Adler-32 and length of their filtered bytes.
    struct Part {
        var bytes: [UInt8] = []
        var adler: UInt = 1
        var rawLength = 0
    }

    /// Encodes `rows` rows of `pixels` (`width` × `channels` bytes each) as segments on every
    /// core, or with `onEveryCore` false on the calling thread alone (for a caller that runs
    /// several encoders at once). `above` is the image's row above them (nil for its first
    /// rows): a segment's first row is filtered against the row above it, wherever the
    /// segment's rows came from. All but the last segment are full unless `endsImage` is
    /// false, where every one must be. The part's bytes begin with `prefix` and have room for
    /// `room` more after them (a whole image's bytes are made in one array, copied once).
    static func encode(_ pixels: UnsafeBufferPointer<UInt8>, above: UnsafePointer<UInt8>? = nil, width: Int, channels: Int,
                       rows: Int, endsImage: Bool, level: Int32, onEveryCore: Bool = true, prefix: [UInt8] = [],
                       room: Int = 0) throws -> Part {
        let per = self.rows(width: width, channels: channels)
        let count = (rows + per - 1) / per
        precondition(endsImage || rows % per == 0, "a band that does not end the image holds whole segments")
        let stride = width * channels
        let results = UnsafeMutableBufferPointer<stp_png_segment>.allocate(capacity: count)
        results.initialize(repeating: stp_png_segment())
        let failures = UnsafeMutableBufferPointer<CChar>.allocate(capacity: count * 256)
        failures.initialize(repeating: 0)
        defer {
            for i in 0..<count { stp_png_segment_free(&results[i]) }
            results.deallocate()
            failures.deallocate()
        }
        let base = UnsafeSendableBox(pixels.baseAddress!), out = UnsafeSendableBox(results.baseAddress!)
        let errs = UnsafeSendableBox(failures.baseAddress!), given = above.map { UnsafeSendableBox($0) }
        let segment: @Sendable (Int) -> Void = { i in
            let first = i * per, n = min(per, rows - first)
            let rowAbove = i == 0 ? given?.value : UnsafePointer(base.value + (first - 1) * stride)
            _ = stp_png_segment_encode(base.value + first * stride, rowAbove, Int32(width), Int32(channels), Int32(n),
                                       endsImage && i == count - 1 ? 1 : 0, level, out.value + i, errs.value + i * 256, 256)
        }
        if onEveryCore {
            DispatchQueue.concurrentPerform(iterations: count, execute: segment)
        } else {
            for i in 0..<count { segment(i) }
        }
        var part = Part()
        var total = prefix.count + room
        for i in 0..<count {
            guard results[i].data != nil else {
                throw RenderError("PNG encoding failed: \(String(cString: failures.baseAddress! + i * 256))")
            }
            total += results[i].len + 12
        }
        part.bytes.reserveCapacity(total)
        part.bytes += prefix
        for i in 0..<count {
            let s = results[i]
            part.bytes += bigEndian(UInt32(s.len)) + Array("IDAT".utf8)
            part.bytes += UnsafeBufferPointer(start: s.data, count: s.len)
            part.bytes += bigEndian(UInt32(truncatingIfNeeded: s.crc))
            part.adler = i == 0 ? s.adler : stp_adler32_combine(part.adler, s.adler, s.raw_len)
            part.rawLength += s.raw_len
        }
        return part
    }

    /// A whole image's PNG bytes.
    static func png(_ pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, channels: Int, level: Int32,
                    onEveryCore: Bool = true) throws -> [UInt8] {
        var part = try encode(pixels, width: width, channels: channels, rows: height, endsImage: true, level: level,
                              onEveryCore: onEveryCore, prefix: start(width: width, height: height, channels: channels),
                              room: 32)
        part.bytes += end(adler: part.adler)
        return part.bytes
    }
}
