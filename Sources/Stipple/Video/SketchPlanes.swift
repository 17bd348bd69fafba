import Foundation
import CStipple
/// A video's sketch kept in the form the compositor blends (docs/video.md): for every luma
/// and chroma sample, the sketch's alpha `a` and its straight colour converted to Y′CbCr in
/// the output's matrix and range, `s` (a byte each: the blend reads as few bytes a frame as
/// it can); and which 16×16 tiles of the frame it covers.
///
/// Only the boxes a frame changed are converted (`apply`), and only the rows of tiles the
/// sketch covers are blended (`composite`, from each one's first covered tile to its last),
/// thirty-two samples at a time, with no division: a sample becomes
/// `((d·(255 − a) + s·a + 128)·257) >> 16`, ffmpeg `overlay`'s straight-alpha blend — and,
/// where `a` is 0, exactly `d`. The colours are those `PlaneCompositor` computes (un-premultiplied
/// with `Image`'s rounding, 4:2:0 chroma from the 2×2 block's average straight colour and
/// alpha), so both give the same bytes.
struct SketchPlanes {
    static let tile = 16
    let width: Int, height: Int
    let chromaWidth: Int, chromaHeight: Int
    /// 2 when chroma is subsampled 2×2 (4:2:0), 1 for 4:4:4.
    let chromaStep: Int
    let conversion: YCbCrConversion
    private var lumaAlpha: [UInt8]
    private var luma: [UInt8]
    private var chromaAlpha: [UInt8]
    private var cb: [UInt8]
    private var cr: [UInt8]
    private let tileColumns: Int, tileRows: Int
    private var covered: [Bool]
    private(set) var coveredTiles = 0

    init(header: Y4MHeader, conversion: YCbCrConversion) {
        width = header.width; height = header.height
        chromaWidth = header.chromaWidth; chromaHeight = header.chromaHeight
        chromaStep = header.chroma == .yuv444 ? 1 : 2
        self.conversion = conversion
        lumaAlpha = [UInt8](repeating: 0, count: width * height)
        luma = [UInt8](repeating: 0, count: width * height)
        chromaAlpha = [UInt8](repeating: 0, count: chromaWidth * chromaHeight)
        cb = [UInt8](repeating: 0, count: chromaWidth * chromaHeight)
        cr = cb
        tileColumns = (width + Self.tile - 1) / Self.tile
        tileRows = (height + Self.tile - 1) / Self.tile
        covered = [Bool](repeating: false, count: tileColumns * tileRows)
    }

    /// Takes a frame's changes: the patches' pixels replace those boxes (all else is
    /// transparent when the update replaces everything).
    mutating func apply(_ update: SketchUpdate) {
        let whole = PixelBox(x0: 0, y0: 0, x1: width, y1: height)
        if update.replacesAll && !update.patches.contains(where: { $0.box == whole }) && coveredTiles > 0 {
            clear()
        }
        for patch in update.patches { convert(patch) }
    }

    private mutating func clear() {
        for i in lumaAlpha.indices { lumaAlpha[i] = 0; luma[i] = 0 }
        for i in chromaAlpha.indices { chromaAlpha[i] = 0; cb[i] = 0; cr[i] = 0 }
        for i in covered.indices { covered[i] = false }
        coveredTiles = 0
    }

