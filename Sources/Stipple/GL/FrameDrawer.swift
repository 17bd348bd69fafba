import CStipple

/// The buffers a point run binds: the stamps, and their rotations when they turn.
struct PointBuffers {
    var stamps: VertexBuffer
    var rotations: VertexBuffer?
}

/// Executes frame plans: the one path from a `FramePlan` to GL. It owns what every frame
/// shares — the programs (points, quads; each with a variant for stamps that turn their
/// brush), the brush textures (one upload per brush), and the buffers for immediate
/// stamps and quad vertices — and sets the frame's state
/// once, through the state cache, so a frame drawn twice makes no redundant call.
final class FrameDrawer {
    private let gl: GL
    /// A program a primitive, and a variant of each for stamps that turn their brush: the
    /// other samples the brush once, where the turning one samples it twice on llvmpipe.
    private struct ProgramKey: Hashable {
        var primitive: Primitive
        var turns: Bool
    }
    private var programs: [ProgramKey: ShaderProgram] = [:]
    /// Uploaded brushes by key; a key given with another brush gets that brush's own texture
    /// (the key only narrows the search, the brush's content decides).
    private var brushTextures: [String: [(brush: Brush, texture: BrushTexture)]] = [:]
    private let pointBuffer: VertexBuffer
    private let rotationBuffer: VertexBuffer
    private let quadBuffer: VertexBuffer
    private var textureIDs: [GLuint] = []
    /// How the immediate buffers are written each frame (the benchmark compares them).
    var bufferWrite: BufferWrite = .subData

    init(gl: GL) {
        self.gl = gl
        pointBuffer = VertexBuffer(gl: gl)
        rotationBuffer = VertexBuffer(gl: gl)
        quadBuffer = VertexBuffer(gl: gl)
    }

    /// Draws `plan` into `target` (already bound and filled with its background). Layer
    /// sources read `layers[n]`, in the plan's layer order.
    func draw(_ plan: FramePlan, layers: [PointBuffers], into target: Framebuffer, scissored: Bool = false) throws {
        guard !plan.runs.isEmpty else { return }
        gl.setStampBlending(scissored: scissored)
        if plan.drawsImmediatePoints {
            plan.stamps.withUnsafeBufferPointer { pointBuffer.upload(gl, $0, write: bufferWrite) }
            plan.rotations?.withUnsafeBufferPointer { rotationBuffer.upload(gl, $0, write: bufferWrite) }
        }
        if !plan.quads.isEmpty { plan.quads.withUnsafeBufferPointer { quadBuffer.upload(gl, $0, write: bufferWrite) } }
        // Each point source's buffers, and whether its stamps turn their brush (read once a
        // frame, not once a run).
        let sources = plan.sources.map { source -> (buffers: PointBuffers, turns: Bool) in
            let buffers: PointBuffers
            switch source {
            case .immediate: buffers = PointBuffers(stamps: pointBuffer, rotations: plan.rotations == nil ? nil : rotationBuffer)
            case let .layer(n): buffers = layers[n]
            }
            return (buffers, buffers.rotations != nil)
        }
        // Each batch's texture, looked up once a frame rather than once a run.
        textureIDs.removeAll(keepingCapacity: true)
        var last: (brush: BrushRef, id: GLuint)?
        for b in plan.brushes {
            if last == nil || last!.brush != b { last = (b, texture(b).id) }
            textureIDs.append(last!.id)
        }
        // Stamps that turn their brush are drawn by a program that can turn it; the others
        // by one that samples the brush once (the same pixels).
        let quadsTurn = plan.quads.contains { $0.rotation != 0 }
        func key(_ run: DrawRun) -> ProgramKey {
            ProgramKey(primitive: run.primitive, turns: run.primitive == .quads ? quadsTurn : sources[run.source].turns)
        }
        var used: Set<ProgramKey> = [], previous: ProgramKey?
        for run in plan.runs {
            let k = key(run)
            guard k != previous else { continue }
            previous = k
            if used.insert(k).inserted { try setUniforms(program(k), plan, target) }
        }

        var bound: (ProgramKey, Int)?
        for run in plan.runs {
            gl.bindTexture(textureIDs[run.batch])
            let want = (key(run), run.primitive == .quads ? -1 : run.source)
            if bound == nil || bound! != want {
                try gl.useProgram(program(want.0).id)
                switch run.primitive {
                case .points: bindPoints(sources[run.source].buffers)
                case .quads: bindQuads()
                }
                bound = want
            }
            switch run.primitive {
            case .points: gl.drawPoints(first: run.first, count: run.count)
            case .quads: gl.drawTriangles(first: run.first * 6, count: run.count * 6)
            }
        }
        try gl.checkError("drawing \(plan.runs.count) runs of stamps")
    }

