import CStipple

/// Runs stroke layers on the GPU (docs/brush-modes.md): draws a stroke's stamps into the
/// layer target L, keeps a copy of the canvas before the stroke, blurs what the mode needs
/// (separable passes), then draws the result over the region the stroke can touch. Every
/// pass draws only the boxes it must compute (`drawBoxes`), several layers' in one draw.
final class ModePasses {
    private let gl: GL
    private var layer: Framebuffer?
    private var before: Framebuffer?
    private var blurred: Framebuffer?
    private var shadow: Framebuffer?
    private var programs: [String: ShaderProgram] = [:]
    /// Layer targets kept from frame to frame for groups whose stamps only grow.
    let keptLayers: KeptLayers
    /// The boxes' triangles (`drawBoxes`), and their buffer.
    private let quad: VertexBuffer
    private var corners: [Float] = []

    init(gl: GL) {
        self.gl = gl
        quad = VertexBuffer(gl: gl)
        keptLayers = KeptLayers(gl: gl)
    }

    /// Frees the targets (kept while frames of one size follow each other); the next stroke
    /// layer makes them again.
    var heldTargets: Int { [layer, before, blurred, shadow].compactMap { $0 }.count + keptLayers.count }

    func releaseTargets() {
        for slot in [layer, before, blurred, shadow] { slot?.delete(gl) }
        (layer, before, blurred, shadow) = (nil, nil, nil, nil)
        keptLayers.releaseAll()
    }

    /// A target of the canvas target's size and origin (the whole canvas, or a tile) with
    /// `band` around it, kept while it fits.
    private func target(_ slot: inout Framebuffer?, like canvas: Framebuffer, band: Int) throws -> Framebuffer {
        let t: Framebuffer
        if let s = slot, s.width == canvas.width, s.height == canvas.height, s.guardBand == band {
            t = s
        } else {
            slot?.delete(gl)
            slot = nil
            t = try Framebuffer(gl: gl, width: canvas.width, height: canvas.height, guardBand: band)
            slot = t
        }
        t.originX = canvas.originX
        t.originY = canvas.originY
        return t
    }

    /// The program of `fragment`, with the shadow's taps on each side, and whether the
    /// stroke has "detect edges", compiled in.
    private func program(_ fragment: String, taps: Int = 0, edges: Bool = false, shadow: Bool = false,
                         blurs: Bool = false) throws -> ShaderProgram {
        let flags = [edges, shadow, blurs].map { $0 ? 1 : 0 }
        let key = "\(fragment) \(taps) \(flags)"
        if let p = programs[key] { return p }
        let p = try ShaderProgram(gl: gl, vertex: "mode.vert", fragment: fragment,
                                  defines: ["SHADOW_TAPS \(taps)", "EDGES \(flags[0])", "HAS_SHADOW \(flags[1])",
                                            "BLURS \(flags[2])"] + ModeShaderConstants.defines)
        programs[key] = p
        return p
    }