    private mutating func convert(_ patch: SketchUpdate.Patch) {
        let box = patch.box
        let (w, h) = (box.width, box.height)
        guard w > 0, h > 0 else { return }
        precondition(patch.pixels.count == w * h * 4, "a patch holds its box's pixels")
        precondition(chromaStep == 1 || (box.x0 % 2 == 0 && box.y0 % 2 == 0 && (box.x1 % 2 == 0 || box.x1 == width)
                                         && (box.y1 % 2 == 0 || box.y1 == height)),
                     "4:2:0 patches hold whole chroma blocks")
        let c = conversion
        let width = self.width, height = self.height, cw = chromaWidth
        PlaneCompositor.straightTable.withUnsafeBufferPointer { un in
            patch.pixels.withUnsafeBytes { src in
                lumaAlpha.withUnsafeMutableBufferPointer { la in
                luma.withUnsafeMutableBufferPointer { ly in
                chromaAlpha.withUnsafeMutableBufferPointer { ca in
                cb.withUnsafeMutableBufferPointer { cbp in
                cr.withUnsafeMutableBufferPointer { crp in
                    // The patch's row of canvas row y, from the box's left edge.
                    @inline(__always) func row(_ y: Int) -> UnsafeRawPointer {
                        src.baseAddress! + (patch.bottomUp ? box.y1 - 1 - y : y - box.y0) * w * 4
                    }
                    // A pixel's straight colour and alpha.
                    @inline(__always) func colour(_ p: UnsafeRawPointer) -> (Int32, Int32, Int32, Int32) {
                        let a = Int(p.load(fromByteOffset: 3, as: UInt8.self))
                        let r = p.load(as: UInt8.self), g = p.load(fromByteOffset: 1, as: UInt8.self)
                        let b = p.load(fromByteOffset: 2, as: UInt8.self)
                        guard a != 255 else { return (Int32(r), Int32(g), Int32(b), 255) }
                        let t = a << 8
                        return (Int32(un[t | Int(r)]), Int32(un[t | Int(g)]), Int32(un[t | Int(b)]), Int32(a))
                    }
                    if chromaStep == 1 {
                        for y in box.y0..<box.y1 {
                            let src = row(y)
                            var i = y * width + box.x0
                            for k in 0..<w {
                                let p = src + k * 4
                                let (r, g, b, a) = colour(p)
                                la[i] = UInt8(a); ca[i] = UInt8(a)
                                if a == 0 {
                                    ly[i] = 0; cbp[i] = 0; crp[i] = 0
                                } else {
                                    ly[i] = UInt8(c.y(r, g, b)); cbp[i] = UInt8(c.cb(r, g, b)); crp[i] = UInt8(c.cr(r, g, b))
                                }
                                i += 1
                            }
                        }
                        return
                    }
                    // 4:2:0: a 2×2 block at a time — its luma, and its chroma from the block's
                    // average straight colour and alpha (transparent pixels count as black).
                    var lanes = c.lanes
                    for by in stride(from: box.y0, to: box.y1, by: 2) {
                        let rows = by + 1 < height ? 2 : 1
                        let src = (row(by), rows == 2 ? row(by + 1) : row(by))
                        // Whole blocks eight pixels at a time with AVX2 where the CPU has it (the
                        // same bytes as the loop below); the rest, and a last row alone, block by block.
                        var start = box.x0
                        let vectorWidth = rows == 2 && PlaneCompositor.hasAVX2 ? (min(box.x1, width & ~1) - box.x0) & ~7 : 0
                        if vectorWidth > 0 {
                            let i = by * width + box.x0, ci = (by / 2) * cw + box.x0 / 2
                            stp_convert_rows420(src.0.assumingMemoryBound(to: UInt8.self), src.1.assumingMemoryBound(to: UInt8.self),
                                                Int32(vectorWidth), la.baseAddress! + i, la.baseAddress! + i + width,
                                                ly.baseAddress! + i, ly.baseAddress! + i + width, ca.baseAddress! + ci,
                                                cbp.baseAddress! + ci, crp.baseAddress! + ci, &lanes)
                            start += vectorWidth
                        }
                        for bx in stride(from: start, to: box.x1, by: 2) {
                            let cols = bx + 1 < width ? 2 : 1
                            let k = (bx - box.x0) * 4
                            let ci = (by / 2) * cw + bx / 2
                            if rows == 2 && cols == 2
                                && (src.0.loadUnaligned(fromByteOffset: k, as: UInt64.self)
                                    | src.1.loadUnaligned(fromByteOffset: k, as: UInt64.self)) & PlaneCompositor.alphaMask2 == 0 {
                                let i = by * width + bx
                                la[i] = 0; la[i + 1] = 0; la[i + width] = 0; la[i + width + 1] = 0
                                ly[i] = 0; ly[i + 1] = 0; ly[i + width] = 0; ly[i + width + 1] = 0
                                ca[ci] = 0; cbp[ci] = 0; crp[ci] = 0
                                continue
                            }
                            var sr: Int32 = 0, sg: Int32 = 0, sb: Int32 = 0, sa: Int32 = 0
                            for dy in 0..<rows {
                                let line = dy == 0 ? src.0 : src.1
                                for dx in 0..<cols {
                                    let (r, g, b, a) = colour(line + k + dx * 4)
                                    let i = (by + dy) * width + bx + dx
                                    la[i] = UInt8(a)
                                    guard a != 0 else { ly[i] = 0; continue }
                                    ly[i] = UInt8(c.y(r, g, b))
                                    sr &+= r; sg &+= g; sb &+= b; sa &+= a
                                }
                            }
                            let n = Int32(rows * cols), a = sa / n
                            ca[ci] = UInt8(a)
                            guard a != 0 else { cbp[ci] = 0; crp[ci] = 0; continue }
                            let half = n / 2
                            let (r, g, b) = ((sr + half) / n, (sg + half) / n, (sb + half) / n)
                            cbp[ci] = UInt8(c.cb(r, g, b)); crp[ci] = UInt8(c.cr(r, g, b))
                        }
                    }
                }}}}}
            }
        }
        // The tiles the box touches: covered while any of their samples has alpha.
        let t = Self.tile
        for tr in (box.y0 / t)...((box.y1 - 1) / t) {
            for tc in (box.x0 / t)...((box.x1 - 1) / t) {
                let any = lumaAlpha.withUnsafeBytes { la -> Bool in
                    let (x0, x1) = (tc * t, min(width, tc * t + t))
                    for y in (tr * t)..<min(height, tr * t + t) {
                        var x = x0
                        while x + 8 <= x1 {
                            if la.loadUnaligned(fromByteOffset: y * width + x, as: UInt64.self) != 0 { return true }
                            x += 8
                        }
                        while x < x1 { if la[y * width + x] != 0 { return true }; x += 1 }
                    }
                    return false
                }
                let k = tr * tileColumns + tc
                if any != covered[k] { coveredTiles += any ? 1 : -1; covered[k] = any }
            }
        }
    }

