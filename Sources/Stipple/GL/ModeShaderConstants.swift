import Foundation

/// The numbers and constants the brush-mode shaders are compiled with, given here once: the
/// shaders read them as `#define`s (`MODE_OVER`, …, `BLUR_RADIUS`, `BLUR_SIGMA`), never by
/// repeating them or by the order of an enum.
enum ModeShaderConstants {
    static func number(_ blend: StrokeMode.Blend) -> Int {
        switch blend {
        case .over: return 0
        case .erase: return 1
        case .multiply: return 2
        case .screen: return 3
        }
    }

    static func number(_ effect: StrokeMode.Effect) -> Int {
        switch effect {
        case .lighten: return 10
        case .darken: return 11
        case .saturate: return 12
        case .desaturate: return 13
        case .soften: return 14
        case .sharpen: return 15
        }
    }

    /// The number of `mode` (the final pass's `APPLY_MODE`): its effect's, else its blend's.
    static func number(_ mode: StrokeMode) -> Int { mode.effect.map(number) ?? number(mode.blend) }

    /// Every constant as a define, for every brush-mode shader.
    static let defines: [String] =
        StrokeMode.Blend.allCases.map { "MODE_\($0.rawValue.uppercased()) \(number($0)).0" }
        + StrokeMode.Effect.allCases.map { "MODE_\($0.rawValue.uppercased()) \(number($0)).0" }
        + ["BLUR_RADIUS \(StrokeMode.blurRadius)", "BLUR_SIGMA \(StrokeMode.blurSigma)"]

    /// The shadow blur's weights for taps 0…R (tap −k weighs as tap k): exp(−k² / 2σ²),
    /// normalised over all 2R + 1 taps (all alike for σ 0), worked out once here rather than
    /// at every tap of every pixel.
    static func tapWeights(sigma: Float, radius: Int) -> [Float] {
        let s = Double(sigma)
        let raw = (0...max(0, radius)).map { k in s > 0 ? Foundation.exp(-Double(k * k) / (2 * s * s)) : 1 }
        let total = raw.enumerated().reduce(0) { $0 + ($1.offset == 0 ? $1.element : 2 * $1.element) }
        return raw.map { Float($0 / total) }
    }
}
