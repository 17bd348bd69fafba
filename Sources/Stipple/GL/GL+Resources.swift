import CStipple

/// Textures, framebuffers and buffers: the objects GL owns, and their binds.
extension GL {
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
        guard t != boundTexture else { skipped(); return }
        if enter("glBindTexture") { glBindTexture(GLenum(GL_TEXTURE_2D), t); boundTexture = t }
    }

    func texParameter(_ name: GLenum, _ value: GLint) {
        if enter("glTexParameteri") { glTexParameteri(GLenum(GL_TEXTURE_2D), name, value) }
    }

    func pixelStore(_ name: GLenum, _ value: GLint) { if enter("glPixelStorei") { glPixelStorei(name, value) } }

    /// glTexImage2D of the bound texture; `pixels` nil allocates without data.
    /// `internalFormat`: where it differs from `format` (a sized format of OpenGL ES 3).
    func texImage2D(format: GLenum, internalFormat: GLenum? = nil, width: Int, height: Int, pixels: UnsafeRawPointer?,
                    bytes: Int) {
        guard enter("glTexImage2D") else { return }
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GLint(internalFormat ?? format), GLsizei(width), GLsizei(height), 0,
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
        guard f != boundFramebuffer else { skipped(); return }
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

    // MARK: buffers

    func genBuffer() -> GLuint {
        var b: GLuint = 0
        if enter("glGenBuffers") { glGenBuffers(1, &b) }
        return b
    }

    func deleteBuffer(_ b: GLuint) {
        var b = b
        guard enter("glDeleteBuffers") else { return }
        glDeleteBuffers(1, &b)
        if boundArrayBuffer == b { boundArrayBuffer = 0 }
        // GL unbinds a deleted buffer from the attributes that used it; so does the cache.
        for (index, var state) in attributes where state.pointer?.buffer == b {
            state.pointer = nil
            attributes[index] = state
        }
    }

    func bindArrayBuffer(_ b: GLuint) {
        guard b != boundArrayBuffer else { skipped(); return }
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
}
