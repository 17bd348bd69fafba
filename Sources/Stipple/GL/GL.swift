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
    var stats = Stats()

    // The state cache: what is bound and set now. A call that would set what is already
    // set is skipped and counted, so a frame drawn twice makes no redundant GL call.
    var boundProgram: GLuint = 0
    var boundTexture: GLuint = 0
    var boundArrayBuffer: GLuint = 0
    var boundFramebuffer: GLuint = 0
    var viewportSize = (0, 0)
    var capabilities: [GLenum: Bool] = [:]
    var blend: (GLenum, GLenum)?
    var clearColor: (Float, Float, Float, Float)?
    /// Per attribute index: whether its array is on, and where it points.
    var attributes: [GLuint: AttributeState] = [:]

    struct AttributeState: Equatable {
        var enabled = false
        var pointer: Pointer?
        var constant: Float?
        struct Pointer: Equatable { var buffer: GLuint, size: Int, stride: Int, offset: Int }
    }

    init(context: GLContext) { self.context = context }

    /// Forgets what the cache believes is bound (after code outside this layer used GL).
    func invalidateStateCache() {
        boundProgram = .max; boundTexture = .max; boundArrayBuffer = .max; boundFramebuffer = .max
        viewportSize = (-1, -1)
        capabilities = [:]; blend = nil; clearColor = nil; attributes = [:]
    }

    /// Counts a call the cache made unnecessary.
    @inline(__always)
    func skipped() { stats.skippedBinds += 1 }

    /// The guard: `false` (and the violation reported) when this thread may not call GL.
    @inline(__always)
    func enter(_ call: StaticString) -> Bool {
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

    /// Whether the context is OpenGL ES 3 or later (Mesa gives the newest it has to a context
    /// asked for ES 2).
    var isES3: Bool { getString(GLenum(GL_VERSION)).hasPrefix("OpenGL ES 3") }

    /// ES 3, or ES 2 with the extension `name`: what a feature of ES 3 that ES 2 has as an
    /// extension needs.
    func hasES3(orExtension name: String) -> Bool {
        isES3 || getString(GLenum(GL_EXTENSIONS)).split(separator: " ").contains(Substring(name))
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
}
