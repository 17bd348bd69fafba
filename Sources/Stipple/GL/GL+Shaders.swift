import CStipple

/// Shaders, programs and uniforms.
extension GL {
    func createShader(_ type: GLenum) -> GLuint { enter("glCreateShader") ? glCreateShader(type) : 0 }

    func shaderSource(_ shader: GLuint, _ source: String) {
        guard enter("glShaderSource") else { return }
        source.withCString { ptr in
            var p: UnsafePointer<GLchar>? = ptr
            glShaderSource(shader, 1, &p, nil)
        }
    }

    func compileShader(_ shader: GLuint) { if enter("glCompileShader") { glCompileShader(shader) } }

    func shaderParameter(_ shader: GLuint, _ name: GLenum) -> GLint {
        var v: GLint = 0
        if enter("glGetShaderiv") { glGetShaderiv(shader, name, &v) }
        return v
    }

    func shaderInfoLog(_ shader: GLuint) -> String {
        let length = shaderParameter(shader, GLenum(GL_INFO_LOG_LENGTH))
        guard length > 1, enter("glGetShaderInfoLog") else { return "" }
        var log = [GLchar](repeating: 0, count: Int(length))
        glGetShaderInfoLog(shader, length, nil, &log)
        return String(cBuffer: log)
    }

    func deleteShader(_ shader: GLuint) { if enter("glDeleteShader") { glDeleteShader(shader) } }

    func createProgram() -> GLuint { enter("glCreateProgram") ? glCreateProgram() : 0 }
    func attachShader(_ p: GLuint, _ s: GLuint) { if enter("glAttachShader") { glAttachShader(p, s) } }

    func bindAttribLocation(_ p: GLuint, _ index: GLuint, _ name: String) {
        if enter("glBindAttribLocation") { glBindAttribLocation(p, index, name) }
    }

    func linkProgram(_ p: GLuint) { if enter("glLinkProgram") { glLinkProgram(p) } }

    func programParameter(_ p: GLuint, _ name: GLenum) -> GLint {
        var v: GLint = 0
        if enter("glGetProgramiv") { glGetProgramiv(p, name, &v) }
        return v
    }

    func programInfoLog(_ p: GLuint) -> String {
        let length = programParameter(p, GLenum(GL_INFO_LOG_LENGTH))
        guard length > 1, enter("glGetProgramInfoLog") else { return "" }
        var log = [GLchar](repeating: 0, count: Int(length))
        glGetProgramInfoLog(p, length, nil, &log)
        return String(cBuffer: log)
    }

    func uniformLocation(_ p: GLuint, _ name: String) -> GLint {
        enter("glGetUniformLocation") ? glGetUniformLocation(p, name) : -1
    }

    func useProgram(_ p: GLuint) {
        guard p != boundProgram else { skipped(); return }
        if enter("glUseProgram") { glUseProgram(p); boundProgram = p }
    }

    func deleteProgram(_ p: GLuint) {
        if enter("glDeleteProgram") { glDeleteProgram(p); if boundProgram == p { boundProgram = 0 } }
    }

    func uniform1f(_ loc: GLint, _ v: Float) { if enter("glUniform1f") { glUniform1f(loc, v) } }
    func uniform2f(_ loc: GLint, _ a: Float, _ b: Float) { if enter("glUniform2f") { glUniform2f(loc, a, b) } }
    func uniform1i(_ loc: GLint, _ v: GLint) { if enter("glUniform1i") { glUniform1i(loc, v) } }
}
