/// A layer as the CPU composes it (`PixelLayerCompositor`): its drawing L and how it meets
/// the canvas.
struct PixelLayer: Sendable {
    enum Op: Sendable {
        case over, erase, multiply, screen, lighten, darken, saturate, desaturate
        /// Whether the op reads L's colour, not only its alpha.
        var readsColour: Bool { self == .over || self == .multiply || self == .screen }
        /// Whether the op can change the canvas's alpha (the blends; the effects keep it).
        var changesAlpha: Bool { readsColour || self == .erase }
        /// The op's number in stp_layers.c: the cases in order.
        var code: Int32 {
            switch self {
            case .over: 0
            case .erase: 1
            case .multiply: 2
            case .screen: 3
            case .lighten: 4
            case .darken: 5
            case .saturate: 6
            case .desaturate: 7
            }
        }
    }
    let op: Op
    /// k: `strokeOpacity` (1 for a plain entry).
    let opacity: Float
    let box: PixelBox
    /// L's premultiplied red, green, blue and alpha, a plane each; a plane's rows (the box's
    /// bottom row first) have `pad` zeros either side, so eight pixels read from any column
    /// of a span stay in the row.
    let planes: [UInt8]
    /// For each row, the first column and the one past the last (from the box's left) where
    /// L's alpha is not 0; 0, 0 for a row with none.
    let spans: [Int32]

    static let pad = 8

    /// The planes of `pixels` (premultiplied RGBA, a box `width` pixels wide).
    static func planes(of pixels: [UInt8], width: Int) -> [UInt8] {
        let rows = width == 0 ? 0 : pixels.count / (width * 4)
        let stride = width + 2 * pad, plane = rows * stride
        var planes = [UInt8](repeating: 0, count: 4 * plane)
        planes.withUnsafeMutableBufferPointer { out in
            pixels.withUnsafeBufferPointer { p in
                for r in 0..<rows {
                    for x in 0..<width {
                        for c in 0..<4 { out[c * plane + r * stride + pad + x] = p[(r * width + x) * 4 + c] }
                    }
                }
            }
        }
        return planes
    }

    /// The pixels that `planes` of `box` hold in `part` (inside the box): premultiplied RGBA,
    /// the part's bottom row first (the inverse of `planes(of:width:)`).
    static func pixels(of planes: [UInt8], box: PixelBox, in part: PixelBox) -> [UInt8] {
        let stride = box.width + 2 * pad, plane = box.height * stride
        var pixels = [UInt8](repeating: 0, count: 4 * part.width * part.height)
        pixels.withUnsafeMutableBufferPointer { out in
            planes.withUnsafeBufferPointer { p in
                for y in part.y0..<part.y1 {
                    let (r, j) = (box.y1 - 1 - y, part.y1 - 1 - y)
                    for x in 0..<part.width {
                        let at = r * stride + pad + x + part.x0 - box.x0, i = (j * part.width + x) * 4
                        for c in 0..<4 { out[i + c] = p[c * plane + at] }
                    }
                }
            }
        }
        return pixels
    }

    /// The spans of `pixels`, a box `width` pixels wide.
    static func spans(of pixels: [UInt8], width: Int) -> [Int32] {
        let rows = width == 0 ? 0 : pixels.count / (width * 4)
        var spans = [Int32](repeating: 0, count: 2 * rows)
        pixels.withUnsafeBufferPointer { p in
            for r in 0..<rows {
                let row = p.baseAddress! + r * width * 4
                guard let first = (0..<width).first(where: { row[$0 * 4 + 3] != 0 }) else { continue }
                let last = (first..<width).last { row[$0 * 4 + 3] != 0 }!
                (spans[2 * r], spans[2 * r + 1]) = (Int32(first), Int32(last + 1))
            }
        }
        return spans
    }

    /// How a layer with `mode` meets the canvas, when it acts pixel by pixel
    /// (`StrokeMode.actsPixelByPixel`); nil when it does not.
    static func op(_ mode: StrokeMode?) -> (Op, Float)? {
        guard let mode else { return (.over, 1) }
        guard mode.actsPixelByPixel else { return nil }
        let op: Op
        switch mode.effect {
        case nil:
            switch mode.blend {
            case .over: op = .over
            case .erase: op = .erase
            case .multiply: op = .multiply
            case .screen: op = .screen
            }
        case .lighten: op = .lighten
        case .darken: op = .darken
        case .saturate: op = .saturate
        case .desaturate: op = .desaturate
        case .soften, .sharpen: preconditionFailure("a blur does not act pixel by pixel")
        }
        return (op, mode.strokeOpacity)
    }
}

extension PixelLayer.Op {
    typealias F8 = SIMD8<Float>

    /// `d` (premultiplied, 0…1, eight pixels) after a layer whose premultiplied source there
    /// is `s` (L × k): the blends' W3C formulas, the effects on the straight colour. A pixel
    /// where s is 0 is left as it is.
    @inline(__always) func apply(_ d: inout (F8, F8, F8, F8), _ s: (F8, F8, F8, F8)) {
        switch self {
        case .over:
            let keep = 1 - s.3
            d = (s.0 + d.0 * keep, s.1 + d.1 * keep, s.2 + d.2 * keep, s.3 + d.3 * keep)
        case .erase:
            let keep = 1 - s.3
            d = (d.0 * keep, d.1 * keep, d.2 * keep, d.3 * keep)
        case .multiply:
            // For alpha too: s.a(1 − d.a) + d.a(1 − s.a) + s.a·d.a = s.a + d.a(1 − s.a).
            let (ks, kd) = (1 - d.3, 1 - s.3)
            d = (s.0 * ks + d.0 * kd + s.0 * d.0, s.1 * ks + d.1 * kd + s.1 * d.1, s.2 * ks + d.2 * kd + s.2 * d.2,
                 s.3 * ks + d.3 * kd + s.3 * d.3)
        case .screen:
            d = (s.0 + d.0 - s.0 * d.0, s.1 + d.1 - s.1 * d.1, s.2 + d.2 - s.2 * d.2, s.3 + d.3 - s.3 * d.3)
        case .desaturate:
            // On the straight colour c = d.rgb / d.a, times d.a: linear in d.rgb.
            let luma = 0.299 * d.0 + 0.587 * d.1 + 0.114 * d.2
            d = (d.0 + (luma - d.0) * s.3, d.1 + (luma - d.1) * s.3, d.2 + (luma - d.2) * s.3, d.3)
        case .lighten, .darken, .saturate:
            let live = (d.3 .> 0) .& (s.3 .> 0)
            let alpha = d.3.replacing(with: 1, where: .!live)
            let c = (d.0 / alpha, d.1 / alpha, d.2 / alpha)
            let luma = 0.299 * c.0 + 0.587 * c.1 + 0.114 * c.2
            @inline(__always) func e(_ c: F8) -> F8 {
                switch self {
                case .lighten: return 1 - (1 - c) * (1 - c)
                case .darken: return c * c
                default:
                    let v = luma + 2 * (c - luma)
                    return v.replacing(with: 0, where: v .< 0).replacing(with: 1, where: v .> 1)
                }
            }
            @inline(__always) func adjusted(_ old: F8, _ c: F8) -> F8 {
                ((c + (e(c) - c) * s.3) * d.3).replacing(with: old, where: .!live)
            }
            d = (adjusted(d.0, c.0), adjusted(d.1, c.1), adjusted(d.2, c.2), d.3)
        }
    }
}
