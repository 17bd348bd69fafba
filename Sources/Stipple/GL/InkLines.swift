import CStipple

/// Draws ink as lines (docs/ink-formats.md, "Lines"): each chord of a stroke's curve is a
/// quad whose pixels take the coverage of the capsule around the chord, in white, blended
/// with MAX so that chords meeting at a joint never cover a pixel twice.
final class InkLineDrawer {
    private let gl: GL
    private var program: ShaderProgram?
    private let buffer: VertexBuffer

    /// A vertex's floats: its corner (x, y), the chord (a.x, a.y, b.x, b.y), its radii (ra, rb).
    static let floatsPerVertex = 8

    init(gl: GL) {
        self.gl = gl
        buffer = VertexBuffer(gl: gl)
    }

    /// Whether the driver blends with MAX: OpenGL ES 3, or ES 2 with GL_EXT_blend_minmax.
    /// Asked once, on the first draw.
    private(set) lazy var isSupported: Bool = gl.hasES3(orExtension: "GL_EXT_blend_minmax")

    /// Draws `vertices` (six a chord, `floatsPerVertex` floats each) over `target`.
    func draw(_ vertices: UnsafeBufferPointer<Float>, into target: Framebuffer) throws {
        guard vertices.count >= 6 * InkLineDrawer.floatsPerVertex else { return }
        guard isSupported else {
            throw RenderError("this driver cannot blend with MAX (it has neither OpenGL ES 3 nor GL_EXT_blend_minmax), which lines need: draw the ink as stamps instead (leave out --lines)")
        }
        target.bind(gl)
        let p = try madeProgram()
        gl.useProgram(p.id)
        p.set(gl, "uTargetSize", Float(target.targetWidth), Float(target.targetHeight))
        p.set(gl, "uViewSize", Float(target.viewWidth), Float(target.viewHeight))
        p.set(gl, "uOrigin", Float(target.originX - target.guardBand), Float(target.originY - target.guardBand))
        gl.setStampBlending()
        gl.blendFunc(GLenum(GL_ONE), GLenum(GL_ONE))
        gl.blendEquation(InkLineDrawer.max)
        defer {
            // Every other draw expects ADD, and no array on past its own attributes.
            gl.blendEquation(GLenum(GL_FUNC_ADD))
            gl.constantAttribute(ShaderProgram.Attribute.segment.rawValue)
            gl.constantAttribute(ShaderProgram.Attribute.radii.rawValue)
        }
        buffer.upload(gl, vertices, write: .orphan)
        let stride = InkLineDrawer.floatsPerVertex * 4
        typealias A = ShaderProgram.Attribute
        gl.attributePointer(A.position.rawValue, size: 2, stride: stride, offset: 0)
        gl.attributePointer(A.segment.rawValue, size: 4, stride: stride, offset: 8)
        gl.attributePointer(A.radii.rawValue, size: 2, stride: stride, offset: 24)
        for a in A.allCases where ![.position, .segment, .radii].contains(a) { gl.constantAttribute(a.rawValue) }
        gl.drawTriangles(first: 0, count: vertices.count / InkLineDrawer.floatsPerVertex)
        try gl.checkError("drawing \(vertices.count / InkLineDrawer.floatsPerVertex / 6) chords of ink lines")
    }

    /// GL_MAX (GL_MAX_EXT in ES 2's extension): the same number.
    static let max = GLenum(0x8008)

    private func madeProgram() throws -> ShaderProgram {
        if let program { return program }
        let p = try ShaderProgram(gl: gl, vertex: "ink_line.vert", fragment: "ink_line.frag")
        program = p
        return p
    }
}