    private func setUniforms(_ p: ShaderProgram, _ plan: FramePlan, _ target: Framebuffer) {
        gl.useProgram(p.id)
        let e = plan.settings.effects
        p.set(gl, "uTargetSize", Float(target.targetWidth), Float(target.targetHeight))
        p.set(gl, "uTargetHeight", Float(target.targetHeight))
        p.set(gl, "uViewSize", Float(target.viewWidth), Float(target.viewHeight))
        p.set(gl, "uOrigin", Float(target.originX - target.guardBand), Float(target.originY - target.guardBand))
        p.set(gl, "uMaxAge", e.maxAge)
        p.set(gl, "uDissolveDistance", e.dissolveDistance)
        p.set(gl, "uPointScale", e.pointScale)
        p.set(gl, "uAgeOffset", plan.ageOffset)
        p.setSampler(gl, "uBrush", unit: 0)
    }

    private func program(_ key: ProgramKey) throws -> ShaderProgram {
        if let p = programs[key] { return p }
        let p = try ShaderProgram(gl: gl, vertex: "sketch.vert", fragment: "sketch.frag",
                                  defines: FrameDrawer.defines(key.primitive, turns: key.turns))
        programs[key] = p
        return p
    }

    /// The defines of the stamp program for `primitive`, turning the brush or not.
    static func defines(_ primitive: Primitive, turns: Bool) -> [String] {
        (primitive == .quads ? ["STIPPLE_QUADS"] : []) + (turns ? ["STIPPLE_TURNS"] : [])
    }

    private func texture(_ b: BrushRef) -> BrushTexture {
        // Equal brushes usually share their coverage storage, so the comparison is cheap.
        if let hit = brushTextures[b.key]?.first(where: { $0.brush == b.brush }) { return hit.texture }
        let t = BrushTexture(gl: gl, brush: b.brush)
        brushTextures[b.key, default: []].append((b.brush, t))
        return t
    }

    private typealias A = ShaderProgram.Attribute
    /// SketchPoint's fields as attributes (docs/reference.md §2): which, how many floats, at which byte.
    private static let stampLayout: [(A, Int, Int)] = [(.position, 2, 0), (.radius, 1, 8), (.age, 1, 12),
                                                       (.dissolveAngle, 1, 16), (.color, 4, 20)]

    private func bindPoints(_ buffers: PointBuffers) {
        gl.bindArrayBuffer(buffers.stamps.id)
        for (attribute, size, offset) in FrameDrawer.stampLayout {
            gl.attributePointer(attribute.rawValue, size: size, stride: SketchPoint.byteSize, offset: offset)
        }
        gl.constantAttribute(A.corner.rawValue)
        if let rotations = buffers.rotations {
            gl.bindArrayBuffer(rotations.id)
            gl.attributePointer(A.rotation.rawValue, size: 1, stride: 4, offset: 0)
        } else {
            gl.constantAttribute(A.rotation.rawValue, 0)
        }
    }

    private func bindQuads() {
        let stride = MemoryLayout<stp_quad_vertex>.stride
        gl.bindArrayBuffer(quadBuffer.id)
        for (attribute, size, offset) in FrameDrawer.stampLayout {
            gl.attributePointer(attribute.rawValue, size: size, stride: stride, offset: offset)
        }
        gl.attributePointer(A.corner.rawValue, size: 2, stride: stride, offset: 36)
        gl.attributePointer(A.rotation.rawValue, size: 1, stride: stride, offset: 44)
    }
}
