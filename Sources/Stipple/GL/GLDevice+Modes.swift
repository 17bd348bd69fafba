import CStipple

/// Stroke layers on the device: the brush modes' entry points.
extension GLDevice {
    /// Draws stroke layers of one mode that touch no pixel in common onto `target`; `stamps`
    /// plans their stamps alone.
    func drawStrokeLayers(_ group: [StrokeLayerPass], stamps: FramePlan, onto target: Framebuffer,
                          kept: KeptLayers.Layer? = nil) throws {
        try modes.draw(group, stamps: stamps, drawer: drawer, onto: target, kept: kept)
    }

    /// Draws the stamps of a group of stroke layers (`stamps`, planned alone) into `slot` of
    /// the layer atlas, prepared for targets like `target` (`ModePasses.atlas`).
    func drawLayer(_ group: [StrokeLayerPass], stamps: FramePlan, slot: Int, like target: Framebuffer) throws {
        try modes.drawLayer(group, stamps: stamps, drawer: drawer, slot: slot, like: target)
    }

    /// Draws a group of stroke layers, whose stamps `drawLayer` drew into `slot`, onto `target`.
    func composeStrokeLayers(_ group: [StrokeLayerPass], slot: Int, onto target: Framebuffer) throws {
        try modes.compose(group, slot: slot, onto: target)
    }

    /// One pixel of a target's canvas (rows top to bottom), premultiplied 8-bit RGBA.
    func readPixel(_ target: Framebuffer, x: Int, y: Int) throws -> [UInt8] {
        target.bind(gl)
        gl.pixelStore(GLenum(GL_PACK_ALIGNMENT), 4)
        var pixel = [UInt8](repeating: 0, count: 4)
        pixel.withUnsafeMutableBytes {
            gl.readPixels(x: target.guardBand + x - target.originX,
                          y: target.targetHeight - 1 - (y - target.originY + target.guardBand), width: 1, height: 1,
                          into: $0.baseAddress!)
        }
        try gl.checkError("reading the pixel under a stroke's first sample")
        return pixel
    }
}
