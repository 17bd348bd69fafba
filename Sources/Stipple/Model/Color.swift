/// A straight (not premultiplied) RGBA colour, each channel 0…1.
public struct Color: Equatable, Hashable, Sendable {
    /// Red, straight (not multiplied by alpha), 0…1.
    public var red: Float
    /// Green, straight, 0…1.
    public var green: Float
    /// Blue, straight, 0…1.
    public var blue: Float
    /// Opacity, 0 (transparent) to 1 (opaque).
    public var alpha: Float

    /// A colour from straight channels, each 0…1; opaque unless `alpha` says otherwise.
    public init(red: Float, green: Float, blue: Float, alpha: Float = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// Transparent black: (0, 0, 0, 0).
    public static let transparent = Color(red: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque white.
    public static let white = Color(red: 1, green: 1, blue: 1, alpha: 1)
    /// Opaque black.
    public static let black = Color(red: 0, green: 0, blue: 0, alpha: 1)

    /// Parses `#rrggbb` or `#rrggbbaa` (hex digits, either case). Returns nil otherwise.
    public init?(hex: String) {
        let utf8 = Array(hex.utf8)
        guard utf8.first == UInt8(ascii: "#"), utf8.count == 7 || utf8.count == 9 else { return nil }
        var bytes: [UInt8] = []
        var i = 1
        while i < utf8.count {
            guard let hi = Color.hexValue(utf8[i]), let lo = Color.hexValue(utf8[i + 1]) else { return nil }
            bytes.append(hi << 4 | lo)
            i += 2
        }
        self.init(red: Float(bytes[0]) / 255, green: Float(bytes[1]) / 255, blue: Float(bytes[2]) / 255,
                  alpha: bytes.count == 4 ? Float(bytes[3]) / 255 : 1)
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The colour as 8-bit straight RGBA, rounded to nearest.
    public var rgba8: (UInt8, UInt8, UInt8, UInt8) {
        func q(_ v: Float) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded()) }
        return (q(red), q(green), q(blue), q(alpha))
    }

    /// The colour quantised to 8 bits straight, then premultiplied with rounding to nearest:
    /// the canvas's first pixels for a colour background, the same rule as `Image.premultiplied()`.
    public var premultipliedRGBA8: (UInt8, UInt8, UInt8, UInt8) {
        let (r, g, b, a) = rgba8
        let pa = UInt32(a)
        func pm(_ v: UInt8) -> UInt8 { UInt8((UInt32(v) * pa + 127) / 255) }
        return (pm(r), pm(g), pm(b), a)
    }
}

/// A colour written as a string literal, `#rrggbb` or `#rrggbbaa`:
/// `let ink: Color = "#ff3b30"`, `StrokeStyle(color: "#ff3b30", radius: 6)`.
/// A literal that is not one of those forms stops the program, naming it; parse text that
/// comes from elsewhere with the failable `Color(hex:)`.
extension Color: ExpressibleByStringLiteral {
    /// A colour written `"#rrggbb"` or `"#rrggbbaa"`; traps on any other text (use
    /// ``init(hex:)`` to parse text that may be wrong).
    public init(stringLiteral value: String) {
        guard let color = Color(hex: value) else {
            preconditionFailure("Color: \"\(value)\" is not a colour; write #rrggbb or #rrggbbaa")
        }
        self = color
    }
}
