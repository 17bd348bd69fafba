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
        return Image(width: width, height: height, premultiplied: Framebuffer.flippedRows(premultiplied, width: width, height: height))
    }
}

extension Renderer {
    /// Rows of a surface (row 0 at the bottom, GL's order), premultiplied: one band of a
    /// save's read-back.
    func surfaceRows(_ id: SurfaceID, _ rows: Range<Int>) throws -> [UInt8] {
        try device.readRows(try surface(id), rows)
    }
}

extension SurfaceSnapshot {
    /// How much of a surface one render-thread job reads back: 4 MiB (256 rows of a 4096-wide
    /// drawing, a few milliseconds), so a frame never waits on more than one band.
    static let bandBytes = 4 << 20
}

extension LiveCanvas {
    /// The backing layer's pixels: one read-back of its surface, or, while nothing is baked,
    /// the canvas background as a frame starts from it (no GL at all).
    func backingSnapshot() async throws -> SurfaceSnapshot {
        if let s = session.backing.surface { return try await bandedSnapshot(of: s) }
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
            return try await bandedSnapshot(of: id)
        }
    }

    /// Draws the current frame without reading it back, as a display would show it (baking
    /// a slice first), and waits for GL to finish: the benchmark times session frames so.
    package func drawFrame() async throws {
        try await bakeSlice()
        try await renderer.drawLayers(drawOrder, canvas: frameCanvas, frame: frame, settings: settings, upload: upload)
        await renderer.finish()
    }

    /// A surface read back in bands, each its own job on the render thread, so frames are
    /// drawn between them instead of waiting for the whole read-back (64 MiB at 4096×4096).
    /// The surface must not change meanwhile: a save holds baking while it takes this.
    func bandedSnapshot(of id: SurfaceID) async throws -> SurfaceSnapshot {
        let (w, h) = (canvas.width, canvas.height)
        let band = max(1, SurfaceSnapshot.bandBytes / (w * 4))
        var pixels: [UInt8] = []
        pixels.reserveCapacity(w * h * 4)
        for y in stride(from: 0, to: h, by: band) {
            pixels += try await renderer.surfaceRows(id, y..<min(h, y + band))
        }
        return SurfaceSnapshot(width: w, height: h, premultiplied: pixels, bottomUp: true)
    }
}
