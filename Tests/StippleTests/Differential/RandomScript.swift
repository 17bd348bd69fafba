import Foundation
@testable import Stipple

/// Random scripts that mix everything a user can: plain stamps and strokes; every blend and
/// effect, `strokeOpacity`, "detect edges" and shadows; ageing; undo, redo and clear; colour
/// and image backgrounds; strokes leaving every edge; canvases from 1 × 1 to 2100 wide and a
/// few past 16 384 in one dimension. Deterministic from a seed.
struct RandomScript {
    var rng: SplitMix64
    let seed: UInt64
    /// More stroke layers, most with "detect edges": for the checks where a run's start matters.
    var edgesHeavy = false

    init(seed: UInt64) { self.seed = seed; rng = SplitMix64(seed: seed) }

    mutating func int(_ r: ClosedRange<Int>) -> Int { Int.random(in: r, using: &rng) }
    mutating func double(_ r: ClosedRange<Double>) -> Double { Double.random(in: r, using: &rng) }
    mutating func chance(_ p: Double) -> Bool { double(0...1) < p }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }

    /// A canvas size: small, medium, wide (1000 or more), or past 16 384 in one dimension.
    mutating func size(forBake: Bool) -> (Int, Int) {
        if forBake { return (int(16...120), int(12...90)) }
        switch int(0...19) {
        case 0...4: return (int(1...64), int(1...64))
        case 5...11:
            let w = chance(0.3) ? pick([64, 128, 256, 512]) : int(65...700)
            return (w, chance(0.3) ? pick([64, 128, 256]) : int(20...500))
        case 12...17: return (chance(0.3) ? pick([1024, 2048]) : int(1000...2100), int(1...300))
        case 18: return (int(16385...17200), int(1...20))
        default: return (int(1...20), int(16385...17000))
        }
    }

    /// A script as JSON text. `image` names a background PNG beside it (written by the
    /// caller with `backgroundImage`), used when given.
    mutating func script(forBake: Bool = false, image: String? = nil) -> (json: String, width: Int, height: Int) {
        let (w, h) = size(forBake: forBake)
        var top: [String] = []
        if !forBake {
            let background: String
            if let image, w <= 4096, h <= 4096, chance(0.25) {
                background = #"{ "image": "\#(image)" }"#
            } else {
                background = "\"\(hex(opaque: chance(0.7)))\""
            }
            top.append(#""canvas": { "width": \#(w), "height": \#(h), "background": \#(background) }"#)
        }
        top.append(#""fps": 30"#)
        if chance(0.5) { top.append("\"maxAge\": \(int(8...60))") }
        if chance(0.3) { top.append("\"dissolveDistance\": \(int(-20...20))") }
        top.append(#""brushes": { "soft": { "builtin": "soft-round", "size": 64 }, "hard": { "builtin": "hard-round", "size": 32 } }"#)
        var entries: [String] = []
        let strokes = int(1...9)
        for i in 0..<strokes {
            entries.append(entry(w, h, index: i))
            if chance(0.15) {
                // An undo (with a redo after it, at the same time or later), or a clear.
                let t = double(0...1.2)
                if chance(0.25) {
                    entries.append(#"{ "clear": true, "t": \#(String(format: "%.3f", t)) }"#)
                } else {
                    entries.append(#"{ "undo": 1, "t": \#(String(format: "%.3f", t)) }"#)
                    if chance(0.5) { entries.append(#"{ "redo": 1, "t": \#(String(format: "%.3f", t + double(0...0.5))) }"#) }
                }
            }
        }
        top.append("\"draw\": [\n    " + entries.joined(separator: ",\n    ") + "\n]")
        return ("{\n  " + top.joined(separator: ",\n  ") + "\n}\n", w, h)
    }

    mutating func hex(opaque: Bool) -> String {
        let a = opaque ? 255 : int(0...254)
        return String(format: "#%02x%02x%02x%02x", int(0...255), int(0...255), int(0...255), a)
    }

    /// A point anywhere on the canvas or up to a fifth past any edge.
    mutating func point(_ w: Int, _ h: Int) -> (Double, Double) {
        (double(-0.2 * Double(w)...1.2 * Double(w)), double(-0.2 * Double(h)...1.2 * Double(h)))
    }

    mutating func entry(_ w: Int, _ h: Int, index: Int) -> String {
        var keys: [String] = ["\"brush\": \"\(pick(["soft", "hard"]))\""]
        let radius = chance(0.08) ? int(130...200) : int(1...max(2, min(60, max(w, h) / 3)))
        if chance(0.75) {
            keys.append("\"radius\": \(radius)")
            keys.append("\"color\": \"\(hex(opaque: chance(0.6)))\"")
            let t0 = double(0...0.9)
            var (x, y) = point(w, h)
            let samples = (0..<int(1...6)).map { k -> String in
                defer {
                    x += double(-0.3...0.3) * Double(max(w, 8))
                    y += double(-0.3...0.3) * Double(max(h, 8))
                }
                return String(format: #"{ "x": %.2f, "y": %.2f, "t": %.3f, "pressure": %.2f }"#, x, y, t0 + Double(k) * 0.04,
                              double(0.1...1))
            }
            keys.append("\"points\": [" + samples.joined(separator: ", ") + "]")
        } else {
            let stamps = (0..<int(1...12)).map { _ -> String in
                let (x, y) = point(w, h)
                return String(format: "[%.2f, %.2f, %d, %d, %.3f, %.3f, %.3f, %.3f, %.3f]", x, y, int(1...radius), -int(-6...24),
                              double(0...6.28), double(0...1), double(0...1), double(0...1), double(0.2...1))
            }
            keys.append("\"stamps\": [" + stamps.joined(separator: ", ") + "]")
        }
        keys += modeKeys()
        return "{ " + keys.joined(separator: ", ") + " }"
    }

    mutating func modeKeys() -> [String] {
        guard chance(edgesHeavy ? 0.8 : 0.55) else { return [] }
        var keys: [String] = []
        let effect = chance(0.35) ? pick(StrokeMode.Effect.allCases) : nil
        if let effect {
            keys.append("\"effect\": \"\(effect.rawValue)\"")
        } else if chance(0.7) {
            keys.append("\"blend\": \"\(pick(StrokeMode.Blend.allCases).rawValue)\"")
        }
        if chance(0.3) { keys.append(String(format: "\"strokeOpacity\": %.2f", double(0...1))) }
        if chance(edgesHeavy ? 0.7 : 0.3) { keys.append("\"edges\": { \"tolerance\": \(int(0...120)) }") }
        let erases = keys.contains("\"blend\": \"erase\"")
        if effect == nil, !erases, chance(0.35) {
            keys.append("\"shadow\": { \"offset\": [\(int(-12...12)), \(int(-12...12))], \"blur\": \(pick([0, 0.5, 1, 2, 3, 5, 8])), \"color\": \"\(hex(opaque: false))\" }")
        }
        return keys
    }

    /// A background image's pixels (straight RGBA): a gradient with a few hard bands.
    mutating func backgroundImage(width: Int, height: Int) -> Image {
        let a = int(0...255), b = int(0...255), opaque = chance(0.7)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                pixels[i] = UInt8((x * 255) / max(1, width - 1))
                pixels[i + 1] = UInt8((y * 255) / max(1, height - 1))
                pixels[i + 2] = UInt8(((x / 7 + y / 5) % 2 == 0) ? a : b)
                pixels[i + 3] = opaque ? 255 : UInt8((x + y) % 256)
            }
        }
        return Image(width: width, height: height, pixels: pixels)
    }
}
