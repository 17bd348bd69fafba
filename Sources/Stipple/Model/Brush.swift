/// A brush: a coverage image, one byte a texel, rows top to bottom (docs/reference.md §4).
///
/// Coverage is the source image's alpha channel; for an image without alpha, its grey
/// value (for colour, the luma 0.299 R + 0.587 G + 0.114 B). The stamp samples it
/// bilinearly, clamped to its edge, with (0, 0) at the stamp's top-left corner.
public struct Brush: Equatable, Hashable, Sendable {
    /// The texture's width, in texels.
    public let width: Int
    /// The texture's height, in texels.
    public let height: Int
    /// `width * height` bytes, row 0 at the top.
    public let coverage: [UInt8]

    /// A brush from its coverage: `width` × `height` bytes, 0 (nothing) to 255 (full), row 0 at
    /// the top. Traps when the byte count does not match the size.
    public init(width: Int, height: Int, coverage: [UInt8]) {
        precondition(width > 0 && height > 0 && coverage.count == width * height,
                     "Brush: \(coverage.count) bytes do not make \(width)×\(height)")
        self.width = width; self.height = height; self.coverage = coverage
    }

    /// The coverage of a decoded image: alpha when it has alpha, else luma.
    public init(image: Image, hasAlpha: Bool) {
        var cov = [UInt8](repeating: 0, count: image.width * image.height)
        image.pixels.withUnsafeBufferPointer { px in
            for i in 0..<cov.count {
                if hasAlpha {
                    cov[i] = px[i * 4 + 3]
                } else {
                    let l = 0.299 * Double(px[i * 4]) + 0.587 * Double(px[i * 4 + 1]) + 0.114 * Double(px[i * 4 + 2])
                    cov[i] = UInt8(min(255, max(0, l.rounded())))
                }
            }
        }
        self.init(width: image.width, height: image.height, coverage: cov)
    }

    /// A key naming this brush by its content (size and every coverage byte, FNV-1a 64):
    /// equal brushes get equal keys, so a renderer uploads a brush's texture once however
    /// often it is given, with no name to invent. Used wherever an API takes a `Brush`
    /// without a `brushKey`.
    package var contentKey: String {
        var hash = ContentHash()
        hash.mix(width)
        hash.mix(height)
        hash.mix(coverage)
        return "content:\(width)x\(height):" + hash.hex
    }

    /// The built-in brushes, generated at any size.
    public enum Builtin: String, CaseIterable, Sendable {
        /// A disc with a one-texel anti-aliased rim.
        case hardRound = "hard-round"
        /// A disc whose coverage falls smoothly from the centre to nothing at the rim.
        case softRound = "soft-round"
    }

    /// Default texture side of a built-in brush.
    public static let defaultBuiltinSize = 128

    /// Generates a built-in brush `size` texels square. Coverage is computed at each
    /// texel centre from the distance to the brush centre, in units of the radius.
    public static func builtin(_ kind: Builtin, size: Int = defaultBuiltinSize) -> Brush {
        precondition(size >= 1)
        var cov = [UInt8](repeating: 0, count: size * size)
        let half = Double(size) / 2
        for j in 0..<size {
            for i in 0..<size {
                let dx = (Double(i) + 0.5 - half), dy = (Double(j) + 0.5 - half)
                let d = (dx * dx + dy * dy).squareRoot()
                let v: Double
                switch kind {
                case .hardRound:
                    // Full inside, a one-texel ramp across the rim.
                    v = min(1, max(0, half - d + 0.5))
                case .softRound:
                    let t = min(1, d / half)
                    let s = 1 - t * t * (3 - 2 * t)  // 1 - smoothstep(0, 1, t)
                    v = s
                }
                cov[j * size + i] = UInt8((v * 255).rounded())
            }
        }
        return Brush(width: size, height: size, coverage: cov)
    }
}
