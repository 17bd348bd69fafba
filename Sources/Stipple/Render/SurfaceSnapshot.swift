/// A backing layer's pixels as the render thread hands them over for a save: premultiplied
/// and in GL's row order, straight from the read-back, so turning the rows and
/// un-premultiplying (two passes over every pixel) run on the saving thread, not the
/// render thread.
struct SurfaceSnapshot: Sendable {
    var width: Int
    var height: Int
    var premultiplied: [UInt8]
    /// True when the rows are bottom to top, as `glReadPixels` gives them.
    var bottomUp = false

    var image: Image {
        guard bottomUp else { return Image(width: width, height: height, premultiplied: premultiplied) }
        var rows = [UInt8](repeating: 0, count: premultiplied.count)
        Framebuffer.flipRows(premultiplied, into: &rows, width: width, height: height)
        return Image(width: width, height: height, premultiplied: rows)
    }
}

extension Renderer {
    /// One read-back of a surface, premultiplied and bottom-up: all the render thread does
    /// for a save (`image(of:)` turns and un-premultiplies on this thread).
    func snapshot(of id: SurfaceID) throws -> SurfaceSnapshot {
        let target = try surface(id)
        return SurfaceSnapshot(width: target.width, height: target.height,
                               premultiplied: try device.readBottomUp(target), bottomUp: true)
    }
}

extension LiveCanvas {
    /// The backing layer's pixels: one read-back of its surface, or, while nothing is baked,
    /// the canvas background as a frame starts from it (no GL at all).
    func backingSnapshot() async throws -> SurfaceSnapshot {
        if let s = session.backing.surface { return try await renderer.snapshot(of: s) }
        let (w, h) = (canvas.width, canvas.height)
        switch canvas.background {
        case let .color(c):
            let (r, g, b, a) = c.premultipliedRGBA8
            var px = [UInt8](repeating: 0, count: w * h * 4)
            for i in stride(from: 0, to: px.count, by: 4) { px[i] = r; px[i + 1] = g; px[i + 2] = b; px[i + 3] = a }
            return SurfaceSnapshot(width: w, height: h, premultiplied: px)
        case let .image(image):
            return SurfaceSnapshot(width: w, height: h, premultiplied: image.premultiplied())
        case let .surface(id):
            return try await renderer.snapshot(of: id)
        }
    }

    /// Draws the current frame without reading it back, as a display would show it (baking
    /// a slice first), and waits for GL to finish: the benchmark times session frames so.
    package func drawFrame() async throws {
        try await bakeSlice()
        try await renderer.drawLayers(drawOrder, canvas: frameCanvas, frame: frame, settings: settings, upload: upload)
        await renderer.finish()
    }
}
