/// Hooks that only the benchmark and the tests use: `package` access, so an application
/// linking Stipple never sees them.
extension Renderer {
    /// Runs C code that calls GL directly (the benchmark's C baseline) on this render
    /// thread, then forgets what the state cache believed: the C code bound its own objects.
    package func runForeignGL<T: Sendable>(_ body: @Sendable () throws -> T) rethrows -> T {
        try device.runForeign(body)
    }

    /// How the immediate path writes its buffers each frame.
    package func setBufferWrite(_ write: BufferWrite) { device.drawer.bufferWrite = write }
    package func setMergesLayers(_ on: Bool) { switches.mergesLayers = on }
    package func setKeepsLayerTargets(_ on: Bool) { switches.keepsLayerTargets = on }
    /// Whether brush modes' blurs (soften, sharpen, drop shadows) are worked out on the CPU
    /// and read whole by the final pass: on by default where the driver is a software
    /// rasterizer; off, the GPU's own passes blur, as tests compare.
    package func setBlursOnCPU(_ on: Bool) { device.modes.blursOnCPU = on }
    package var blursOnCPU: Bool { device.modes.blursOnCPU }

    /// The shader source as the renderer compiles it for `primitive` (stamps that do not
    /// turn their brush unless `turns`).
    package nonisolated func shaderSources(for primitive: Primitive, turns: Bool = false) throws -> (vertex: String, fragment: String) {
        let defines = FrameDrawer.defines(primitive, turns: turns)
        return (try ShaderProgram.source(file: "sketch.vert", defines: defines),
                try ShaderProgram.source(file: "sketch.frag", defines: defines))
    }
}