    /// Blends the sketch over `frame`'s planes, row of tiles by row of tiles: from each row's
    /// first covered tile to its last at once, row by row, so that memory is read in long
    /// sequential rows. Returns the tiles covered.
    @discardableResult
    func composite(over frame: inout Y4MFrame) -> Int {
        guard coveredTiles > 0 else { return 0 }
        precondition(frame.header.width == width && frame.header.height == height, "the sketch is the frame's size")
        let (yo, cbo, cro) = (frame.yOffset, frame.cbOffset, frame.crOffset)
        let ct = Self.tile / chromaStep
        frame.bytes.withUnsafeMutableBufferPointer { out in
            lumaAlpha.withUnsafeBufferPointer { la in
            luma.withUnsafeBufferPointer { ly in
            chromaAlpha.withUnsafeBufferPointer { ca in
            cb.withUnsafeBufferPointer { cbp in
            cr.withUnsafeBufferPointer { crp in
            covered.withUnsafeBufferPointer { covered in
                let job = BlendJob(luma: out.baseAddress! + yo, cb: out.baseAddress! + cbo, cr: out.baseAddress! + cro,
                                   lumaAlpha: la.baseAddress!, lumaValue: ly.baseAddress!, chromaAlpha: ca.baseAddress!,
                                   cbValue: cbp.baseAddress!, crValue: crp.baseAddress!, covered: covered.baseAddress!,
                                   width: width, height: height, chromaWidth: chromaWidth, chromaHeight: chromaHeight,
                                   tileColumns: tileColumns, chromaTile: ct)
                // A large sketch is blended on every core, a band of tile rows each (a
                // millisecond a 720p frame at 70 % covered on one core); a small one on this
                // thread (a part costs tens of microseconds to hand out).
                let parts = coveredTiles >= Self.parallelTiles ? min(Self.cores, tileRows) : 1
                if parts == 1 {
                    job.blend(rows: 0..<tileRows)
                } else {
                    let rows = tileRows
                    DispatchQueue.concurrentPerform(iterations: parts) { k in job.blend(rows: (rows * k / parts)..<(rows * (k + 1) / parts)) }
                }
            }}}}}}
        }
        return coveredTiles
    }

