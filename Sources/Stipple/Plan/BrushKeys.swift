/// Brushes without invented names: where an API wants a brush key, these take the brush
/// alone and key it by its content (`Brush.contentKey`), so equal brushes share a texture.
extension StampBatch {
    /// Stamps drawn in order with `brush`.
    public init(brush: Brush, stamps: [SketchPoint], rotations: [Float]? = nil) {
        self.init(brushKey: brush.contentKey, brush: brush, stamps: stamps, rotations: rotations)
    }
}

extension Renderer {
    /// A new, empty layer of stamps drawn with `brush`.
    public func makeLayer(brush: Brush) -> LayerID {
        makeLayer(brushKey: brush.contentKey, brush: brush)
    }
}
