import CStipple

/// Fixed-function state, attributes, drawing and read-back. Every setter goes through the
/// state cache: setting what is already set makes no GL call.
extension GL {
    // MARK: state

    func viewport(_ width: Int, _ height: Int) {
        guard width != viewportSize.0 || height != viewportSize.1 else { skipped(); return }
        viewportSize = (width, height)
        if enter("glViewport") { glViewport(0, 0, GLsizei(width), GLsizei(height)) }
    }

    func clear(red: Float, green: Float, blue: Float, alpha: Float) {
        if let c = clearColor, c == (red, green, blue, alpha) {
            skipped()
        } else {
            guard enter("glClearColor") else { return }
            glClearColor(red, green, blue, alpha)
            clearColor = (red, green, blue, alpha)
        }
        if enter("glClear") { glClear(GLbitfield(GL_COLOR_BUFFER_BIT)) }
    }

    func enable(_ cap: GLenum) { set(cap, on: true) }
    func disable(_ cap: GLenum) { set(cap, on: false) }

    private func set(_ cap: GLenum, on: Bool) {
        guard capabilities[cap] != on else { skipped(); return }
        guard on ? enter("glEnable") : enter("glDisable") else { return }
        if on { glEnable(cap) } else { glDisable(cap) }
        capabilities[cap] = on
    }

    func blendFunc(_ src: GLenum, _ dst: GLenum) {
        if let b = blend, b == (src, dst) { skipped(); return }
        if enter("glBlendFunc") { glBlendFunc(src, dst); blend = (src, dst) }
    }

    /// The state every stamp draw expects: premultiplied OVER (docs/reference.md §4), nothing else on
    /// — but the scissor, when `scissored` (a kept sketch drawn again in boxes).
    func setStampBlending(scissored: Bool = false) {
        disable(GLenum(GL_DITHER))
        disable(GLenum(GL_DEPTH_TEST))
        if !scissored { disable(GLenum(GL_SCISSOR_TEST)) }
        enable(GLenum(GL_BLEND))
        blendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
    }

    // MARK: attributes

    /// Points attribute `index` at `size` floats, `offset` bytes into each `stride`-byte
    /// vertex of the bound array buffer, and turns its array on.
    func attributePointer(_ index: GLuint, size: Int, stride: Int, offset: Int) {
        var state = attributes[index] ?? AttributeState()
        if !state.enabled, enter("glEnableVertexAttribArray") {
            glEnableVertexAttribArray(index)
            state.enabled = true
        } else if state.enabled {
            skipped()
        }
        let pointer = AttributeState.Pointer(buffer: boundArrayBuffer, size: size, stride: stride, offset: offset)
        if state.pointer == pointer {
            skipped()
        } else if enter("glVertexAttribPointer") {
            glVertexAttribPointer(index, GLint(size), GLenum(GL_FLOAT), GLboolean(GL_FALSE), GLsizei(stride),
                                  UnsafeRawPointer(bitPattern: offset))
            state.pointer = pointer
        }
        attributes[index] = state
    }

    /// Turns attribute `index`'s array off; it then reads as `constant` when one is given.
    func constantAttribute(_ index: GLuint, _ constant: Float? = nil) {
        var state = attributes[index] ?? AttributeState(enabled: true)
        if state.enabled, enter("glDisableVertexAttribArray") {
            glDisableVertexAttribArray(index)
            state.enabled = false
        } else if !state.enabled {
            skipped()
        }
        if let constant {
            if state.constant == constant {
                skipped()
            } else if enter("glVertexAttrib1f") {
                glVertexAttrib1f(index, constant)
                state.constant = constant
            }
        }
        attributes[index] = state
    }

    // MARK: drawing

    func drawArrays(_ mode: GLenum, first: Int, count: Int) {
        guard count > 0, enter("glDrawArrays") else { return }
        glDrawArrays(mode, GLint(first), GLsizei(count))
        stats.draws += 1
    }

    func drawPoints(first: Int, count: Int) { drawArrays(GLenum(GL_POINTS), first: first, count: count) }
    func drawTriangles(first: Int, count: Int) { drawArrays(GLenum(GL_TRIANGLES), first: first, count: count) }

    /// Reads a block of the bound framebuffer as 8-bit RGBA (or `format`: GL_RED), bottom row
    /// first (GL's order).
    func readPixels(x: Int, y: Int, width: Int, height: Int, into buffer: UnsafeMutableRawPointer,
                    format: GLenum = GLenum(GL_RGBA)) {
        guard enter("glReadPixels") else { return }
        glReadPixels(GLint(x), GLint(y), GLsizei(width), GLsizei(height), format, GLenum(GL_UNSIGNED_BYTE), buffer)
    }

    /// Copies a `width`×`height` block of the bound framebuffer into the bound texture,
    /// both from their origin: exact, byte for byte.
    func copyToBoundTexture(width: Int, height: Int) {
        guard enter("glCopyTexSubImage2D") else { return }
        glCopyTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, 0, 0, GLsizei(width), GLsizei(height))
    }
}

extension GL {
    /// The blend equation (GL_FUNC_ADD unless a draw sets another and puts it back).
    func blendEquation(_ mode: GLenum) {
        if enter("glBlendEquation") { glBlendEquation(mode) }
    }
}
