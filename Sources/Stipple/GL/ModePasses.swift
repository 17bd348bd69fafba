import Foundation
import CStipple

/// Runs stroke layers on the GPU (docs/brush-modes.md): draws a stroke's stamps into its
/// layer target L (a slot of the atlas, `drawLayer`), then (`compose`) keeps a copy of the
/// canvas before the stroke, blurs what the mode needs (separable passes, or on the CPU
/// where the driver is a software rasterizer) and draws the result over the region the
/// stroke can touch — or, for a blend the GPU's blending can do, draws L there blended,
/// with no copy. Every pass draws only the boxes it must compute
/// (`drawBoxes`), several layers' in one draw.
final class ModePasses {
    let gl: GL
    /// The groups' layer targets L, drawn before the groups meet the canvas.
    let atlas: LayerAtlas
    private var before: Framebuffer?
    private var blurred: Framebuffer?
    private var shadow: Framebuffer?
    /// Where the shadow's target may not be transparent: the window rectangles drawn into
    /// since it was last made transparent; nil when not known (a new target). Making it
    /// transparent again then draws over those rectangles alone, not the whole target: a
    /// group of small strokes costs its strokes' pixels, not a clear of the canvas (so do
    /// the atlas's slots).
    private var shadowInk: [PixelBox]?
    /// A pass's program: its fragment shader and defines.
    private struct ProgramKey: Hashable {
        let fragment: String, taps: Int, edges: Bool, shadow: Bool, blurs: Bool, mode: Int
    }
    private var programs: [ProgramKey: ShaderProgram] = [:]
    /// Whether soften, sharpen and drop shadows blur on the CPU (`blurEffectOnCPU`,
    /// `shadowOnCPU`, ModePasses+CPUBlur.swift): by default where the driver is a software
    /// rasterizer, which samples a texture at several times the cost of a multiply-add on
    /// the CPU.
    var blursOnCPU = false
    /// The CPU blurs' working buffers, one a core, and the bytes they upload: kept from
    /// frame to frame.
    let blurScratch = (0..<max(1, ProcessInfo.processInfo.activeProcessorCount)).map { _ in BlurScratch() }
    var blurBytes: [UInt8] = []
    /// Layer targets kept from frame to frame for groups whose stamps only grow.
    let keptLayers: KeptLayers
    /// The boxes' triangles (`drawBoxes`, ModePasses+Boxes.swift), and their buffer.
    let quad: VertexBuffer
    var corners: [Float] = []

    init(gl: GL, maxTextureSize: Int) {
        self.gl = gl
        atlas = LayerAtlas(gl: gl, maxTextureSize: maxTextureSize)
        quad = VertexBuffer(gl: gl)
        keptLayers = KeptLayers(gl: gl)
    }

    /// Frees the targets (kept while frames of one size follow each other); the next stroke
    /// layer makes them again.
    var heldTargets: Int {
        [before, blurred, shadow].compactMap { $0 }.count + (atlas.isAllocated ? 1 : 0) + keptLayers.count
    }

