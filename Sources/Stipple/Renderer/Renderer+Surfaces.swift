/// Names a surface of a `Renderer`: an image kept on the GPU.
public struct SurfaceID: Hashable, Sendable, CustomStringConvertible {
    let value: Int
    /// "surface N".
    public var description: String { "surface \(value)" }
}

/// Surfaces: canvas-sized images kept on the GPU (premultiplied, with the frame's guard
/// band), that layers are baked onto and that a frame can start from
/// (`CanvasBackground.surface`). A drawing session's backing layer is one: strokes older
/// than the undo depth are baked onto it, and each frame starts as an exact copy of it, so
/// baking never changes a pixel (the same blends, in the same order, on the same bytes).
extension Renderer {
    /// A new surface of `canvas`'s size, starting as its background (a colour or an image).
    public func makeSurface(_ canvas: Canvas) throws -> SurfaceID {
        if case .surface = canvas.background { throw RenderError("a surface cannot start as another surface") }
        let fill = try fill(for: canvas)
        let target = try device.makeTarget(width: canvas.width, height: canvas.height, guardBand: guardBand(for: canvas))
        try device.fill(target, with: fill)
        nextSurface += 1
        let id = SurfaceID(value: nextSurface)
        surfaces[id] = target
        return id
    }

    /// Composites `layers` as they are at `frame` onto the surface, in order: exactly the
    /// blending a frame would do over it.
    public func draw(_ ids: [LayerID], frame: Int, settings: RenderSettings, onto id: SurfaceID) throws {
        let target = try surface(id)
        forgetModeSnapshots()  // they may start from this surface
        let chosen = try resolve(ids, frame: frame, effects: settings.effects)
        device.bind(target)
        try drawResident(chosen, canvas: Canvas(width: target.width, height: target.height), frame: frame,
                         settings: settings, into: target)
    }

    /// The surface's pixels, straight alpha, rows top to bottom (one read-back).
    public func image(of id: SurfaceID) throws -> Image {
        let target = try surface(id)
        return Image(width: target.width, height: target.height, premultiplied: try device.read(target))
    }

    /// Frees a surface's GPU memory.
    public func removeSurface(_ id: SurfaceID) {
        if let t = surfaces.removeValue(forKey: id) { device.deleteTarget(t) }
    }

    /// The surfaces this renderer holds.
    package var surfaceCount: Int { surfaces.count }

    /// Frees layers and surfaces in one trip to the render thread (what a canvas held).
    func release(layers: [LayerID], surfaces: [SurfaceID]) {
        removeLayers(layers)
        for id in surfaces { removeSurface(id) }
    }

    func surface(_ id: SurfaceID) throws -> Framebuffer {
        guard let s = surfaces[id] else { throw RenderError("\(id) does not exist") }
        return s
    }
}