    /// Draws stroke layers onto `canvas` as one set of passes: `group` holds layers of one
    /// mode whose zones share no cell (`StrokeLayerPass.zone`, `LayerGroups`), so each comes
    /// out as if drawn alone, in any order; `stamps` is the plan of their stamps alone. Every
    /// pass runs once for the group, all the layers' boxes in one draw: the driver switches
    /// targets a few times for the group, not a few times for each layer.
    /// With `kept`, L is that kept target, which holds the stamps drawn before: it is not
    /// cleared, and `stamps` holds only those added since.
    func draw(_ group: [StrokeLayerPass], stamps: FramePlan, drawer: FrameDrawer, onto canvas: Framebuffer,
              kept: KeptLayers.Layer? = nil) throws {
        guard let first = group.first else { return }
        let mode = first.mode
        // Whatever throws on the way, the next clear of a target must not be scissored.
        defer { gl.disable(GLenum(GL_SCISSOR_TEST)) }
        let band = canvas.guardBand
        let l: Framebuffer
        if let kept {
            l = kept.target
            (l.originX, l.originY) = (canvas.originX, canvas.originY)
        } else {
            l = try target(&layer, like: canvas, band: band)
        }
        let c = try target(&before, like: canvas, band: band)
        // What the passes read of L and of the canvas: only that is cleared and copied.
        // The shadow's first pass writes R past the stamps and reads R past that: L must be
        // clear out to 2R, or a stroke drawn there earlier (another tile's, or this frame's)
        // would cast a shadow.
        let reads = group.map { $0.reads }
        if kept == nil { clear(l, reads) } else { l.bind(gl) }
        try drawer.draw(stamps, layers: [], into: l)
        canvas.bind(gl)
        gl.bindTexture(c.texture)
        for box in ModePasses.fewestPixels(reads) {
            let copied = window(canvas, box)
            gl.copyToBoundTexture(x: copied.x, y: copied.y, width: copied.width, height: copied.height)
        }
        gl.disable(GLenum(GL_BLEND))

        var blurredTexture = c.texture
        let blurs = mode.effect == .soften || mode.effect == .sharpen
        if blurs {
            let b = try target(&blurred, like: canvas, band: band)
            b.bind(gl)
            let p = try program("mode_blur.frag")
            gl.useProgram(p.id)
            setCanvas(p, canvas, first)
            p.setSampler(gl, "uBefore", unit: 0)
            gl.bindTextureUnits([c.texture])
            // What the final pass reads of it: its cells, ±the blur's radius down.
            drawBoxes(b, group.flatMap { pass in
                pass.cover.map {
                    pass.needed($0.grown(x: 0, y: StrokeMode.blurRadius), y: StrokeMode.blurRadius)
                        .clipped(width: pass.canvasWidth, height: pass.canvasHeight)
                }
            })
            blurredTexture = b.texture
        }
        var shadowTarget: Framebuffer?
        if let s = mode.shadow {
            // The blurred weight spills up to R past what the canvas target holds (its band, or a
            // tile's apron), and the final pass reads it there.
            let t = try target(&shadow, like: canvas, band: canvas.guardBand + max(1, s.radius))
            let written = group.map { $0.stamps.grown(x: s.radius, y: 0) }
            clear(t, zip(group, written).map { $0.region.shifted(-s.dx, -s.dy).grown(x: 0, y: s.radius).union($1) })
            gl.disable(GLenum(GL_BLEND))
            let p = try program("mode_shadow.frag", taps: s.radius, edges: first.reference != nil)
            gl.useProgram(p.id)
            setCanvas(p, canvas, first)
            setWeight(p, first)
            setOffset(p, "uPassOffset", t, first)
            p.set(gl, "uSigma", s.blur)
            p.setSampler(gl, "uLayer", unit: 0)
            p.setSampler(gl, "uBefore", unit: 1)
            gl.bindTextureUnits([l.texture, c.texture])
            // What the last pass reads of it: the exact pixels moved back by the offset, ±R down.
            drawBoxes(t, zip(group, written).map { pass, w in
                pass.exact.map { w.intersection($0.shifted(-s.dx, -s.dy).grown(x: 0, y: s.radius)) } ?? w
            })
            shadowTarget = t
        }

        canvas.bind(gl)
        let p = try program("mode_apply.frag", taps: mode.shadow?.radius ?? 0, shadow: mode.shadow != nil,
                            blurs: blurs)
        gl.useProgram(p.id)
        setCanvas(p, canvas, first)
        setWeight(p, first)
        p.set(gl, "uMode", Float(ModeShaderConstants.number(mode)))
        let st = shadowTarget ?? c
        p.set(gl, "uPassTexSize", Float(st.targetWidth), Float(st.targetHeight))
        setOffset(p, "uPassOffset", st, first)
        if let s = mode.shadow {
            p.set(gl, "uShadowRadius", Float(s.radius))
            p.set(gl, "uSigma", s.blur)
            p.set(gl, "uShadowOffset", Float(s.dx), Float(-s.dy))
            p.set(gl, "uShadowColor", s.color.red, s.color.green, s.color.blue, s.color.alpha)
        } else {
            p.set(gl, "uShadowRadius", -1)
        }
        for (unit, name) in ["uBefore", "uLayer", "uBlurred", "uShadow"].enumerated() { p.setSampler(gl, name, unit: unit) }
        gl.bindTextureUnits([c.texture, l.texture, blurredTexture, st.texture])
        drawBoxes(canvas, group.flatMap { pass in pass.cover.map { pass.needed($0) } })
        try gl.checkError("drawing a stroke layer")
    }

    private func setCanvas(_ p: ShaderProgram, _ canvas: Framebuffer, _ pass: StrokeLayerPass) {
        p.set(gl, "uCanvasSize", Float(pass.canvasWidth), Float(pass.canvasHeight))
        p.set(gl, "uTexSize", Float(canvas.targetWidth), Float(canvas.targetHeight))
        setOffset(p, "uOffset", canvas, pass)
    }

    /// A target's window pixel minus the canvas pixel it shows, in GL's axes (y up): the band,
    /// less the origin of a tile.
    private func setOffset(_ p: ShaderProgram, _ name: String, _ t: Framebuffer, _ pass: StrokeLayerPass) {
        p.set(gl, name, Float(t.guardBand - t.originX),
              Float(t.targetHeight - pass.canvasHeight - t.guardBand + t.originY))
    }