    func releaseTargets() {
        for slot in [before, blurred, shadow] { slot?.delete(gl) }
        (before, blurred, shadow) = (nil, nil, nil)
        shadowInk = nil
        atlas.release()
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
    /// `mode`: the number of the mode the final pass applies (`ModeShaderConstants.number`).
    private func program(_ fragment: String, taps: Int = 0, edges: Bool = false, shadow: Bool = false,
                         blurs: Bool = false, mode: Int = 0) throws -> ShaderProgram {
        // Looked up for every pass of every group: a key of values, not a string made each time.
        let key = ProgramKey(fragment: fragment, taps: taps, edges: edges, shadow: shadow, blurs: blurs, mode: mode)
        if let p = programs[key] { return p }
        let flags = [edges, shadow, blurs].map { $0 ? 1 : 0 }
        let p = try ShaderProgram(gl: gl, vertex: "mode.vert", fragment: fragment,
                                  defines: ["SHADOW_TAPS \(taps)", "EDGES \(flags[0])", "HAS_SHADOW \(flags[1])",
                                            "BLURS \(flags[2])", "APPLY_MODE \(mode).0"] + ModeShaderConstants.defines)
        programs[key] = p
        return p
    }

    /// Draws one group of stroke layers alone: its stamps (`stamps`, planned alone) into the
    /// atlas's first slot, or into the kept target `kept`, which holds the stamps drawn
    /// before (`stamps` holds only those added since); then its passes.
    func draw(_ group: [StrokeLayerPass], stamps: FramePlan, drawer: FrameDrawer, onto canvas: Framebuffer,
              kept: KeptLayers.Layer? = nil) throws {
        gl.disable(GLenum(GL_SCISSOR_TEST))
        if let kept {
            (kept.target.originX, kept.target.originY) = (canvas.originX, canvas.originY)
            kept.target.bind(gl)
            try drawer.draw(stamps, layers: [], into: kept.target)
        } else {
            _ = try atlas.prepare(groups: 1, like: canvas)
            try drawLayer(group, stamps: stamps, drawer: drawer, slot: 0, like: canvas)
        }
        try compose(group, slot: 0, kept: kept, onto: canvas)
    }

    /// Draws the stamps of a group of stroke layers (`stamps`, planned alone) into `slot` of
    /// the atlas (`LayerAtlas.prepare`), made transparent first. L must be transparent
    /// wherever a pass reads it and no stamp lands: the shadow's first pass reads it out to
    /// 2R past the stamps, and ink left there by an earlier stroke (another tile's, or this
    /// frame's) would cast a shadow.
    func drawLayer(_ group: [StrokeLayerPass], stamps: FramePlan, drawer: FrameDrawer, slot: Int,
                   like canvas: Framebuffer) throws {
        guard let (a, ink) = atlas.bind(slot, like: canvas) else { return }
        // Drawn transparent, however much: a clear limited to the slot would be no cheaper.
        if !ink.isEmpty {
            gl.disable(GLenum(GL_BLEND))
            gl.useProgram(try program("mode_transparent.frag").id)
            drawRects(a, ModePasses.fewestPixels(ink))
        }
        try drawer.draw(stamps, layers: [], into: a, scissored: true)
        // Slot-relative: the canvas target's window pixels.
        atlas.inked(slot, group.map { rect(canvas, $0.inked) }.filter { !$0.isEmpty })
        gl.disable(GLenum(GL_SCISSOR_TEST))
    }

    /// Draws stroke layers onto `canvas` as one set of passes: `group` holds layers of one
    /// mode whose zones do not meet (`StrokeLayerPass.zone`, `LayerGroups`), so each comes
    /// out as if drawn alone, in any order. Their layer L is in `slot` of the atlas
    /// (`drawLayer`), or the kept target `kept`, which holds every stamp so far. Every pass
    /// runs once for the group, all the layers' boxes in one draw: the driver switches
    /// targets a few times for the group, not a few times for each layer.
    func compose(_ group: [StrokeLayerPass], slot: Int, kept: KeptLayers.Layer? = nil, onto canvas: Framebuffer) throws {
        guard let first = group.first else { return }
        let mode = first.mode
        // The passes draw and clear only what they must, each box in full: no scissor.
        gl.disable(GLenum(GL_SCISSOR_TEST))
        let band = canvas.guardBand
        let l = kept.map {
            LayerSource(texture: $0.target.texture, textureWidth: $0.target.targetWidth,
                        textureHeight: $0.target.targetHeight, row: 0, like: canvas, canvasHeight: first.canvasHeight)
        } ?? atlas.source(slot, like: canvas, canvasHeight: first.canvasHeight)
        let cover = group.flatMap { pass in pass.cover.map { pass.needed($0) } }
        if let factors = ModePasses.blendFactors(first) {
            canvas.bind(gl)
            let p = try program("mode_blend.frag")
            gl.useProgram(p.id)
            // y from the target's top, with the target's height (GLSL/mode_blend.frag).
            p.set(gl, "uOffset", Float(canvas.guardBand - canvas.originX),
                  Float(first.canvasHeight + canvas.guardBand - canvas.originY))
            p.set(gl, "uTargetHeight", Float(canvas.targetHeight))
            setLayer(p, l)
            p.set(gl, "uOpacity", first.mode.strokeOpacity)
            p.setSampler(gl, "uLayer", unit: 0)
            gl.bindTextureUnits([l.texture])
            gl.enable(GLenum(GL_BLEND))
            gl.blendFunc(factors.source, factors.destination)
            drawBoxes(canvas, cover)
            try gl.checkError("drawing a stroke layer")
            return
        }
        let blurs = mode.isBlur
        // L's target, where the CPU reads it back to blur.
        let layerTarget = blursOnCPU ? kept?.target ?? atlas.placed(slot, like: canvas) : nil
        if blurs, let layer = layerTarget {
            blurEffectOnCPU(group, layer: layer, canvas: canvas)
            try gl.checkError("drawing a stroke layer")
            return
        }
        let c = try target(&before, like: canvas, band: band)
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
        // Both of the shadow's passes blur with these.
        var tapWeights = mode.shadow.map { ModeShaderConstants.tapWeights(sigma: $0.blur, radius: $0.radius) } ?? []
        var shadowTaps = mode.shadow?.radius ?? 0
        // Without edges the weight is L's alone, and the CPU can blur it whole.
        if let s = mode.shadow, first.reference == nil, let layer = layerTarget {
            let old = shadow
            let t = try target(&shadow, like: canvas, band: canvas.guardBand + max(1, s.radius))
            if t !== old { shadowInk = nil }
            let written = shadowOnCPU(group, layer: layer, like: canvas, into: t, shadow: s)
            shadowInk?.append(contentsOf: written)
            shadowTarget = t
            (tapWeights, shadowTaps) = ([1], 0)
        } else if let s = mode.shadow {
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
            setLayer(p, l)
            p.set(gl, "uTapWeights", array: tapWeights)
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
        let p = try program("mode_apply.frag", taps: shadowTaps, edges: first.reference != nil, shadow: mode.shadow != nil,
                            blurs: blurs, mode: ModeShaderConstants.number(mode))
        gl.useProgram(p.id)
        setCanvas(p, canvas, first)
        setWeight(p, first)
        setLayer(p, l)
        let st = shadowTarget ?? c
        p.set(gl, "uPassTexSize", Float(st.targetWidth), Float(st.targetHeight))
        setOffset(p, "uPassOffset", st, first)
        if let s = mode.shadow {
            p.set(gl, "uTapWeights", array: tapWeights)
            p.set(gl, "uShadowOffset", Float(s.dx), Float(-s.dy))
            p.set(gl, "uShadowColor", s.color.red, s.color.green, s.color.blue, s.color.alpha)
        }
        for (unit, name) in ["uBefore", "uLayer", "uBlurred", "uShadow"].enumerated() { p.setSampler(gl, name, unit: unit) }
        gl.bindTextureUnits([c.texture, l.texture, blurredTexture, st.texture])
        if group.contains(where: { $0.reference != first.reference }) {
            // "Detect edges" layers with their own references: each drawn over its own parts.
            for pass in group {
                setWeight(p, pass)
                drawBoxes(canvas, pass.coverParts.map { pass.needed($0) }.filter { !$0.isEmpty })
            }
        } else {
            drawBoxes(canvas, cover)
        }
        try gl.checkError("drawing a stroke layer")
    }

    /// The blend factors (source, destination) that draw `pass` as L × k over the canvas
    /// (premultiplied), where its mode has a fixed-function blend (`StrokeMode.fixedFunctionBlend`);
    /// else nil, and the passes read the canvas.
    static func blendFactors(_ pass: StrokeLayerPass) -> (source: GLenum, destination: GLenum)? {
        guard pass.reference == nil, let blend = pass.mode.fixedFunctionBlend else { return nil }
        switch blend {
        case .over: return (GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        case .erase: return (GLenum(GL_ZERO), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        case .screen: return (GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_COLOR))
        case .multiply: preconditionFailure("multiply reads the canvas")
        }
    }

    /// Where the program reads L.
    private func setLayer(_ p: ShaderProgram, _ l: LayerSource) {
        p.set(gl, "uLayerTexSize", Float(l.textureWidth), Float(l.textureHeight))
        p.set(gl, "uLayerOffset", Float(l.offsetX), Float(l.offsetY))
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
}
