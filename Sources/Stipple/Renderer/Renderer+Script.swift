extension Scene {
    /// Reads, validates and loads the script at `path` (brushes decoded, background read).
    public static func load(path: String) throws -> Scene {
        try Scene(script: try Script.load(path: path))
    }
}

extension Renderer {
    /// Renders frame `frame` of a loaded script: the one way the command line, the golden
    /// runner and `StippleTesting` turn a script into an image. A canvas larger than the
    /// driver can hold is drawn in tiles (the same pixels), into one image in memory; one
    /// over `Renderer.maxImagePixels` is refused: `writePNG(_:frame:to:)` streams it to a file.
    public func render(_ scene: Scene, frame: Int, primitive: Primitive = .points) throws -> Image {
        try Renderer.checkImageBudget(scene.canvas)
        if let image = try renderInTilesWhenTooLarge(scene, frame: frame, primitive: primitive) { return image }
        return try render(canvas: scene.canvas, batches: resolvedBatches(scene, atFrame: frame, primitive: primitive),
                          settings: RenderSettings(effects: scene.effects, primitive: primitive))
    }
}
