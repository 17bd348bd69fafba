/// What a canvas starts as (docs/reference.md §5).
public enum CanvasBackground: Sendable, Equatable {
    case color(Color)
    /// An image of the canvas's size, straight alpha, rows top to bottom.
    case image(Image)
    /// An exact copy of a renderer's surface of the canvas's size (see `makeSurface`):
    /// a drawing session's backing layer, say.
    case surface(SurfaceID)
}

/// A canvas to draw on: its size in pixels and what it starts as.
public struct Canvas: Sendable, Equatable {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int
    /// What the canvas starts as: a colour, an image or a surface.
    public var background: CanvasBackground

    /// A `width` × `height` canvas over `background` (transparent unless given).
    public init(width: Int, height: Int, background: CanvasBackground = .color(.transparent)) {
        self.width = width; self.height = height; self.background = background
    }
}

/// Stamps drawn with one brush, in order (one `draw` entry of a script).
public struct StampBatch: Sendable, Equatable {
    /// Names the brush for the texture cache: the same key is uploaded once per renderer.
    package var brushKey: String
    /// The brush every stamp of the batch is drawn with.
    public var brush: Brush
    /// The stamps, in drawing order, ages as at frame 0 of the render.
    public var stamps: [SketchPoint]
    /// The brush's turn for each stamp (radians, clockwise on the canvas), or nil for upright.
    public var rotations: [Float]?
    /// How the batch meets the canvas (docs/brush-modes.md); nil: stamp by stamp.
    public var mode: StrokeMode?
    /// Where "detect edges" picks its reference, and the reference once known.
    package var edgeAnchor: EdgeAnchor?
    package var edgeReference: EdgeReference?

    package init(brushKey: String, brush: Brush, stamps: [SketchPoint], rotations: [Float]? = nil) {
        precondition(rotations == nil || rotations!.count == stamps.count, "one rotation a stamp")
        self.brushKey = brushKey; self.brush = brush; self.stamps = stamps; self.rotations = rotations
    }
}

/// How a frame is drawn.
public struct RenderSettings: Sendable, Equatable {
    /// How stamps age: lifetime, drift and scale.
    public var effects: AgeEffects
    /// Point sprites (the default) or quads: see ``Primitive``.
    public var primitive: Primitive

    /// Settings with `effects` (no ageing by default) drawn as `primitive`.
    public init(effects: AgeEffects = AgeEffects(), primitive: Primitive = .points) {
        self.effects = effects; self.primitive = primitive
    }
}

/// What the driver is and can do (`stipple info`).
public struct RendererInfo: Sendable, Equatable {
    /// The EGL platform in use: GBM, device or surfaceless.
    public var platform: EGLPlatform
    /// Why that platform was chosen (forced, a render node found, a fallback).
    public var platformReason: String
    /// EGL's version string.
    public var eglVersion: String
    /// EGL's vendor string.
    public var eglVendor: String
    /// The DRM device or render node opened, or "" without one.
    public var device: String
    /// The GL vendor string.
    public var glVendor: String
    /// The GL renderer string: the driver, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
    public var glRenderer: String
    /// The OpenGL ES version string.
    public var glVersion: String
    /// The GLSL ES version string.
    public var glslVersion: String
    /// The smallest and largest point sizes the driver draws, pixels.
    public var pointSizeRange: ClosedRange<Float>
    /// The largest texture side the driver takes, pixels.
    public var maxTextureSize: Int
    /// The largest viewport the driver takes, pixels.
    public var maxViewport: (width: Int, height: Int)

    /// The largest target side the driver takes: its texture limit, and a viewport whose side
    /// is a power of two holding the target (stamps are placed through such a viewport).
    public var maxCanvasSide: (width: Int, height: Int) {
        (min(maxTextureSize, RendererInfo.powerOfTwo(atMost: maxViewport.width)),
         min(maxTextureSize, RendererInfo.powerOfTwo(atMost: maxViewport.height)))
    }

    static func powerOfTwo(atMost n: Int) -> Int {
        var p = 1
        while p * 2 <= n { p *= 2 }
        return p
    }

    /// Two descriptions of the same driver: platform, renderer, version and limits agree
    /// (vendor strings and the reason for the platform may differ).
    public static func == (a: RendererInfo, b: RendererInfo) -> Bool {
        a.platform == b.platform && a.glRenderer == b.glRenderer && a.glVersion == b.glVersion
            && a.pointSizeRange == b.pointSizeRange && a.maxTextureSize == b.maxTextureSize
            && a.maxViewport == b.maxViewport
    }
}

/// GL work counted by the renderer since it was made: what a frame costs.
public struct RenderStatistics: Sendable, Equatable {
    /// GL calls made.
    public var glCalls: Int
    /// Draw calls made.
    public var drawCalls: Int
    /// Bytes of vertex data uploaded.
    public var bytesUploaded: Int
    /// Brush textures uploaded.
    public var textureUploads: Int
    /// Binds the state cache left out because the state was already set.
    public var skippedBinds: Int
}
