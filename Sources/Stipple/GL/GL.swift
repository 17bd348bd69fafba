import CStipple
import Foundation

/// The only door to OpenGL ES in Stipple. Every method checks the context guard first
/// (right thread, right context current) and is not made when the guard fails; binds go
/// through a small state cache that skips what is already bound (sokol's way), and every
/// real call is counted, so tests and the benchmark can see what a frame costs.
final class GL {
    let context: GLContext

    /// What this context has done since it was made.
    struct Stats: Equatable, Sendable {
        var calls = 0          // GL entry points actually called
        var draws = 0          // glDrawArrays calls
        var bytesUploaded = 0  // vertex and texture bytes handed to GL
        var textureUploads = 0 // glTexImage2D / glTexSubImage2D calls
        var skippedBinds = 0   // binds the cache made unnecessary
    }
    private(set) var stats = Stats()

    // The state cache: what is bound now.
    private var boundProgram: GLuint = 0
    private var boundTexture: GLuint = 0
    private var boundArrayBuffer: GLuint = 0
    private var boundFramebuffer: GLuint = 0
    private var viewportSize = (0, 0)

    init(context: GLContext) { self.context = context }

    /// Forgets what the cache believes is bound (after code outside this layer used GL).
    func invalidateStateCache() {
        boundProgram = .max; boundTexture = .max; boundArrayBuffer = .max; boundFramebuffer = .max
        viewportSize = (-1, -1)
    }

    /// The guard: `false` (and the violation reported) when this thread may not call GL.
    @inline(__always)
    private func enter(_ call: StaticString) -> Bool {
        guard context.isCurrentHere() else {
            GLGuard.report(.init(call: "\(call)", reason: reason()))
            return false
        }
        stats.calls += 1
        return true
    }

    /// The once-a-frame check that EGL agrees with the guard's record.
    func checkContextStillCurrent() -> Bool {
        guard context.isCurrentInEGL() else {
            GLGuard.report(.init(call: "a frame", reason: "on the render thread, but EGL reports another context current there (something outside Stipple called eglMakeCurrent)"))
            return false
        }
        return true
    }

    private func reason() -> String {
        let thread = Thread.isMainThread ? "the main thread" : "thread '\(Thread.current.name ?? "unnamed")'"
        if context.owner == nil { return "from \(thread) before the render thread made its context current" }
        return "from \(thread), not from the render thread that owns this context"
    }

    // MARK: queries

    func getString(_ name: GLenum) -> String {
        guard enter("glGetString"), let s = glGetString(name) else { return "" }
        return String(cString: s)
    }

    func getInteger(_ name: GLenum, count: Int = 1) -> [GLint] {
        var v = [GLint](repeating: 0, count: max(count, 4))
        guard enter("glGetIntegerv") else { return Array(v.prefix(count)) }
        glGetIntegerv(name, &v)
        return Array(v.prefix(count))
    }

    func getFloat(_ name: GLenum, count: Int = 1) -> [GLfloat] {
        var v = [GLfloat](repeating: 0, count: max(count, 4))
        guard enter("glGetFloatv") else { return Array(v.prefix(count)) }
        glGetFloatv(name, &v)
        return Array(v.prefix(count))
    }

    /// Throws a `RenderError` naming `what` and the GL error, if one is pending.
    func checkError(_ what: @autoclosure () -> String) throws {
        guard enter("glGetError") else { return }
        let code = glGetError()
        if code != GLenum(GL_NO_ERROR) {
            throw RenderError("GL error \(String(cString: stp_gl_error_name(code))) after \(what())")
        }
    }

    func finish() { if enter("glFinish") { glFinish() } }

