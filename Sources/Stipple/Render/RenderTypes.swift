/// What a canvas starts as (docs/reference.md §5).
public enum CanvasBackground: Sendable, Equatable {
    case color(Color)
    /// An image of the canvas's size, straight alpha, rows top to bottom.
    case image(Image)
    /// An exact copy of a renderer's surface of the canvas's size (see `makeSurface`):
    /// a drawing session's backing layer, say.
    case surface(SurfaceID)
}

public struct Canvas: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var background: CanvasBackground

    public init(width: Int, height: Int, background: CanvasBackground = .color(.transparent)) {
        self.width = width; self.height = height; self.background = background
    }
}

/// Stamps drawn with one brush, in order (one `draw` entry of a script).
public struct StampBatch: Sendable, Equatable {
    /// Names the brush for the texture cache: the same key is uploaded once per renderer.
    package var brushKey: String
    public var brush: Brush
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
    public var effects: AgeEffects
    public var primitive: Primitive

    public init(effects: AgeEffects = AgeEffects(), primitive: Primitive = .points) {
        self.effects = effects; self.primitive = primitive
    }
}

/// What the driver is and can do (`stipple info`).
public struct RendererInfo: Sendable, Equatable {
    public var platform: EGLPlatform
    public var platformReason: String
    public var eglVersion: String
    public var eglVendor: String
    public var device: String
    public var glVendor: String
    public var glRenderer: String
    public var glVersion: String
    public var glslVersion: String
    public var pointSizeRange: ClosedRange<Float>
    public var maxTextureSize: Int
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

    public static func == (a: RendererInfo, b: RendererInfo) -> Bool {
        a.platform == b.platform && a.glRenderer == b.glRenderer && a.glVersion == b.glVersion
            && a.pointSizeRange == b.pointSizeRange && a.maxTextureSize == b.maxTextureSize
            && a.maxViewport == b.maxViewport
    }
}

/// GL work counted by the renderer since it was made: what a frame costs.
public struct RenderStatistics: Sendable, Equatable {
    public var glCalls: Int
    public var drawCalls: Int
    public var bytesUploaded: Int
    public var textureUploads: Int
    public var skippedBinds: Int
}
