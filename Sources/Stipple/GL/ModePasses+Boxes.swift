import CStipple

/// Where a pass's boxes lie on a target, and drawing them: a pass computes only its boxes,
/// two triangles a box, several layers' boxes in one draw.
extension ModePasses {
    /// `box` (canvas pixels, rows top to bottom) as `target`'s window pixels (GL: y up),
    /// clipped to the target: a tile's target holds only its part of the canvas.
    func window(_ target: Framebuffer, _ box: PixelBox) -> (x: Int, y: Int, width: Int, height: Int) {
        let b = target.guardBand
        let x0 = max(0, box.x0 - target.originX + b), x1 = min(target.targetWidth, box.x1 - target.originX + b)
        let top = max(0, box.y0 - target.originY + b), bottom = min(target.targetHeight, box.y1 - target.originY + b)
        guard x0 < x1, top < bottom else { return (0, 0, 0, 0) }
        return (x0, target.targetHeight - bottom, x1 - x0, bottom - top)
    }

    /// `window(target, box)` as a box of window pixels (x0, y0 its lower left corner).
    func rect(_ target: Framebuffer, _ box: PixelBox) -> PixelBox {
        let w = window(target, box)
        return PixelBox(x0: w.x, y0: w.y, x1: w.x + w.width, y1: w.y + w.height)
    }

    /// Draws the program in use over `boxes` (canvas pixels, rows top to bottom) of
    /// `target`, clipped to it, in one draw: two triangles a box, their corners on pixel
    /// edges, so a box's pixels are drawn whole and nothing else is. Boxes may overlap: a
    /// pass writes a pixel the same wherever it is drawn from.
    func drawBoxes(_ target: Framebuffer, _ boxes: [PixelBox]) {
        drawRects(target, boxes.map { rect(target, $0) })
    }

    /// Draws the program in use over `rects`, boxes of `target`'s window pixels (within it),
    /// in one draw.
    func drawRects(_ target: Framebuffer, _ rects: [PixelBox]) {
        corners.removeAll(keepingCapacity: true)
        let (w, h) = (Float(target.viewWidth), Float(target.viewHeight))  // the viewport: a power of two
        for b in rects where !b.isEmpty {
            let x0 = Float(b.x0) / w * 2 - 1, x1 = Float(b.x1) / w * 2 - 1
            let y0 = Float(b.y0) / h * 2 - 1, y1 = Float(b.y1) / h * 2 - 1
            corners += [x0, y0, x1, y0, x0, y1, x0, y1, x1, y0, x1, y1]
        }
        guard !corners.isEmpty else { return }
        corners.withUnsafeBufferPointer { quad.upload(gl, $0, write: .orphan) }
        gl.attributePointer(ShaderProgram.Attribute.position.rawValue, size: 2, stride: 8, offset: 0)
        for a in ShaderProgram.Attribute.allCases where a != .position { gl.constantAttribute(a.rawValue) }
        gl.drawTriangles(first: 0, count: corners.count / 2)
    }

    /// What a copy costs on its own, in pixels copied.
    static let perCall = 16_384

    /// `boxes` each alone, or their bounds at once where that costs less, counting each
    /// call's own cost as `perCall` pixels.
    static func fewestPixels(_ boxes: [PixelBox]) -> [PixelBox] {
        let bounds = boxes.reduce(PixelBox.empty) { $0.union($1) }
        let apart = boxes.reduce(0) { $0 + $1.width * $1.height + perCall }
        return bounds.width * bounds.height + perCall <= apart ? [bounds] : boxes
    }
}