    // MARK: shaders and programs

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
        guard p != boundProgram else { stats.skippedBinds += 1; return }
        if enter("glUseProgram") { glUseProgram(p); boundProgram = p }
    }

    func deleteProgram(_ p: GLuint) {
        if enter("glDeleteProgram") { glDeleteProgram(p); if boundProgram == p { boundProgram = 0 } }
    }

    func uniform1f(_ loc: GLint, _ v: Float) { if enter("glUniform1f") { glUniform1f(loc, v) } }
    func uniform2f(_ loc: GLint, _ a: Float, _ b: Float) { if enter("glUniform2f") { glUniform2f(loc, a, b) } }
    func uniform1i(_ loc: GLint, _ v: GLint) { if enter("glUniform1i") { glUniform1i(loc, v) } }

    // MARK: textures

    func genTexture() -> GLuint {
        var t: GLuint = 0
        if enter("glGenTextures") { glGenTextures(1, &t) }
        return t
    }

    func deleteTexture(_ t: GLuint) {
        var t = t
        if enter("glDeleteTextures") { glDeleteTextures(1, &t); if boundTexture == t { boundTexture = 0 } }
    }

    func bindTexture(_ t: GLuint) {
        guard t != boundTexture else { stats.skippedBinds += 1; return }
        if enter("glBindTexture") { glBindTexture(GLenum(GL_TEXTURE_2D), t); boundTexture = t }
    }

    func texParameter(_ name: GLenum, _ value: GLint) {
        if enter("glTexParameteri") { glTexParameteri(GLenum(GL_TEXTURE_2D), name, value) }
    }

    func pixelStore(_ name: GLenum, _ value: GLint) { if enter("glPixelStorei") { glPixelStorei(name, value) } }

    /// glTexImage2D of the bound texture; `pixels` nil allocates without data.
    func texImage2D(format: GLenum, width: Int, height: Int, pixels: UnsafeRawPointer?, bytes: Int) {
        guard enter("glTexImage2D") else { return }
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GLint(format), GLsizei(width), GLsizei(height), 0,
                     format, GLenum(GL_UNSIGNED_BYTE), pixels)
        stats.textureUploads += 1
        if pixels != nil { stats.bytesUploaded += bytes }
    }

    /// glTexSubImage2D of the bound texture: a `width`×`height` block at (x, y).
    func texSubImage2D(x: Int, y: Int, width: Int, height: Int, format: GLenum, pixels: UnsafeRawPointer, bytes: Int) {
        guard enter("glTexSubImage2D") else { return }
        glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, GLint(x), GLint(y), GLsizei(width), GLsizei(height),
                        format, GLenum(GL_UNSIGNED_BYTE), pixels)
        stats.textureUploads += 1
        stats.bytesUploaded += bytes
    }

    // MARK: framebuffers

    func genFramebuffer() -> GLuint {
        var f: GLuint = 0
        if enter("glGenFramebuffers") { glGenFramebuffers(1, &f) }
        return f
    }

    func bindFramebuffer(_ f: GLuint) {
        guard f != boundFramebuffer else { stats.skippedBinds += 1; return }
        if enter("glBindFramebuffer") { glBindFramebuffer(GLenum(GL_FRAMEBUFFER), f); boundFramebuffer = f }
    }

    func framebufferTexture(_ t: GLuint) {
        if enter("glFramebufferTexture2D") {
            glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), t, 0)
        }
    }

    func framebufferStatus() -> GLenum {
        enter("glCheckFramebufferStatus") ? glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER)) : 0
    }

    func deleteFramebuffer(_ f: GLuint) {
        var f = f
        if enter("glDeleteFramebuffers") { glDeleteFramebuffers(1, &f); if boundFramebuffer == f { boundFramebuffer = 0 } }
    }

    // MARK: buffers and attributes

    func genBuffer() -> GLuint {
        var b: GLuint = 0
        if enter("glGenBuffers") { glGenBuffers(1, &b) }
        return b
    }

    func deleteBuffer(_ b: GLuint) {
        var b = b
        if enter("glDeleteBuffers") { glDeleteBuffers(1, &b); if boundArrayBuffer == b { boundArrayBuffer = 0 } }
    }

    func bindArrayBuffer(_ b: GLuint) {
        guard b != boundArrayBuffer else { stats.skippedBinds += 1; return }
        if enter("glBindBuffer") { glBindBuffer(GLenum(GL_ARRAY_BUFFER), b); boundArrayBuffer = b }
    }

    /// glBufferData on the bound array buffer; `data` nil allocates (orphans) without data.
    func bufferData(bytes: Int, data: UnsafeRawPointer?, usage: GLenum) {
        guard enter("glBufferData") else { return }
        glBufferData(GLenum(GL_ARRAY_BUFFER), GLsizeiptr(bytes), data, usage)
        if data != nil { stats.bytesUploaded += bytes }
    }

    func bufferSubData(offset: Int, bytes: Int, data: UnsafeRawPointer) {
        guard enter("glBufferSubData") else { return }
        glBufferSubData(GLenum(GL_ARRAY_BUFFER), GLintptr(offset), GLsizeiptr(bytes), data)
        stats.bytesUploaded += bytes
    }

    func enableAttribute(_ index: GLuint) { if enter("glEnableVertexAttribArray") { glEnableVertexAttribArray(index) } }
    func disableAttribute(_ index: GLuint) { if enter("glDisableVertexAttribArray") { glDisableVertexAttribArray(index) } }

    /// The value a disabled attribute array reads as.
    func constantAttribute(_ index: GLuint, _ value: Float) {
        if enter("glVertexAttrib1f") { glVertexAttrib1f(index, value) }
    }

    /// Points attribute `index` at `size` floats, `offset` bytes into each `stride`-byte vertex of the bound buffer.
    func attributePointer(_ index: GLuint, size: Int, stride: Int, offset: Int) {
        guard enter("glVertexAttribPointer") else { return }
        glVertexAttribPointer(index, GLint(size), GLenum(GL_FLOAT), GLboolean(GL_FALSE), GLsizei(stride),
                              UnsafeRawPointer(bitPattern: offset))
    }

    // MARK: drawing

    func viewport(_ width: Int, _ height: Int) {
        guard width != viewportSize.0 || height != viewportSize.1 else {
            stats.skippedBinds += 1; return
        }
        viewportSize = (width, height)
        if enter("glViewport") { glViewport(0, 0, GLsizei(width), GLsizei(height)) }
    }

    func clear(red: Float, green: Float, blue: Float, alpha: Float) {
        guard enter("glClearColor") else { return }
        glClearColor(red, green, blue, alpha)
        if enter("glClear") { glClear(GLbitfield(GL_COLOR_BUFFER_BIT)) }
    }

    func enable(_ cap: GLenum) { if enter("glEnable") { glEnable(cap) } }
    func disable(_ cap: GLenum) { if enter("glDisable") { glDisable(cap) } }

    func blendFunc(_ src: GLenum, _ dst: GLenum) { if enter("glBlendFunc") { glBlendFunc(src, dst) } }

    func drawArrays(_ mode: GLenum, first: Int, count: Int) {
        guard count > 0, enter("glDrawArrays") else { return }
        glDrawArrays(mode, GLint(first), GLsizei(count))
        stats.draws += 1
    }

    /// Reads a block of the bound framebuffer as 8-bit RGBA, bottom row first (GL's order).
    func readPixels(x: Int, y: Int, width: Int, height: Int, into buffer: UnsafeMutableRawPointer) {
        guard enter("glReadPixels") else { return }
        glReadPixels(GLint(x), GLint(y), GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), buffer)
    }
}
