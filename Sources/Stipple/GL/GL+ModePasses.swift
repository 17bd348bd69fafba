import CStipple

/// The GL calls only the brush-mode passes make: a scissor box, several texture units,
/// four-component uniforms and arrays of them.
extension GL {
    func scissor(x: Int, y: Int, width: Int, height: Int) {
        if enter("glScissor") { glScissor(GLint(x), GLint(y), GLsizei(width), GLsizei(height)) }
    }

    /// Binds `textures` to units 0, 1, …, leaving unit 0 active (the unit every other draw
    /// uses) and the state cache true to it.
    func bindTextureUnits(_ textures: [GLuint]) {
        for (unit, t) in textures.enumerated().reversed() where unit > 0 {
            guard enter("glActiveTexture") else { return }
            glActiveTexture(GLenum(GL_TEXTURE0) + GLenum(unit))
            if enter("glBindTexture") { glBindTexture(GLenum(GL_TEXTURE_2D), t) }
        }
        if enter("glActiveTexture") { glActiveTexture(GLenum(GL_TEXTURE0)) }
        if let first = textures.first { bindTexture(first) }
    }

    /// Copies a block of the bound framebuffer into the same place of the bound texture.
    func copyToBoundTexture(x: Int, y: Int, width: Int, height: Int) {
        guard width > 0, height > 0, enter("glCopyTexSubImage2D") else { return }
        glCopyTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, GLint(x), GLint(y), GLint(x), GLint(y), GLsizei(width), GLsizei(height))
    }

    func uniform4f(_ loc: GLint, _ a: Float, _ b: Float, _ c: Float, _ d: Float) {
        if enter("glUniform4f") { glUniform4f(loc, a, b, c, d) }
    }

    /// Sets a uniform array of floats from its first element on.
    func uniform1fv(_ loc: GLint, _ values: [Float]) {
        if enter("glUniform1fv") { values.withUnsafeBufferPointer { glUniform1fv(loc, GLsizei($0.count), $0.baseAddress) } }
    }
}
