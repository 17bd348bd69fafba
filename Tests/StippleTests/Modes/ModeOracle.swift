import Foundation
@testable import Stipple

/// The arithmetic of brush modes done on the CPU in doubles, straight from its definition:
/// the test target's oracle for the GPU's stroke layers. Inputs are the canvas before the
/// stroke and the stroke layer L, both premultiplied 8-bit RGBA rows top to bottom; the
/// result is the expected canvas, premultiplied, 0…255 as doubles.
enum ModeOracle {
    static func gaussian(radius: Int, sigma: Double) -> [Double] {
        let raw = (-radius...radius).map { k in sigma > 0 ? exp(-Double(k * k) / (2 * sigma * sigma)) : 1 }
        let total = raw.reduce(0, +)
        return raw.map { $0 / total }
    }

    static func apply(_ mode: StrokeMode, before: [UInt8], layer: [UInt8], width: Int, height: Int,
                      reference: [UInt8]?) -> [Double] {
        let k = Double(mode.strokeOpacity)
        func px(_ img: [UInt8], _ x: Int, _ y: Int) -> [Double] {
            let i = (y * width + x) * 4
            return (0..<4).map { Double(img[i + $0]) / 255 }
        }
        func weight(_ x: Int, _ y: Int) -> Double {
            guard let t = mode.edgeTolerance else { return 1 }
            guard let r = reference else { return 0 }
            let i = (y * width + x) * 4
            return (0..<4).allSatisfy { abs(Int(before[i + $0]) - Int(r[$0])) <= t } ? 1 : 0
        }
        func amount(_ x: Int, _ y: Int) -> Double {
            guard x >= 0, y >= 0, x < width, y < height else { return 0 }
            return px(layer, x, y)[3] * k * weight(x, y)
        }
        let blur6 = gaussian(radius: 6, sigma: 2)
        var out = [Double](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                var d = px(before, x, y)
                let w = weight(x, y)
                let s = px(layer, x, y).map { $0 * k * w }
                if let sh = mode.shadow {
                    let r = sh.radius
                    let g = gaussian(radius: r, sigma: Double(sh.blur))
                    var sum = 0.0
                    let (qx, qy) = (x - sh.dx, y - sh.dy)
                    for j in -r...r where qy + j >= 0 && qy + j < height {
                        for i in -r...r where qx + i >= 0 && qx + i < width {
                            sum += g[j + r] * g[i + r] * amount(qx + i, qy + j)
                        }
                    }
                    let sa = sum * Double(sh.color.alpha)
                    let c = [Double(sh.color.red) * sa, Double(sh.color.green) * sa, Double(sh.color.blue) * sa, sa]
                    d = (0..<4).map { c[$0] + d[$0] * (1 - sa) }
                }
                if let e = mode.effect {
                    let m = s[3]
                    if d[3] > 0 && m > 0 {
                        switch e {
                        case .soften, .sharpen:
                            var b = [0.0, 0, 0, 0]
                            for j in -6...6 {
                                for i in -6...6 {
                                    let q = px(before, min(max(x + i, 0), width - 1), min(max(y + j, 0), height - 1))
                                    for c in 0..<4 { b[c] += blur6[i + 6] * blur6[j + 6] * q[c] }
                                }
                            }
                            var target = b
                            if e == .sharpen {
                                target = (0..<4).map { min(max(2 * d[$0] - b[$0], 0), 1) }
                                for c in 0..<3 { target[c] = min(target[c], target[3]) }
                            }
                            d = (0..<4).map { d[$0] + (target[$0] - d[$0]) * m }
                        default:
                            let c = (0..<3).map { d[$0] / d[3] }
                            let yl = 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]
                            let adjusted: [Double] = c.map { v in
                                switch e {
                                case .lighten: return 1 - (1 - v) * (1 - v)
                                case .darken: return v * v
                                case .saturate: return min(max(yl + 2 * (v - yl), 0), 1)
                                default: return yl
                                }
                            }
                            var next = d
                            for i in 0..<3 {
                                let v: Double = c[i] + (adjusted[i] - c[i]) * m
                                next[i] = v * d[3]
                            }
                            d = next
                        }
                    }
                } else {
                    switch mode.blend {
                    case .over: d = (0..<4).map { s[$0] + d[$0] * (1 - s[3]) }
                    case .erase: d = d.map { $0 * (1 - s[3]) }
                    case .multiply:
                        var next = d
                        for i in 0..<3 {
                            let a: Double = s[i] * (1 - d[3]) + d[i] * (1 - s[3])
                            next[i] = a + s[i] * d[i]
                        }
                        next[3] = s[3] + d[3] * (1 - s[3])
                        d = next
                    case .screen: d = (0..<4).map { s[$0] + d[$0] - s[$0] * d[$0] }
                    }
                }
                for c in 0..<4 { out[(y * width + x) * 4 + c] = d[c] * 255 }
            }
        }
        return out
    }
}
