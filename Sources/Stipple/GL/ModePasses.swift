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
    /// Where L and the shadow's target may not be transparent: the window rectangles drawn
    /// into since each was last made transparent; nil when not known (a new target). Making
    /// one transparent again then draws over those rectangles alone, not the whole target:
    /// a group of small strokes costs its strokes' pixels, not a clear of the canvas.
    private var layerInk: [PixelBox]?
    private var shadowInk: [PixelBox]?
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
        (layerInk, shadowInk) = (nil, nil)
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

    /// `target(slot, …)` made transparent and bound: over the rectangles `ink` says hold
    /// something (then none do), or whole when `ink` is not known or covers a quarter of
    /// the target or more (a clear without a scissor box is the driver's fast path).
    private func transparentTarget(_ slot: inout Framebuffer?, ink: inout [PixelBox]?, like canvas: Framebuffer,
                                   band: Int) throws -> Framebuffer {
        let old = slot
        let t = try target(&slot, like: canvas, band: band)
        t.bind(gl)
        let area = ink?.reduce(0) { $0 + $1.width * $1.height }
        if t !== old || area.map({ 4 * $0 >= t.targetWidth * t.targetHeight }) ?? true {
            gl.clear(red: 0, green: 0, blue: 0, alpha: 0)
        } else if let ink, !ink.isEmpty {
            gl.disable(GLenum(GL_BLEND))
            gl.useProgram(try program("mode_transparent.frag").id)
            drawRects(t, ink)
        }
        ink = []
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
        // The passes draw and clear only what they must, each box in full: no scissor.
        gl.disable(GLenum(GL_SCISSOR_TEST))
        let band = canvas.guardBand
        let c = try target(&before, like: canvas, band: band)
        // L starts transparent (the shadow's first pass reads it out to 2R past the stamps:
        // ink left there by an earlier stroke, another tile's or this frame's, would cast a
        // shadow), unless it is a kept target holding the group's stamps so far.
        let l: Framebuffer
        if let kept {
            l = kept.target
            (l.originX, l.originY) = (canvas.originX, canvas.originY)
            l.bind(gl)
        } else {
            l = try transparentTarget(&layer, ink: &layerInk, like: canvas, band: band)
        }
        try drawer.draw(stamps, layers: [], into: l)
        if kept == nil { layerInk = group.map { rect(l, $0.inked) }.filter { !$0.isEmpty } }
        let cover = group.flatMap { pass in pass.cover.map { pass.needed($0) } }
        if let factors = ModePasses.blendFactors(first) {
            canvas.bind(gl)
            let p = try program("mode_blend.frag")
            gl.useProgram(p.id)
            p.set(gl, "uTexSize", Float(l.targetWidth), Float(l.targetHeight))
            p.set(gl, "uOpacity", first.mode.strokeOpacity)
            p.setSampler(gl, "uLayer", unit: 0)
            gl.bindTextureUnits([l.texture])
            gl.enable(GLenum(GL_BLEND))
            gl.blendFunc(factors.source, factors.destination)
            drawBoxes(canvas, cover)
            try gl.checkError("drawing a stroke layer")
            return
        }
        // What the passes read of the canvas: only that is copied.
        let reads = group.map { $0.reads }
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
            // What the last pass reads of it and this pass does not write must be transparent.
            let t = try transparentTarget(&shadow, ink: &shadowInk, like: canvas,
                                          band: canvas.guardBand + max(1, s.radius))
            let written = group.map { $0.stamps.grown(x: s.radius, y: 0) }
            gl.disable(GLenum(GL_BLEND))
            let p = try program("mode_shadow.frag", taps: s.radius, edges: first.reference != nil)
            gl.useProgram(p.id)
            setCanvas(p, canvas, first)
            setWeight(p, first)
            setOffset(p, "uPassOffset", t, first)
            p.set(gl, "uTapWeights", array: ModeShaderConstants.tapWeights(sigma: s.blur, radius: s.radius))
            p.setSampler(gl, "uLayer", unit: 0)
            p.setSampler(gl, "uBefore", unit: 1)
            gl.bindTextureUnits([l.texture, c.texture])
            // What the last pass reads of it: the exact pixels moved back by the offset, ±R down.
            let drawn = zip(group, written).map { pass, w in
                pass.exact.map { w.intersection($0.shifted(-s.dx, -s.dy).grown(x: 0, y: s.radius)) } ?? w
            }
            drawBoxes(t, drawn)
            shadowInk = drawn.map { rect(t, $0) }.filter { !$0.isEmpty }
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
            p.set(gl, "uTapWeights", array: ModeShaderConstants.tapWeights(sigma: s.blur, radius: s.radius))
            p.set(gl, "uShadowOffset", Float(s.dx), Float(-s.dy))
            p.set(gl, "uShadowColor", s.color.red, s.color.green, s.color.blue, s.color.alpha)
        } else {
            p.set(gl, "uShadowRadius", -1)
        }
        for (unit, name) in ["uBefore", "uLayer", "uBlurred", "uShadow"].enumerated() { p.setSampler(gl, name, unit: unit) }
        gl.bindTextureUnits([c.texture, l.texture, blurredTexture, st.texture])
        drawBoxes(canvas, cover)
        try gl.checkError("drawing a stroke layer")
    }

    /// The blend factors (source, destination) that draw `pass` as L × k over the canvas
    /// (premultiplied), where its mode is a blend alone: over, erase or screen, without an
    /// effect, a shadow or "detect edges"; else nil, and the passes read the canvas.
    static func blendFactors(_ pass: StrokeLayerPass) -> (source: GLenum, destination: GLenum)? {
        let m = pass.mode
        guard m.effect == nil, m.shadow == nil, pass.reference == nil, m.edgeTolerance == nil else { return nil }
        switch m.blend {
        case .over: return (GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        case .erase: return (GLenum(GL_ZERO), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        case .screen: return (GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_COLOR))
        case .multiply: return nil
        }
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

    /// `box` (canvas pixels, rows top to bottom) as `target`'s window pixels (GL: y up),
    /// clipped to the target: a tile's target holds only its part of the canvas.
    private func window(_ target: Framebuffer, _ box: PixelBox) -> (x: Int, y: Int, width: Int, height: Int) {
        let b = target.guardBand
        let x0 = max(0, box.x0 - target.originX + b), x1 = min(target.targetWidth, box.x1 - target.originX + b)
        let top = max(0, box.y0 - target.originY + b), bottom = min(target.targetHeight, box.y1 - target.originY + b)
        guard x0 < x1, top < bottom else { return (0, 0, 0, 0) }
        return (x0, target.targetHeight - bottom, x1 - x0, bottom - top)
    }

    /// `window(target, box)` as a box of window pixels (x0, y0 its lower left corner).
    private func rect(_ target: Framebuffer, _ box: PixelBox) -> PixelBox {
        let w = window(target, box)
        return PixelBox(x0: w.x, y0: w.y, x1: w.x + w.width, y1: w.y + w.height)
    }

    /// Draws the program in use over `boxes` (canvas pixels, rows top to bottom) of
    /// `target`, clipped to it, in one draw: two triangles a box, their corners on pixel
    /// edges, so a box's pixels are drawn whole and nothing else is. Boxes may overlap: a
    /// pass writes a pixel the same wherever it is drawn from.
    private func drawBoxes(_ target: Framebuffer, _ boxes: [PixelBox]) {
        drawRects(target, boxes.map { rect(target, $0) })
    }

    /// Draws the program in use over `rects`, boxes of `target`'s window pixels (within it),
    /// in one draw.
    private func drawRects(_ target: Framebuffer, _ rects: [PixelBox]) {
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
