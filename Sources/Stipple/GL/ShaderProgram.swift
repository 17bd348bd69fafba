import CStipple

/// How stamps reach the rasteriser (docs/reference.md §7).
public enum Primitive: String, Sendable, CaseIterable {
    /// `GL_POINTS` sprites, one vertex a stamp: the default. Stamps that points cannot draw
    /// right (wider than the driver's largest point, or centred off the canvas) still go as quads.
    case points
    /// Two triangles a stamp: placement exact on every driver.
    case quads
}

/// A linked GL program built from shader files in GLSL/ (embedded at build time).
final class ShaderProgram {
    /// Attribute locations, bound before linking so that every program agrees.
    enum Attribute: GLuint, CaseIterable {
        case position = 0, radius, age, dissolveAngle, color, corner, rotation, segment, radii
        var name: String {
            switch self {
            case .position: return "aPosition"
            case .radius: return "aRadius"
            case .age: return "aAge"
            case .dissolveAngle: return "aDissolveAngle"
            case .color: return "aColor"
            case .corner: return "aCorner"
            case .rotation: return "aRotation"
            case .segment: return "aSegment"
            case .radii: return "aRadii"
            }
        }
    }

    let id: GLuint
    private var uniforms: [String: GLint] = [:]
    /// The values set on this program's uniforms: setting one again makes no GL call.
    private var values: [GLint: [Float]] = [:]

    /// Compiles and links `vertex` and `fragment` (file names in GLSL/) with `defines`
    /// inserted after each `#version` line. Errors carry the file name and the driver's log.
    init(gl: GL, vertex: String, fragment: String, defines: [String] = []) throws {
        let vs = try ShaderProgram.compile(gl: gl, file: vertex, type: GLenum(GL_VERTEX_SHADER), defines: defines)
        defer { gl.deleteShader(vs) }
        let fs = try ShaderProgram.compile(gl: gl, file: fragment, type: GLenum(GL_FRAGMENT_SHADER), defines: defines)
        defer { gl.deleteShader(fs) }
        let program = gl.createProgram()
        gl.attachShader(program, vs)
        gl.attachShader(program, fs)
        for attribute in Attribute.allCases { gl.bindAttribLocation(program, attribute.rawValue, attribute.name) }
        gl.linkProgram(program)
        guard gl.programParameter(program, GLenum(GL_LINK_STATUS)) != 0 else {
            let log = gl.programInfoLog(program)
            gl.deleteProgram(program)
            throw RenderError("GLSL/\(vertex) + GLSL/\(fragment)\(ShaderProgram.label(defines)): link failed:\n\(log)")
        }
        id = program
    }

    static func label(_ defines: [String]) -> String { defines.isEmpty ? "" : " [\(defines.joined(separator: ", "))]" }

    /// The source with `#define`s after its `#version` line (which must stay first).
    static func source(file: String, defines: [String], sources: [String: String] = EmbeddedShaders.sources) throws -> String {
        guard let text = sources[file] else {
            throw RenderError("GLSL/\(file): no such shader (shaders: \(sources.keys.sorted().joined(separator: ", ")))")
        }
        // "NAME" defines NAME as 1; "NAME VALUE" gives its value.
        let lines = defines.map { $0.contains(" ") ? "#define \($0)" : "#define \($0) 1" }
        guard !lines.isEmpty else { return text }
        var all = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let at = all.first?.hasPrefix("#version") == true ? 1 : 0
        all.insert(contentsOf: lines, at: at)
        // Keep the driver's line numbers true to the file.
        all.insert("#line \(at + 1)", at: at + lines.count)
        return all.joined(separator: "\n")
    }

    static func compile(gl: GL, file: String, type: GLenum, defines: [String],
                        sources: [String: String] = EmbeddedShaders.sources) throws -> GLuint {
        let text = try source(file: file, defines: defines, sources: sources)
        let shader = gl.createShader(type)
        gl.shaderSource(shader, text)
        gl.compileShader(shader)
        guard gl.shaderParameter(shader, GLenum(GL_COMPILE_STATUS)) != 0 else {
            let log = gl.shaderInfoLog(shader)
            gl.deleteShader(shader)
            throw RenderError("GLSL/\(file)\(label(defines)): compile failed:\n\(log)")
        }
        return shader
    }

    /// Sets a float uniform (1, 2 or 4 components), unless it already holds that value.
    func set(_ gl: GL, _ name: String, _ v: Float...) {
        let loc = uniform(gl, name)
        if values[loc] == v { gl.skipped(); return }
        switch v.count {
        case 1: gl.uniform1f(loc, v[0])
        case 4: gl.uniform4f(loc, v[0], v[1], v[2], v[3])
        default: gl.uniform2f(loc, v[0], v[1])
        }
        values[loc] = v
    }

    /// Sets a uniform array of floats, unless it already holds those values.
    func set(_ gl: GL, _ name: String, array v: [Float]) {
        let loc = uniform(gl, name)
        if values[loc] == v { gl.skipped(); return }
        gl.uniform1fv(loc, v)
        values[loc] = v
    }

    /// Sets a sampler uniform to a texture unit, unless it already is.
    func setSampler(_ gl: GL, _ name: String, unit: Int) {
        let loc = uniform(gl, name)
        if values[loc] == [Float(unit)] { gl.skipped(); return }
        gl.uniform1i(loc, GLint(unit))
        values[loc] = [Float(unit)]
    }

    /// The location of a uniform, looked up once.
    func uniform(_ gl: GL, _ name: String) -> GLint {
        if let loc = uniforms[name] { return loc }
        let loc = gl.uniformLocation(id, name)
        uniforms[name] = loc
        return loc
    }
}
