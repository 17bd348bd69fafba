/// The backing layer's GL surface (the renderer's `makeSurface`, `draw(_:frame:settings:onto:)`).
extension LiveCanvas {
    /// TEMPORARY until "Surfaces:" lands: nothing is baked, strokes stay as layers under the shown ones.
    func bakeLayer(_ layer: LayerID) async throws {
        throw SessionError("no surfaces yet")
    }
    static var canBake: Bool { false }
    /// The backing layer as an image: one read-back.
    func backingImage() async throws -> Image {
        try await renderer.renderLayers([], canvas: frameCanvas, frame: frame, settings: settings)
    }
    func removeSurface(_ id: SurfaceID) async {}
    func surfaceBackground(_ id: SurfaceID) -> CanvasBackground { canvas.background }
}
