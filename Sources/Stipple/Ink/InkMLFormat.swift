import Foundation

/// What an InkML `<traceFormat>`, `<inkSource>`, `<brush>` and `<canvasTransform>` say
/// about traces (W3C InkML §3.1, §4): channels in the order values are written, their
/// declared ranges and units, the brush, and an affine map to the canvas.
package struct InkMLChannel: Sendable {
    package var name: String
    package var type: String = "decimal"
    package var min: Double?
    package var max: Double?
    package var defaultValue: Double?
    package var units: String?
    /// `<channelProperty name="resolution">`: value and units (such as 100 and "1/mm").
    package var resolution: (value: Double, units: String?)?
    package var offset: Int
}

package struct InkMLFormat: Sendable {
    package var regular: [InkMLChannel]
    package var intermittent: [InkMLChannel] = []
    /// No format was declared: this is InkML's default.
    package var isDefault = false

    /// X Y: the format of a trace whose context declares none (InkML §3.1.1).
    package static let defaultFormat = InkMLFormat(regular: [InkMLChannel(name: "X", offset: 0), InkMLChannel(name: "Y", offset: 0)],
                                                   isDefault: true)
    /// X Y T (milliseconds): how points of three values are read when no format is declared
    /// (MathWriting and other datasets write time so without declaring it).
    package static let undeclaredWithTime = InkMLFormat(regular: [InkMLChannel(name: "X", offset: 0), InkMLChannel(name: "Y", offset: 0),
                                                                 InkMLChannel(name: "T", units: "ms", offset: 0)])

    /// The regular channel named `name`; a name differing only in case when none is exact.
    package func index(of name: String) -> Int? {
        regular.firstIndex { $0.name == name } ?? regular.firstIndex { $0.name.uppercased() == name }
    }
}

package struct InkMLBrush: Sendable {
    package var color: Color?
    package var width: Double?
    package var widthUnits: String?
    package var transparency: Double?
    package var ignoresPressure = false
    package var erases = false
}

/// A 2×3 affine map (x' = a x + b y + c, y' = d x + e y + f).
package struct InkMLAffine: Sendable {
    package var a = 1.0, b = 0.0, c = 0.0, d = 0.0, e = 1.0, f = 0.0
    package func apply(_ x: Double, _ y: Double) -> (Double, Double) { (a * x + b * y + c, d * x + e * y + f) }
}

/// Everything a trace takes from its context.
package struct InkMLContext: Sendable {
    package var format = InkMLFormat.defaultFormat
    package var brush = InkMLBrush()
    package var transform: InkMLAffine?
}

enum InkMLUnits {
    /// Pixels (at 96 per inch) in one of `unit`; nil for units that are not lengths.
    static func pixels(per unit: String?) -> Double? {
        switch unit?.lowercased() {
        case "mm": return 96 / 25.4
        case "cm": return 96 / 2.54
        case "m": return 96 / 0.0254
        case "in": return 96
        case "pt": return 96.0 / 72
        case "pc": return 16
        case "px", "dev", "pixel", "pixels": return 1
        case "himetric": return 96 / 2540
        default: return nil
        }
    }

    /// Whether a coordinate channel says what length its numbers are (a unit or a resolution
    /// in a unit of length).
    static func statesLength(_ channel: InkMLChannel?) -> Bool {
        guard let channel else { return false }
        if let r = channel.resolution, r.value > 0, r.value.isFinite, let u = r.units, u.hasPrefix("1/"),
           pixels(per: String(u.dropFirst(2))) != nil { return true }
        return pixels(per: channel.units) != nil
    }

    /// Pixels in one step of a coordinate channel: its resolution's unit over the
    /// resolution (`100` per `1/mm`: a step is 0.01 mm), else its unit; 1 when unknown.
    static func pixelsPerStep(_ channel: InkMLChannel?) -> Double {
        guard let channel else { return 1 }
        if let r = channel.resolution, r.value > 0, r.value.isFinite, let u = r.units, u.hasPrefix("1/"),
           let px = pixels(per: String(u.dropFirst(2))) {
            return px / r.value
        }
        return pixels(per: channel.units) ?? 1
    }
}

extension Color {
    /// `#rgb`, `#rrggbb`, `#rrggbbaa` or a few CSS names that ink files use.
    static func inkML(_ text: String) -> Color? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if let c = Color(hex: t) { return c }
        if t.hasPrefix("#"), t.count == 4 {
            let d = Array(t.dropFirst())
            return Color(hex: "#" + d.map { "\($0)\($0)" }.joined())
        }
        switch t.lowercased() {
        case "black": return .black
        case "white": return Color(hex: "#ffffff")
        case "red": return Color(hex: "#ff0000")
        case "green": return Color(hex: "#008000")
        case "blue": return Color(hex: "#0000ff")
        case "yellow": return Color(hex: "#ffff00")
        case "gray", "grey": return Color(hex: "#808080")
        default: return nil
        }
    }
}
