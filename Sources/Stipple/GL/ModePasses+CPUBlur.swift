import CStipple

/// Blurs worked out on the CPU (`BlurFields`), where the driver is a software rasterizer
/// (`ModePasses.blursOnCPU`): the pixels a blur reads are read back and blurred there. A
/// soften or sharpen stroke is then finished there too and written into the canvas; a drop
/// shadow's blurred weight is uploaded whole, so the final pass reads it with one tap where
/// the GPU's own passes take 2R + 1 in each direction.
extension ModePasses {
    /// Whether `renderer` (GL_RENDERER) names a rasterizer that runs on the CPU: Mesa's
    /// llvmpipe, softpipe and swrast.
    static func isSoftware(renderer: String) -> Bool {
        let name = renderer.lowercased()
        return ["llvmpipe", "softpipe", "swrast"].contains { name.contains($0) }
    }

    /// The canvas pixels `target` holds, its band included.
    func extent(_ target: Framebuffer) -> PixelBox {
        let x0 = target.originX - target.guardBand, y0 = target.originY - target.guardBand
        return PixelBox(x0: x0, y0: y0, x1: x0 + target.targetWidth, y1: y0 + target.targetHeight)
    }

    /// Reads `boxes` (canvas pixels) of `target` back, each cut to what a target like
    /// `canvas` holds; leaves `target` bound.
    func readBack(_ target: Framebuffer, like canvas: Framebuffer, _ boxes: [PixelBox]) -> ReadBoxes {
        target.bind(gl)
        gl.pixelStore(GLenum(GL_PACK_ALIGNMENT), 4)
        var read = ReadBoxes()
        let held = extent(canvas)
        for box in boxes {
            let b = box.intersection(held)
            guard !b.isEmpty else { continue }
            let w = window(target, b)
            var bytes = [UInt8](repeating: 0, count: b.width * b.height * 4)
            bytes.withUnsafeMutableBytes { gl.readPixels(x: w.x, y: w.y, width: w.width, height: w.height, into: $0.baseAddress!) }
            read.parts.append((b, bytes))
        }
        return read
    }

    /// Works out `field` over each of `boxes` (canvas pixels, cut to what `target` holds),
    /// the boxes on every core, and uploads each there into `target`'s texture. Returns the
    /// boxes as uploaded.
    @discardableResult
    func upload(_ target: Framebuffer, _ boxes: [PixelBox],
                _ field: @escaping @Sendable (PixelBox, BlurScratch, UnsafeMutablePointer<UInt8>) -> Void) -> [PixelBox] {
        let held = extent(target)
        let cut = boxes.map { $0.intersection(held) }.filter { !$0.isEmpty }
        let offsets = BlurFields.each(cut, scratch: blurScratch, into: &blurBytes, field)
        gl.pixelStore(GLenum(GL_UNPACK_ALIGNMENT), 4)
        gl.bindTexture(target.texture)
        blurBytes.withUnsafeBytes { bytes in
            for (b, offset) in zip(cut, offsets) {
                let w = window(target, b)
                gl.texSubImage2D(x: w.x, y: w.y, width: w.width, height: w.height, format: GLenum(GL_RGBA),
                                 pixels: bytes.baseAddress! + offset, bytes: b.width * b.height * 4)
            }
        }
        return cut
    }

    /// Each pass's boxes as one, their bounds: fewer, larger boxes, so the taps along y
    /// read fewer rows twice. A box's pixels are a group's field wherever they lie.
    private static func bounds(_ group: [StrokeLayerPass], _ boxes: (StrokeLayerPass) -> [PixelBox]) -> [PixelBox] {
        group.map { boxes($0).reduce(PixelBox.empty) { $0.union($1) } }.filter { !$0.isEmpty }
    }

    /// A group of soften or sharpen strokes drawn whole on the CPU (`BlurFields.blurEffect`):
    /// the canvas read back over what the blur's taps reach, L from `layer` (placed like
    /// `canvas`) over the stamps, and the result written into `canvas`'s texture over the
    /// boxes the final pass would draw (each pass's `cover`, as their bounds: where L is
    /// zero a pixel is written as read).
    func blurEffectOnCPU(_ group: [StrokeLayerPass], layer: Framebuffer, canvas: Framebuffer) {
        guard let first = group.first else { return }
        let r = StrokeMode.blurRadius
        let (width, height) = (first.canvasWidth, first.canvasHeight)
        let boxes = ModePasses.bounds(group) { pass in pass.cover.map { pass.needed($0) } }
        var effect = BlurFields.BlurEffect(layer: readBack(layer, like: canvas, ModePasses.fewestPixels(boxes)),
                                           opacity: first.mode.strokeOpacity, sharpen: first.mode.effect == .sharpen)
        if let ref = first.reference, ref.count == 4, let t = first.mode.edgeTolerance {
            (effect.reference, effect.tolerance) = (SIMD4(ref[0], ref[1], ref[2], ref[3]), Float(t))
        }
        let read = readBack(canvas, like: canvas, ModePasses.fewestPixels(boxes.map {
            $0.grown(x: r, y: r).clipped(width: width, height: height)
        }))
        let weights = ModeShaderConstants.tapWeights(sigma: StrokeMode.blurSigma, radius: r)
        let chosen = effect
        upload(canvas, boxes) { box, scratch, out in
            BlurFields.blurEffect(read, chosen, width: width, height: height, box: box, weights: weights, scratch: scratch,
                                  into: out)
        }
    }

    /// A drop shadow's blurred weight where the final pass reads it (each pass's `cover`
    /// moved back by the offset), into `target`: L read back from `layer` (placed like
    /// `canvas`) over the group's stamps. Returns the boxes written (window pixels of `target`).
    func shadowOnCPU(_ group: [StrokeLayerPass], layer: Framebuffer, like canvas: Framebuffer, into target: Framebuffer,
                     shadow s: StrokeMode.Shadow) -> [PixelBox] {
        guard let first = group.first else { return [] }
        let (width, height, k) = (first.canvasWidth, first.canvasHeight, first.mode.strokeOpacity)
        let read = readBack(layer, like: canvas, ModePasses.fewestPixels(group.map(\.stamps)))
        let weights = ModeShaderConstants.tapWeights(sigma: s.blur, radius: s.radius)
        let boxes = ModePasses.bounds(group) { pass in pass.cover.map { pass.needed($0).shifted(-s.dx, -s.dy) } }
        return upload(target, boxes) { box, scratch, out in
            BlurFields.shadow(read, opacity: k, width: width, height: height, box: box, weights: weights, scratch: scratch,
                              into: out)
        }.map { rect(target, $0) }
    }
}
