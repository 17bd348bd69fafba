import Foundation

/// A rectangle of a canvas looked at a scale (docs/views.md): what `stipple render
/// --region X,Y,W,H --scale F` writes. Its exact pixels come from the canvas's pyramid:
/// level k is the k-fold 2×2 mean of the canvas in premultiplied colour, rounded at every
/// step; a view at scale F takes level k = ⌊log₂(1/F)⌋ and reduces it by the rest,
/// F·2^k ∈ (½, 1], with an area-weighted box. A view at scale 1 is the crop of the full
/// render, byte for byte, and a pyramid's tile is the view of its rectangle.
public struct View: Sendable, Equatable, CustomStringConvertible {
    /// The rectangle, in canvas pixels.
    public let x: Int, y: Int, width: Int, height: Int
    /// Output pixels per canvas pixel, 0 < scale ≤ 1.
    public let scale: Double
    /// The canvas it is a view of.
    public let canvasWidth: Int, canvasHeight: Int
    /// The pyramid level reduced from: the canvas is level 0.
    public let level: Int
    /// The image the view makes.
    public let outputWidth: Int, outputHeight: Int

    /// A view of (`x`, `y`, `width`, `height`) at `scale` on a `canvasWidth` × `canvasHeight`
    /// canvas. Throws, naming what is wrong, when the rectangle is empty or leaves the
    /// canvas, or the scale is not in (0, 1].
    public init(x: Int, y: Int, width: Int, height: Int, scale: Double = 1,
                canvasWidth: Int, canvasHeight: Int) throws(InputError) {
        guard width >= 1, height >= 1 else {
            throw InputError(file: "the view", "a region is at least 1×1 pixels (got \(width)×\(height))")
        }
        guard x >= 0, y >= 0, x <= canvasWidth - width, y <= canvasHeight - height else {
            throw InputError(file: "the view", "the region \(x),\(y),\(width),\(height) leaves the \(canvasWidth)×\(canvasHeight) canvas: "
                             + "X,Y,W,H with 0 ≤ X, X + W ≤ \(canvasWidth), 0 ≤ Y, Y + H ≤ \(canvasHeight)")
        }
        guard scale > 0, scale <= 1, scale.isFinite else {
            throw InputError(file: "the view", "a scale is above 0 and at most 1 (got \(scale)); a view is never larger than its region")
        }
        self.x = x; self.y = y; self.width = width; self.height = height
        self.scale = scale
        self.canvasWidth = canvasWidth; self.canvasHeight = canvasHeight
        // The largest k with 2^k ≤ 1/scale, within the pyramid (its top level is 1×1).
        var k = 0
        while k < 62, scale * Double(1 << (k + 1)) <= 1 { k += 1 }
        level = min(k, View.topLevel(canvasWidth, canvasHeight))
        let levelSpan = View.levelSpan(x, width, canvasWidth, level)
        let levelSpanY = View.levelSpan(y, height, canvasHeight, level)
        let rest = scale * Double(1 << level)
        outputWidth = max(1, Int(((levelSpan.upperBound - levelSpan.lowerBound) * rest).rounded()))
        outputHeight = max(1, Int(((levelSpanY.upperBound - levelSpanY.lowerBound) * rest).rounded()))
    }

    /// The whole canvas at `scale`.
    public init(canvasWidth: Int, canvasHeight: Int, scale: Double = 1) throws(InputError) {
        try self.init(x: 0, y: 0, width: canvasWidth, height: canvasHeight, scale: scale,
                      canvasWidth: canvasWidth, canvasHeight: canvasHeight)
    }

    /// The rectangle at the largest scale (at most 1) whose image fits in `maxWidth` × `maxHeight`.
    public init(x: Int, y: Int, width: Int, height: Int, fitting maxWidth: Int, _ maxHeight: Int,
                canvasWidth: Int, canvasHeight: Int) throws(InputError) {
        guard maxWidth >= 1, maxHeight >= 1 else { throw InputError(file: "the view", "a size is at least 1×1 (got \(maxWidth)×\(maxHeight))") }
        var scale = min(1, Double(maxWidth) / Double(max(width, 1)), Double(maxHeight) / Double(max(height, 1)))
        try self.init(x: x, y: y, width: width, height: height, scale: scale, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
        // Rounding (or a level's edge pixel) may make the image a pixel larger than asked:
        // shrink the scale by a ten-thousandth at a time until it fits.
        while outputWidth > maxWidth || outputHeight > maxHeight {
            scale *= 1 - 1e-4
            try self.init(x: x, y: y, width: width, height: height, scale: scale, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
        }
    }

    public var description: String {
        "\(x),\(y),\(width),\(height) at scale \(scale) (\(outputWidth)×\(outputHeight))"
    }

    /// The level of a pyramid whose size is 1×1: ⌈log₂(max(width, height))⌉.
    public static func topLevel(_ width: Int, _ height: Int) -> Int {
        var k = 0
        while (1 << k) < max(width, height) { k += 1 }
        return k
    }

    /// The size of level `k` of a `width` × `height` canvas: each step halves it, rounding up.
    public static func levelSize(_ width: Int, _ height: Int, level k: Int) -> (width: Int, height: Int) {
        ((width + (1 << k) - 1) >> k, (height + (1 << k) - 1) >> k)
    }

    /// The span [start, start + length) of the canvas in level-k pixels (fractional where
    /// the span does not start on a multiple of 2^k; a span that ends at the canvas's edge
    /// ends at the level's edge).
    static func levelSpan(_ start: Int, _ length: Int, _ extent: Int, _ k: Int) -> Range<Double> {
        let unit = Double(1 << k)
        let end = start + length == extent ? Double((extent + (1 << k) - 1) >> k) : Double(start + length) / unit
        return Double(start) / unit..<end
    }

    /// The canvas pixels drawn for the view: its rectangle widened to whole level-k blocks.
    var canvasArea: PixelBox {
        let unit = 1 << level
        return PixelBox(x0: x / unit * unit, y0: y / unit * unit,
                        x1: min(canvasWidth, (x + width + unit - 1) / unit * unit),
                        y1: min(canvasHeight, (y + height + unit - 1) / unit * unit))
    }

    /// True when the view is whole pixels of its level, one for one: no box filter is needed.
    var isLevelCrop: Bool {
        let unit = 1 << level
        return scale * Double(unit) == 1 && x % unit == 0 && y % unit == 0
            && ((x + width) % unit == 0 || x + width == canvasWidth)
            && ((y + height) % unit == 0 || y + height == canvasHeight)
    }
}
