/// FNV-1a, 64 bits: the one hash Stipple names content by (brushes, saved drawings' brush
/// files, the images a golden report saw). Not for security: it tells apart content that
/// changed, it does not resist content made to collide.
package struct ContentHash {
    package private(set) var value: UInt64

    package init(seed: UInt64 = 0) { value = 0xcbf2_9ce4_8422_2325 ^ seed }

    package mutating func mix(_ byte: UInt8) { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }

    package mutating func mix<S: Sequence>(_ bytes: S) where S.Element == UInt8 { for b in bytes { mix(b) } }

    /// The eight bytes of `v`, least significant first.
    package mutating func mix(_ v: Int) {
        for shift in stride(from: 0, to: 64, by: 8) { mix(UInt8(truncatingIfNeeded: v >> shift)) }
    }

    /// The value as 16 hex digits.
    package var hex: String {
        let h = String(value, radix: 16)
        return String(repeating: "0", count: 16 - h.count) + h
    }
}

extension Image {
    /// A name for this image's content (size and every byte, `ContentHash`): a golden
    /// report records it for each image it keeps, so that accepting later takes exactly the
    /// image the report saw.
    package var contentDigest: String {
        var h = ContentHash()
        h.mix(width)
        h.mix(height)
        pixels.withUnsafeBufferPointer { h.mix($0) }
        return "fnv1a64:" + h.hex
    }
}