    /// One frame's blend: where the planes are, which tiles are covered. Unchecked: it holds
    /// pointers into buffers its caller keeps alive and unchanged for the call, and each part
    /// running at once writes rows of tiles of its own.
    private struct BlendJob: @unchecked Sendable {
        let luma: UnsafeMutablePointer<UInt8>, cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>
        let lumaAlpha: UnsafePointer<UInt8>, lumaValue: UnsafePointer<UInt8>
        let chromaAlpha: UnsafePointer<UInt8>, cbValue: UnsafePointer<UInt8>, crValue: UnsafePointer<UInt8>
        let covered: UnsafePointer<Bool>
        let width: Int, height: Int, chromaWidth: Int, chromaHeight: Int, tileColumns: Int, chromaTile: Int

        /// Blends the covered tiles of tile rows `rows`: in each, the samples from its first
        /// covered tile to its last at once, row by row. The tiles between that the sketch does
        /// not cover have alpha 0 (the blend gives their samples back, and skips them 32 at a
        /// time reading only their alpha): long sequential rows, where runs of a few tiles
        /// each were many short streams with a sample-by-sample tail (chroma tiles are 8 wide),
        /// about nine times slower with the planes out of cache.
        func blend(rows: Range<Int>) {
            let t = SketchPlanes.tile, ct = chromaTile
            for tr in rows {
                let tiles = covered + tr * tileColumns
                guard let first = (0..<tileColumns).first(where: { tiles[$0] }),
                      let last = (0..<tileColumns).last(where: { tiles[$0] }) else { continue }
                let end = last + 1
                SketchPlanes.blend(luma, lumaAlpha, lumaValue, stride: width,
                                   x0: first * t, y0: tr * t, x1: min(width, end * t), y1: min(height, tr * t + t))
                let (cx0, cy0) = (first * ct, tr * ct)
                let (cx1, cy1) = (min(chromaWidth, end * ct), min(chromaHeight, cy0 + ct))
                SketchPlanes.blend(cb, chromaAlpha, cbValue, stride: chromaWidth, x0: cx0, y0: cy0, x1: cx1, y1: cy1)
                SketchPlanes.blend(cr, chromaAlpha, crValue, stride: chromaWidth, x0: cx0, y0: cy0, x1: cx1, y1: cy1)
            }
        }
    }

    /// Covered tiles from which the blend is split between cores.
    static let parallelTiles = 512
    static let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// `d = ((d·(255 − a) + s·a + 128)·257) >> 16` over a box of a plane (`stp_blend_kept`:
    /// thirty-two samples at a time in 16-bit lanes where the CPU has AVX2).
    @inline(__always)
    fileprivate static func blend(_ d: UnsafeMutablePointer<UInt8>, _ a: UnsafePointer<UInt8>, _ s: UnsafePointer<UInt8>,
                              stride: Int, x0: Int, y0: Int, x1: Int, y1: Int) {
        let i = y0 * stride + x0
        stp_blend_kept(d + i, a + i, s + i, stride, Int32(x1 - x0), Int32(y1 - y0))
    }
}
