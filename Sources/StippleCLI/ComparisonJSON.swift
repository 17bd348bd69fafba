import StippleGolden

/// `stipple compare --json`: a comparison's figures as one JSON object. `differentPixels`
/// is pixelmatch's count (pixels beyond the tolerance, anti-aliased ones forgiven with
/// `--antialiasing` and counted apart in `antialiasedPixels`).
enum ComparisonJSON {
    static func object(_ c: ImageComparison) throws -> String {
        let t = c.tolerance
        var tolerance: [String: Any] = ["maxPixelsAllowed": c.allowedPixels, "summary": t.summary,
                                        "antialiasingForgiven": t.ignoreAntialiasing]
        if let p = t.perceptualThreshold {
            tolerance["perceptual"] = p
            tolerance["metric"] = t.effectiveMetric.rawValue
            if t.effectiveMetric == .oklab { tolerance["checkerboard"] = t.checkerboard ?? true }
        } else {
            tolerance["maxChannelDifference"] = t.maxChannelDifference
        }
        if let n = t.windowSize { tolerance["window"] = n }
        var o: [String: Any] = [
            "passes": c.passes,
            "sizesMatch": c.sizesMatch,
            "expected": ["width": c.expectedSize.width, "height": c.expectedSize.height],
            "actual": ["width": c.actualSize.width, "height": c.actualSize.height],
            "differentPixels": c.pixelsOverTolerance,
            "antialiasedPixels": c.pixelsAntialiased,
            "ignoredPixels": c.pixelsIgnored,
            "changedPixels": c.pixelsDiffering,
            "totalPixels": c.totalPixels,
            "maxChannelDifference": c.maxChannelDifference,
            "tolerance": tolerance,
        ]
        if let w = c.pixelsInWorstWindow { o["windowPixels"] = w }
        if let p = c.worstPixel { o["worstPixel"] = ["x": p.x, "y": p.y] }
        return try jsonText(o)
    }
}
