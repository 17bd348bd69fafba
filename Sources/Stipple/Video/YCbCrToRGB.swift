/// Y′CbCr → R′G′B′ (0…255) by a matrix and range: the inverse of `YCbCrConversion`, in
/// fixed point with 20 fractional bits, rounded to nearest and clamped. Eight luma samples
/// at a time with SIMD; within one unit of the exact value.
struct YCbCrToRGB {
    // Coefficients ×2²⁰: luma's scale, and each chroma's weight in R, G and B.
    let y: Int32, rCr: Int32, gCb: Int32, gCr: Int32, bCb: Int32
    /// The luma of black (16 limited, 0 full).
    let black: Int32
    static let shift: Int32 = 20

    init(_ c: YCbCrConversion) {
        let kr = c.matrix.kr, kb = c.matrix.kb, kg = 1 - kr - kb
        let limited = c.range == .limited
        let (ys, cs) = limited ? (219.0, 224.0) : (255.0, 255.0)
        func q(_ v: Double) -> Int32 { Int32((v * 255 * Double(1 << Self.shift)).rounded()) }
        black = limited ? 16 : 0
        y = q(1 / ys)
        // R = Y + 2(1 − Kr)·Cr, B = Y + 2(1 − Kb)·Cb, G = (Y − Kr·R − Kb·B) / Kg.
        rCr = q(2 * (1 - kr) / cs)
        bCb = q(2 * (1 - kb) / cs)
        gCb = q(-kb * 2 * (1 - kb) / cs / kg)
        gCr = q(-kr * 2 * (1 - kr) / cs / kg)
    }

    /// One sample's colour as RGBA8 read as a little-endian word, alpha 255.
    @inline(__always) func pixel(_ l: Int32, _ cb: Int32, _ cr: Int32) -> UInt32 {
        let half: Int32 = 1 << (Self.shift - 1)
        let t = (l &- black) &* y &+ half
        let (u, v) = (cb &- 128, cr &- 128)
        @inline(__always) func byte(_ x: Int32) -> UInt32 { UInt32(min(max(x >> Self.shift, 0), 255)) }
        return byte(t &+ v &* rCr) | byte(t &+ u &* gCb &+ v &* gCr) << 8 | byte(t &+ u &* bCb) << 16 | 0xFF00_0000
    }

    /// Eight samples' colours, as `pixel` gives them.
    @inline(__always) func pixels(_ l: SIMD8<Int32>, _ cb: SIMD8<Int32>, _ cr: SIMD8<Int32>) -> SIMD8<UInt32> {
        let half = SIMD8<Int32>(repeating: 1 << (Self.shift - 1))
        let t = (l &- black) &* y &+ half
        let (u, v) = (cb &- 128, cr &- 128)
        // Clamped to 0…255 by its bits: the standard library's pointwise min and max are
        // calls, lane by lane.
        @inline(__always) func byte(_ x: SIMD8<Int32>) -> SIMD8<UInt32> {
            let v = x &>> Self.shift
            return SIMD8<UInt32>(truncatingIfNeeded: ((v & ~(v &>> 31)) | ((255 &- v) &>> 31)) & 255)
        }
        return byte(t &+ v &* rCr) | byte(t &+ u &* gCb &+ v &* gCr) &<< 8 | byte(t &+ u &* bCb) &<< 16
            | SIMD8<UInt32>(repeating: 0xFF00_0000)
    }

    /// `box` of `frame` as opaque RGBA, the box's bottom row first (as GL reads and writes
    /// pixels).
    func pixels(of frame: Y4MFrame, box: PixelBox) -> [UInt8] {
        let h = frame.header
        let (bw, bh) = (box.width, box.height)
        let sub = h.chroma == .yuv444 ? 1 : 2
        return [UInt8](unsafeUninitializedCapacity: bw * bh * 4) { out, count in
            count = bw * bh * 4
            let dst = UnsafeMutableRawPointer(out.baseAddress!)
            frame.bytes.withUnsafeBufferPointer { planes in
                let base = planes.baseAddress!
                for row in box.y0..<box.y1 {
                    let luma = base + frame.yOffset + row * h.width
                    let cbRow = base + frame.cbOffset + (row / sub) * h.chromaWidth
                    let crRow = base + frame.crOffset + (row / sub) * h.chromaWidth
                    let line = dst + (box.y1 - 1 - row) * bw * 4
                    var x = box.x0
                    if sub == 2 {
                        // Eight luma samples and their four chroma samples, each used twice.
                        while x + 8 <= box.x1, x % 2 == 0 {
                            let l = SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(luma + x).loadUnaligned(as: SIMD8<UInt8>.self))
                            let b4 = SIMD4<Int32>(truncatingIfNeeded: UnsafeRawPointer(cbRow + x / 2).loadUnaligned(as: SIMD4<UInt8>.self))
                            let r4 = SIMD4<Int32>(truncatingIfNeeded: UnsafeRawPointer(crRow + x / 2).loadUnaligned(as: SIMD4<UInt8>.self))
                            let cb = SIMD8(b4[0], b4[0], b4[1], b4[1], b4[2], b4[2], b4[3], b4[3])
                            let cr = SIMD8(r4[0], r4[0], r4[1], r4[1], r4[2], r4[2], r4[3], r4[3])
                            (line + (x - box.x0) * 4).storeBytes(of: pixels(l, cb, cr), as: SIMD8<UInt32>.self)
                            x += 8
                        }
                    } else {
                        while x + 8 <= box.x1 {
                            func load(_ p: UnsafePointer<UInt8>) -> SIMD8<Int32> {
                                SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(p + x).loadUnaligned(as: SIMD8<UInt8>.self))
                            }
                            (line + (x - box.x0) * 4).storeBytes(of: pixels(load(luma), load(cbRow), load(crRow)),
                                                                 as: SIMD8<UInt32>.self)
                            x += 8
                        }
                    }
                    while x < box.x1 {
                        let v = pixel(Int32(luma[x]), Int32(cbRow[x / sub]), Int32(crRow[x / sub]))
                        (line + (x - box.x0) * 4).storeBytes(of: v, as: UInt32.self)
                        x += 1
                    }
                }
            }
        }
    }
}
