/// Previews (docs/views.md): a view drawn directly at its scale, so that its cost follows
/// the stamps in the rectangle rather than its pixels. An approximation of the exact view,
/// whose error docs/views.md gives.
extension Scene {
    /// The smallest radius a preview draws a stamp at: a point one pixel wide.
    public static let previewMinimumRadius: Float = 0.5

    /// This scene as a preview of `view` draws it: a canvas of the view's image size; every
    /// stamp moved to the view's corner and scaled with it (position, radius, drift, shadows'
    /// offsets and blur). A stamp that would be narrower than a pixel is drawn as the pixel
    /// its centre falls in (a one-pixel point at that pixel's centre, which shows the brush's
    /// centre), its alpha scaled so that it keeps its coverage: its area times its alpha times
    /// its brush's mean. It neither vanishes nor becomes a full-alpha pixel. An image background is reduced by an
    /// area-weighted box.
    public func preview(of view: View) throws -> Scene {
        guard view.canvasWidth == canvas.width, view.canvasHeight == canvas.height else {
            throw RenderError("the view is of a \(view.canvasWidth)×\(view.canvasHeight) canvas, the script's is "
                              + "\(canvas.width)×\(canvas.height)")
        }
        let sx = Float(view.outputWidth) / Float(view.width), sy = Float(view.outputHeight) / Float(view.height)
        let s = (sx * sy).squareRoot()
        let (ox, oy) = (Float(view.x), Float(view.y))
        var scene = self
        var background = canvas.background
        if case let .image(image) = canvas.background {
            let xs = BoxWeights(start: Double(view.x), end: Double(view.x + view.width), outputs: view.outputWidth,
                                extent: image.width)
            let ys = BoxWeights(start: Double(view.y), end: Double(view.y + view.height), outputs: view.outputHeight,
                                extent: image.height)
            background = .image(Image(width: view.outputWidth, height: view.outputHeight,
                                      premultiplied: BoxWeights.resample(image.premultiplied(), width: image.width,
                                                                         height: image.height, xs: xs, ys: ys)))
        }
        scene.canvas = Canvas(width: view.outputWidth, height: view.outputHeight, background: background)
        var effects = self.effects
        effects.dissolveDistance *= s
        scene.effects = effects
        // Each brush's mean coverage over its centre's (the texels a one-pixel point samples),
        // found once a brush (entries share their brush's key).
        var shapes: [String: Float] = [:]
        func shape(of brush: Brush, key: String) -> Float {
            if let known = shapes[key] { return known }
            let cov = brush.coverage
            let mean = Float(cov.reduce(0) { $0 + Int($1) }) / Float(cov.count)
            let cx = [(brush.width - 1) / 2, brush.width / 2], cy = [(brush.height - 1) / 2, brush.height / 2]
            let centre = Float(cx.reduce(0) { a, x in a + cy.reduce(0) { $0 + Int(cov[$1 * brush.width + x]) } }) / 4
            let shape = centre > 0 ? mean / centre : 0
            shapes[key] = shape
            return shape
        }
        scene.batches = batches.map { batch in
            var b = batch
            b.edgeReference = nil  // read again at the preview's scale
            if var shadow = b.mode?.shadow {
                shadow.dx = Int((Float(shadow.dx) * s).rounded())
                shadow.dy = Int((Float(shadow.dy) * s).rounded())
                shadow.blur = max(0, shadow.blur * s)
                b.mode?.shadow = shadow
            }
            guard !batch.stamps.isEmpty else { return b }
            let shape = shape(of: batch.brush, key: batch.brushKey)
            b.stamps = batch.stamps.map { p in
                var q = p
                q.x = (p.x - ox) * sx
                q.y = (p.y - oy) * sy
                let r = p.radius * s
                if r < Scene.previewMinimumRadius && r >= 0 {
                    let kept = r / Scene.previewMinimumRadius
                    q.radius = Scene.previewMinimumRadius
                    q.x = q.x.rounded(.down) + 0.5
                    q.y = q.y.rounded(.down) + 0.5
                    q.alpha = min(p.alpha, p.alpha * kept * kept * shape)
                } else {
                    q.radius = r
                }
                return q
            }
            return b
        }
        return scene
    }
}

extension Renderer {
    /// A preview of `view` at frame `frame` (`Scene.preview(of:)`): the view's size, drawn
    /// in the time its stamps take rather than its rectangle's pixels.
    public nonisolated func renderPreview(_ scene: Scene, frame: Int, view: View, primitive: Primitive = .points) async throws -> Image {
        try await render(try scene.preview(of: view), frame: frame, primitive: primitive)
    }
}
