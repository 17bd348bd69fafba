/// One frame of a y4m stream, kept as it is written: the `FRAME\n` line, then the Y, Cb
/// and Cr planes back to back (no padding), so a frame goes out in one write.
public struct Y4MFrame: Sendable {
    /// The stream's header: sizes of the planes.
    public let header: Y4MHeader
    /// `FRAME\n` + Y + Cb + Cr.
    public var bytes: [UInt8]

    /// What starts every frame of the stream.
    public static let marker: [UInt8] = Array("FRAME\n".utf8)

    /// A frame of `header`'s size, every sample 0 until read into.
    public init(header: Y4MHeader) {
        self.header = header
        bytes = Y4MFrame.marker + [UInt8](repeating: 0, count: header.frameSize)
    }

    /// Where the luma plane starts in ``bytes``.
    public var yOffset: Int { Y4MFrame.marker.count }
    /// Where the Cb plane starts in ``bytes``.
    public var cbOffset: Int { yOffset + header.lumaSize }
    /// Where the Cr plane starts in ``bytes``.
    public var crOffset: Int { cbOffset + header.chromaSize }

    /// The planes alone (what a y4m frame holds after its `FRAME` line).
    public var planes: ArraySlice<UInt8> { bytes[yOffset...] }

    /// Fills every plane with one value each (test frames, a blank background).
    public mutating func fill(y: UInt8, cb: UInt8, cr: UInt8) {
        let (o, c, r, end) = (yOffset, cbOffset, crOffset, bytes.count)
        bytes.withUnsafeMutableBufferPointer { p in
            p[o..<c].update(repeating: y)
            p[c..<r].update(repeating: cb)
            p[r..<end].update(repeating: cr)
        }
    }
}
