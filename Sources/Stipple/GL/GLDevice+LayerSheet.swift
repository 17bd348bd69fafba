import CStipple

/// Stroke layers drawn for the CPU to compose (`PixelLayerCache`): the layers that changed
/// since the last frame (a growing one only where its new stamps reach, over what it held
/// there) are drawn one above another in one target, the sheet, each in its own rows with
/// the stamps' origin moved there (the sketch shader's mapping, so every stamp lands on the
/// pixels it lands on in a whole canvas), then read back. The driver waits for the drawing
/// once a sheet, not once a layer.
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
    /// `endSheetDraw` turns it off).
    func placeOnSheet(_ sheet: Framebuffer, box: PixelBox, row: Int) {
        sheet.originX = box.x0
        sheet.originY = box.y0 - row
        sheet.bind(gl)
        let b = sheet.guardBand
        gl.enable(GLenum(GL_SCISSOR_TEST))
        gl.scissor(x: b, y: sheet.targetHeight - (b + row + box.height), width: box.width, height: box.height)
    }

    /// Puts `old.pixels` (premultiplied RGBA, the box's bottom row first) at canvas box
    /// `old.box`, inside `box` placed from row `row` (as `placeOnSheet` places it): what was
    /// drawn of a layer before, for new stamps to be drawn over. Every layer's goes on before
    /// any is drawn: the driver finishes the drawing a texture holds before it writes to it.
    func putOnSheet(_ sheet: Framebuffer, box: PixelBox, row: Int, old: (box: PixelBox, pixels: [UInt8])) {
        let o = old.box
        guard !o.isEmpty else { return }
        precondition(old.pixels.count == o.width * o.height * 4, "a box's pixels")
        let b = sheet.guardBand
        gl.bindTexture(sheet.texture)
        gl.pixelStore(GLenum(GL_UNPACK_ALIGNMENT), 4)
        old.pixels.withUnsafeBytes { raw in
            gl.texSubImage2D(x: o.x0 - box.x0 + b, y: sheet.targetHeight - (o.y1 - (box.y0 - row) + b),
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
