/// A bake's frames when the script has stroke layers (docs/brush-modes.md, "Baking"): the
/// frame's colour is the canvas's background, the script is drawn over it as `render`
/// draws it (plain entries composited first, each stroke layer reading what is below it),
/// and the result is laid over the frame as read and written back to the planes.
///
/// A pixel the drawing leaves exactly as it was keeps its samples exactly as read (for
/// 4:2:0 chroma: a sample whose 2×2 block is unchanged). An erase stroke removes sketch
/// paint and reveals the video under it: what is drawn is composited over the frame, so an
/// eraser cannot make the video itself transparent.
struct ModeBake {
    let renderer: Renderer
    let conversion: YCbCrConversion
    let settings: RenderSettings

    /// Draws `layers` (the script's shown at clock frame `n`, then any live strokes) over
    /// `frame` (decoded planes), in place. A "detect edges" layer keeps the reference it
    /// reads the first time its first stamp is drawn: from the frame it is born on.
    func apply(frame n: Int, layers: [LayerID], to frame: inout Y4MFrame) async throws {
        let video = ModeBake.rgba(of: frame, conversion)
        let (w, h) = (frame.header.width, frame.header.height)
        let canvas = Canvas(width: w, height: h, background: .image(Image(width: w, height: h, pixels: video)))
        let drawn = try await renderer.renderLayersPremultiplied(layers, canvas: canvas, frame: n, settings: settings)
        ModeBake.write(drawn, over: video, into: &frame, conversion)
    }

    /// The frame's R'G'B' (0…255, opaque RGBA, rows top to bottom), by the matrix and range.
    static func rgba(of frame: Y4MFrame, _ c: YCbCrConversion) -> [UInt8] {
        let h = frame.header
        let kr = c.matrix.kr, kb = c.matrix.kb, kg = 1 - kr - kb
        let limited = c.range == .limited
        let (ys, yo, cs) = limited ? (219.0, 16.0, 224.0) : (255.0, 0.0, 255.0)
        let sub = h.chroma == .yuv444 ? 1 : 2
        var out = [UInt8](repeating: 255, count: h.width * h.height * 4)
        let b = frame.bytes
        for y in 0..<h.height {
            for x in 0..<h.width {
                let ci = (y / sub) * h.chromaWidth + x / sub
                let yn = (Double(b[frame.yOffset + y * h.width + x]) - yo) / ys
                let cb = (Double(b[frame.cbOffset + ci]) - 128) / cs
                let cr = (Double(b[frame.crOffset + ci]) - 128) / cs
                let r = yn + 2 * (1 - kr) * cr, bl = yn + 2 * (1 - kb) * cb
                let g = (yn - kr * r - kb * bl) / kg
                let o = (y * h.width + x) * 4
                out[o] = byte(r); out[o + 1] = byte(g); out[o + 2] = byte(bl)
            }
        }
        return out
    }

    @inline(__always) static func byte(_ v: Double) -> UInt8 { UInt8(min(max((v * 255).rounded(), 0), 255)) }

    /// Lays `drawn` (premultiplied) over `video` and writes the pixels that changed back to
    /// the planes; the others keep their samples as read.
    static func write(_ drawn: [UInt8], over video: [UInt8], into frame: inout Y4MFrame, _ c: YCbCrConversion) {
        let h = frame.header
        var out = video
        var changed = [Bool](repeating: false, count: h.width * h.height)
        for i in 0..<(h.width * h.height) {
            let a = Int(drawn[i * 4 + 3])
            var same = true
            for k in 0..<3 {
                let v = Int(drawn[i * 4 + k]) + (Int(video[i * 4 + k]) * (255 - a) + 127) / 255
                out[i * 4 + k] = UInt8(min(v, 255))
                if out[i * 4 + k] != video[i * 4 + k] { same = false }
            }
            changed[i] = !same
        }
        let sub = h.chroma == .yuv444 ? 1 : 2
        let (yOffset, cbOffset, crOffset) = (frame.yOffset, frame.cbOffset, frame.crOffset)
        frame.bytes.withUnsafeMutableBufferPointer { p in
            for i in 0..<(h.width * h.height) where changed[i] {
                let o = i * 4
                p[yOffset + i] = UInt8(c.y(Int32(out[o]), Int32(out[o + 1]), Int32(out[o + 2])))
            }
            for cy in 0..<h.chromaHeight {
                for cx in 0..<h.chromaWidth {
                    var (r, g, b, n, any) = (0, 0, 0, 0, false)
                    for y in (cy * sub)..<min(cy * sub + sub, h.height) {
                        for x in (cx * sub)..<min(cx * sub + sub, h.width) {
                            let i = y * h.width + x
                            any = any || changed[i]
                            r += Int(out[i * 4]); g += Int(out[i * 4 + 1]); b += Int(out[i * 4 + 2]); n += 1
                        }
                    }
                    guard any else { continue }
                    let (ar, ag, ab) = (Int32((r + n / 2) / n), Int32((g + n / 2) / n), Int32((b + n / 2) / n))
                    let ci = cy * h.chromaWidth + cx
                    p[cbOffset + ci] = UInt8(c.cb(ar, ag, ab))
                    p[crOffset + ci] = UInt8(c.cr(ar, ag, ab))
                }
            }
        }
    }
}
