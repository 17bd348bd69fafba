import CStipple

/// Stroke layers drawn for the CPU to compose (`PixelLayerCache`): the layers that changed
/// since the last frame are drawn one above another in one target, the sheet, each in its
/// own rows with the stamps' origin moved there (the sketch shader's mapping, so every stamp
/// lands on the pixels it lands on in a whole canvas), then read back. The driver waits for
/// the drawing once a sheet, not once a layer.
extension GLDevice {
    /// `sheet`, or a new target in its place when it cannot hold a canvas part of `width` ×
    /// `height` with `band` around it, made transparent whole and bound.
    func beginSheet(_ sheet: Framebuffer?, width: Int, height: Int, band: Int) throws -> Framebuffer {
        guard gl.checkContextStillCurrent() else { throw RenderError("the render thread's GL context is not current") }
        let target: Framebuffer
        if let sheet, sheet.width >= width, sheet.height >= height, sheet.guardBand == band {
            target = sheet
        } else {
            sheet?.delete(gl)
            // Grown in steps, so a sheet a little taller next frame is the same target.
            target = try makeTarget(width: (width + 63) / 64 * 64, height: (height + 255) / 256 * 256, guardBand: band)
        }
        target.originX = 0
        target.originY = 0
        // Whole, the driver's fast path: the sheet is small.
        target.fill(gl, red: 0, green: 0, blue: 0, alpha: 0)
        try gl.checkError("starting a sheet of stroke layers")
        return target
    }

    /// Moves `sheet`'s origin so that canvas box `box` lands at the left of its canvas part
    /// from row `row` down, binds it and limits drawing to those rows (the scissor, left on:
    /// `endSheetDraw` turns it off). Then, when given, puts `pixels` (premultiplied RGBA, the
    /// box's bottom row first) back at canvas box `old`, inside `box`: what was drawn of the
    /// layer before, for the new stamps to be drawn over.
    func placeOnSheet(_ sheet: Framebuffer, box: PixelBox, row: Int, old: (box: PixelBox, pixels: [UInt8])?) {
        sheet.originX = box.x0
        sheet.originY = box.y0 - row
        sheet.bind(gl)
        let b = sheet.guardBand
        gl.enable(GLenum(GL_SCISSOR_TEST))
        gl.scissor(x: b, y: sheet.targetHeight - (b + row + box.height), width: box.width, height: box.height)
        guard let (o, pixels) = old, !o.isEmpty else { return }
        precondition(pixels.count == o.width * o.height * 4, "a box's pixels")
        gl.bindTexture(sheet.texture)
        gl.pixelStore(GLenum(GL_UNPACK_ALIGNMENT), 4)
        pixels.withUnsafeBytes { raw in
            gl.texSubImage2D(x: o.x0 - sheet.originX + b, y: sheet.targetHeight - (o.y1 - sheet.originY + b),
                             width: o.width, height: o.height, format: GLenum(GL_RGBA), pixels: raw.baseAddress!,
                             bytes: raw.count)
        }
    }

    /// Ends the limit `placeOnSheet` set.
    func endSheetDraw() { gl.disable(GLenum(GL_SCISSOR_TEST)) }

    /// Canvas box `box`, placed from row `row` of `sheet`: premultiplied RGBA, the box's
    /// bottom row first.
    func readSheet(_ sheet: Framebuffer, box: PixelBox, row: Int) throws -> [UInt8] {
        let (w, h) = (box.width, box.height)
        guard w > 0, h > 0 else { return [] }
        sheet.bind(gl)
        gl.pixelStore(GLenum(GL_PACK_ALIGNMENT), 4)
        let b = sheet.guardBand
        let pixels = [UInt8](unsafeUninitializedCapacity: w * h * 4) { buffer, count in
            gl.readPixels(x: b, y: sheet.targetHeight - (b + row + h), width: w, height: h, into: buffer.baseAddress!)
            count = w * h * 4
        }
        try gl.checkError("reading back a \(w)×\(h) stroke layer")
        return pixels
    }
}
