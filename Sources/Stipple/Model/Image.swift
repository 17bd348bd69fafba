/// An 8-bit RGBA image, rows top to bottom, straight alpha (docs/reference.md §1).
///
/// A fully transparent pixel is always (0, 0, 0, 0) in images Stipple writes.
public struct Image: Equatable, Sendable {
    /// The image's width, in pixels.
    public let width: Int
    /// The image's height, in pixels.
    public let height: Int
    /// `width * height * 4` bytes, RGBA, row 0 at the top.
    public var pixels: [UInt8]

    /// An image from straight RGBA bytes, rows top to bottom, 4 × `width` × `height` of them.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4,
                     "Image: \(pixels.count) bytes do not make \(width)×\(height) RGBA")
        self.width = width; self.height = height; self.pixels = pixels
    }

    /// A canvas filled with one straight colour.
    public init(width: Int, height: Int, fill: Color) {
        let (r, g, b, a) = fill.rgba8
        var px = [UInt8](repeating: 0, count: width * height * 4)
        if a != 0 {
            for i in stride(from: 0, to: px.count, by: 4) {
                px[i] = r; px[i + 1] = g; px[i + 2] = b; px[i + 3] = a
            }
        }
        self.init(width: width, height: height, pixels: px)
    }

    /// The straight RGBA pixel at column `x`, row `y` (0 at the top).
    @inlinable public func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }

    /// The image premultiplied, 8 bits a channel: c' = round(c * a / 255).
    /// Comparisons are made on this form (docs/reference.md §7): the straight colour of a nearly
    /// transparent pixel is noise.
    public func premultiplied() -> [UInt8] {
        var out = pixels
        out.withUnsafeMutableBufferPointer { px in
            var i = 0
            while i + 4 <= px.count {
                let a = UInt32(px[i + 3])
                if a != 255 {
                    for c in 0..<3 { px[i + c] = UInt8((UInt32(px[i + c]) * a + 127) / 255) }
                }
                i += 4
            }
        }
        return out
    }

    /// Builds a straight-alpha image from premultiplied 8-bit RGBA (rows top to bottom).
    /// A pixel with alpha 0 becomes (0, 0, 0, 0).
    public init(width: Int, height: Int, premultiplied: [UInt8]) {
        var out = premultiplied
        Image.unpremultiply(&out)
        self.init(width: width, height: height, pixels: out)
    }

    /// Premultiplied RGBA made straight in place; opaque pixels, most of a frame, are left
    /// as they are.
    static func unpremultiply(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { px in
            guard let base = px.baseAddress else { return }
            let raw = UnsafeRawPointer(base)
            // Four pixels' alphas tested at once: runs of opaque pixels are passed over.
            let alphas: UInt64 = 0xFF00_0000_FF00_0000
            var i = 0
            while i + 16 <= px.count {
                let a = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let b = raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
                if a & b & alphas != alphas {
                    for k in stride(from: i, to: i + 16, by: 4) where px[k + 3] != 255 { unpremultiply(px, at: k) }
                }
                i += 16
            }
            while i + 4 <= px.count {
                if px[i + 3] != 255 { unpremultiply(px, at: i) }
                i += 4
            }
        }
    }

    @inline(__always)
    static func unpremultiply(_ px: UnsafeMutableBufferPointer<UInt8>, at i: Int) {
        let a = UInt32(px[i + 3])
        if a == 0 {
            px[i] = 0; px[i + 1] = 0; px[i + 2] = 0
        } else if a != 255 {
            for c in 0..<3 {
                let v = (UInt32(px[i + c]) * 255 + a / 2) / a
                px[i + c] = UInt8(min(v, 255))
            }
        }
    }
}
