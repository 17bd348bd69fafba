/// The backing layer's GL surface (the renderer's `makeSurface`, `draw(_:frame:settings:onto:)`):
/// made on the first bake, starting as the canvas's background; a frame then starts as an
/// exact copy of it.
extension LiveCanvas {
    static var canBake: Bool { true }

    /// Composites a stroke's layer onto the current backing surface (made if need be).
    func bakeLayer(_ layer: LayerID) async throws {
        let surface: SurfaceID
        if let s = session.backing.surface {
            surface = s
        } else {
            let generation = session.generation
            surface = try await renderer.makeSurface(canvas)
            // Closed meanwhile: the new session has no use for it.
            guard session.generation == generation else { return await renderer.removeSurface(surface) }
            session.backing.surface = surface
        }
        try await renderer.draw([layer], frame: frame, settings: settings, onto: surface)
    }

    func removeSurface(_ id: SurfaceID) async { await renderer.removeSurface(id) }

    func surfaceBackground(_ id: SurfaceID) -> CanvasBackground { .surface(id) }
}
