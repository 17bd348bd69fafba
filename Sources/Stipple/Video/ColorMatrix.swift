import CStipple

/// The R'G'B' → Y'CbCr matrix (docs/reference.md §11). y4m names none, so it is chosen: by `--matrix`,
/// else BT.709 for frames at least 720 rows tall and BT.601 below (what players assume).
public enum ColorMatrix: String, Sendable, CaseIterable, Equatable {
    case bt601
    case bt709

    /// Luma weights of red and blue; green's is 1 − Kr − Kb.
    public var kr: Double { self == .bt601 ? 0.299 : 0.2126 }
    /// Kb: the blue weight of luma (0.114 for BT.601, 0.0722 for BT.709).
    public var kb: Double { self == .bt601 ? 0.114 : 0.0722 }

    /// The default for a frame `height` rows tall.
    public static func `default`(forHeight height: Int) -> ColorMatrix { height >= 720 ? .bt709 : .bt601 }
}

/// R'G'B' (0…255) → 8-bit Y'CbCr with one matrix and range, in 16.16 fixed point rounded
/// to nearest: within one unit of the exact value, like swscale's accurate rounding.
public struct YCbCrConversion: Sendable, Equatable {
    /// BT.601 or BT.709.
    public let matrix: ColorMatrix
    /// Limited (16…235 luma) or full (0…255).
    public let range: ColorRange
    // Coefficients ×65536, and the offsets ×65536 with the rounding half added.
    let yR: Int32, yG: Int32, yB: Int32, yOffset: Int32
    let cbR: Int32, cbG: Int32, cbB: Int32
    let crR: Int32, crG: Int32, crB: Int32
    let cOffset: Int32

    /// The conversion of `matrix` in `range`.
    public init(matrix: ColorMatrix, range: ColorRange) {
        self.matrix = matrix; self.range = range
        let kr = matrix.kr, kb = matrix.kb, kg = 1 - kr - kb
        let ys = range == .limited ? 219.0 / 255 : 1, cs = range == .limited ? 224.0 / 255 : 1
        func q(_ v: Double) -> Int32 { Int32((v * 65536).rounded()) }
        yR = q(kr * ys); yG = q(kg * ys); yB = q(kb * ys)
        // Cb = (B − Y) / (2 (1 − Kb)), Cr = (R − Y) / (2 (1 − Kr)), then scaled.
        let cb = cs / (2 * (1 - kb)), cr = cs / (2 * (1 - kr))
        cbR = q(-kr * cb); cbG = q(-kg * cb); cbB = q((1 - kb) * cb)
        crR = q((1 - kr) * cr); crG = q(-kg * cr); crB = q(-kb * cr)
        yOffset = (range == .limited ? 16 << 16 : 0) + (1 << 15)
        cOffset = (128 << 16) + (1 << 15)
    }

    /// The coefficients for the compositor's vector loop.
    var lanes: stp_ycbcr {
        stp_ycbcr(y_r: yR, y_g: yG, y_b: yB, y_offset: yOffset, cb_r: cbR, cb_g: cbG, cb_b: cbB,
                  cr_r: crR, cr_g: crG, cr_b: crB, c_offset: cOffset)
    }

    /// Luma of an 8-bit R′G′B′ colour, in this range, 8-bit.
    @inline(__always) public func y(_ r: Int32, _ g: Int32, _ b: Int32) -> Int32 {
        clamp((yR &* r &+ yG &* g &+ yB &* b &+ yOffset) >> 16)
    }

    /// Blue-difference chroma of an 8-bit R′G′B′ colour, in this range, 8-bit.
    @inline(__always) public func cb(_ r: Int32, _ g: Int32, _ b: Int32) -> Int32 {
        clamp((cbR &* r &+ cbG &* g &+ cbB &* b &+ cOffset) >> 16)
    }

    /// Red-difference chroma of an 8-bit R′G′B′ colour, in this range, 8-bit.
    @inline(__always) public func cr(_ r: Int32, _ g: Int32, _ b: Int32) -> Int32 {
        clamp((crR &* r &+ crG &* g &+ crB &* b &+ cOffset) >> 16)
    }

    @inline(__always) func clamp(_ v: Int32) -> Int32 { min(max(v, 0), 255) }
}
