/// How far a change to a scene's entries reaches on the canvas, for a viewer that keeps
/// drawn pixels and must know which to draw again (`stipple serve`'s tiles).
extension Scene {
    /// Everything stroke layer `entry` (an entry with a mode) may change at render frame
    /// `frame`: its stamps' squares and its passes' writes, a shadow's cast included. Nil for
    /// an entry without a mode (its stamps' squares say it) or with no live stamp.
    package func layerRegion(ofEntry entry: Int, atFrame frame: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        guard batches.indices.contains(entry), let mode = batches[entry].mode else { return nil }
        let clock = Float(state(atFrame: frame).clockFrame)
        let pass = batches[entry].stamps.withUnsafeBufferPointer {
            StrokeLayerPass(mode: mode, stamps: $0, ageOffset: clock, effects: effects,
                            width: canvas.width, height: canvas.height, reference: .color(0, 0, 0, 0))
        }
        guard let region = pass?.region, !region.isEmpty else { return nil }
        return (region.x0, region.y0, region.x1, region.y1)
    }

    /// How far past the pixels a change touches the change can spread at render frame
    /// `frame`, through stroke layers that read the canvas around the pixels they change
    /// (soften, sharpen, a shadow's blur: each reads near what it changes, and chained layers
    /// add up), counting every entry whether shown or not: 0 when no layer reads so.
    package func changeSpread(atFrame frame: Int) -> Int {
        PassReaches(batches, settings: RenderSettings(effects: effects), ageOffset: Float(state(atFrame: frame).clockFrame),
                    canvas: canvas).widestCone
    }
}