    private func setWeight(_ p: ShaderProgram, _ pass: StrokeLayerPass) {
        p.set(gl, "uOpacity", pass.mode.strokeOpacity)
        if let r = pass.reference, let t = pass.mode.edgeTolerance {
            p.set(gl, "uTolerance", Float(t))
            p.set(gl, "uReference", r[0], r[1], r[2], r[3])
        } else {
            p.set(gl, "uTolerance", -1)
        }
    }

    /// Clears `boxes` of `target` (canvas pixels) to transparent, or more of it: the whole
    /// target where the boxes' bounds are an eighth of it or more (a clear without a scissor
    /// box is the driver's fast path), else their bounds or each box, whichever clears fewer
    /// pixels (counting a clear's own cost as `ModePasses.perCall` pixels). Binds the target.
    private func clear(_ target: Framebuffer, _ boxes: [PixelBox]) {
        target.bind(gl)
        let bounds = boxes.reduce(PixelBox.empty) { $0.union($1) }
        if 8 * bounds.width * bounds.height >= target.targetWidth * target.targetHeight {
            gl.clear(red: 0, green: 0, blue: 0, alpha: 0)
            return
        }
        for box in ModePasses.fewestPixels(boxes) {
            scissor(target, box)
            gl.clear(red: 0, green: 0, blue: 0, alpha: 0)
        }
        gl.disable(GLenum(GL_SCISSOR_TEST))
    }

    /// Limits drawing on `target` to `box` (canvas pixels, rows top to bottom).
    private func scissor(_ target: Framebuffer, _ box: PixelBox) {
        gl.enable(GLenum(GL_SCISSOR_TEST))
        let w = window(target, box)
        gl.scissor(x: w.x, y: w.y, width: w.width, height: w.height)
    }

    /// `box` (canvas pixels, rows top to bottom) as `target`'s window pixels (GL: y up),
    /// clipped to the target: a tile's target holds only its part of the canvas.
    private func window(_ target: Framebuffer, _ box: PixelBox) -> (x: Int, y: Int, width: Int, height: Int) {
        let b = target.guardBand
        let x0 = max(0, box.x0 - target.originX + b), x1 = min(target.targetWidth, box.x1 - target.originX + b)
        let top = max(0, box.y0 - target.originY + b), bottom = min(target.targetHeight, box.y1 - target.originY + b)
        guard x0 < x1, top < bottom else { return (0, 0, 0, 0) }
        return (x0, target.targetHeight - bottom, x1 - x0, bottom - top)
    }

    /// Draws the program in use over `boxes` (canvas pixels, rows top to bottom) of
    /// `target`, clipped to it, in one draw: two triangles a box, their corners on pixel
    /// edges, so a box's pixels are drawn whole and nothing else is. Boxes may overlap: a
    /// pass writes a pixel the same wherever it is drawn from.
    private func drawBoxes(_ target: Framebuffer, _ boxes: [PixelBox]) {
        corners.removeAll(keepingCapacity: true)
        let (w, h) = (Float(target.viewWidth), Float(target.viewHeight))  // the viewport: a power of two
        for box in boxes {
            let b = window(target, box)
            guard b.width > 0, b.height > 0 else { continue }
            let x0 = Float(b.x) / w * 2 - 1, x1 = Float(b.x + b.width) / w * 2 - 1
            let y0 = Float(b.y) / h * 2 - 1, y1 = Float(b.y + b.height) / h * 2 - 1
            corners += [x0, y0, x1, y0, x0, y1, x0, y1, x1, y0, x1, y1]
        }
        guard !corners.isEmpty else { return }
        corners.withUnsafeBufferPointer { quad.upload(gl, $0, write: .orphan) }
        gl.attributePointer(ShaderProgram.Attribute.position.rawValue, size: 2, stride: 8, offset: 0)
        for a in ShaderProgram.Attribute.allCases where a != .position { gl.constantAttribute(a.rawValue) }
        gl.drawTriangles(first: 0, count: corners.count / 2)
    }

    /// What a copy or a clear costs on its own, in pixels copied or cleared.
    static let perCall = 16_384

    /// `boxes` each alone, or their bounds at once where that costs less, counting each
    /// call's own cost as `perCall` pixels.
    static func fewestPixels(_ boxes: [PixelBox]) -> [PixelBox] {
        let bounds = boxes.reduce(PixelBox.empty) { $0.union($1) }
        let apart = boxes.reduce(0) { $0 + $1.width * $1.height + perCall }
        return bounds.width * bounds.height + perCall <= apart ? [bounds] : boxes
    }
}
