/// Views of a frame (docs/views.md): the canvas is drawn in tiles covering only the view's
/// rectangle (widened to whole blocks of its pyramid level), and the rows are reduced as the
/// bands arrive, so work and memory follow the region, never the canvas.
extension Renderer {
    /// The view's pixels of frame `frame`: `view.outputWidth` × `view.outputHeight`.
    /// Throws when the view's image, or its level's region, is more than one image in memory
    /// holds (`maxImagePixels`): write such a view with `writePNG(_:frame:view:to:…)`.
    public nonisolated func render(_ scene: Scene, frame: Int, view: View, primitive: Primitive = .points) async throws -> Image {
        try Self.checkView(view, of: scene)
        let area = view.canvasArea
        let levelWidth = (area.width + (1 << view.level) - 1) >> view.level
        let levelHeight = (area.height + (1 << view.level) - 1) >> view.level
        try Self.checkImageBudget(Canvas(width: levelWidth, height: levelHeight))
        var level: [UInt8] = []
        level.reserveCapacity(levelWidth * levelHeight * 4)
        try await viewRows(scene, frame: frame, view: view, primitive: primitive) { rows in level.append(contentsOf: rows) }
        if view.isLevelCrop {
            return Image(width: view.outputWidth, height: view.outputHeight, premultiplied: level)
        }
        let unit = Double(1 << view.level)
        let spanX = View.levelSpan(view.x, view.width, view.canvasWidth, view.level)
        let spanY = View.levelSpan(view.y, view.height, view.canvasHeight, view.level)
        let (ox, oy) = (Double(area.x0) / unit, Double(area.y0) / unit)
        let xs = BoxWeights(start: spanX.lowerBound - ox, end: spanX.upperBound - ox, outputs: view.outputWidth, extent: levelWidth)
        let ys = BoxWeights(start: spanY.lowerBound - oy, end: spanY.upperBound - oy, outputs: view.outputHeight, extent: levelHeight)
        return Image(width: view.outputWidth, height: view.outputHeight,
                     premultiplied: BoxWeights.resample(level, width: levelWidth, height: levelHeight, xs: xs, ys: ys))
    }

    /// The view's pixels drawn over `base`, what the view showed before: `scene` holds only
    /// the entries drawn since, and they are blended over `base` exactly as a render of
    /// everything blends them after the entries before (stamp by stamp, in order), so the
    /// result is the render of the whole drawing at a fraction of its cost. For a view of
    /// whole canvas pixels (scale 1) whose entries meet the canvas stamp by stamp.
    package nonisolated func render(_ scene: Scene, frame: Int, view: View, over base: Image) async throws -> Image {
        try Self.checkView(view, of: scene)
        guard view.level == 0, view.isLevelCrop, base.width == view.outputWidth, base.height == view.outputHeight else {
            throw RenderError("a view drawn over its pixels is of whole canvas pixels, the size of those pixels")
        }
        guard !scene.batches.contains(where: { $0.mode != nil }) else {
            throw RenderError("stroke layers read the canvas around them: a view with them is drawn whole")
        }
        var tiled = try await planTiles(scene, frame: frame, primitive: .points, tile: nil, area: view.canvasArea)
        tiled.base = base
        var pixels: [UInt8] = []
        pixels.reserveCapacity(base.pixels.count)
        try await eachBand(of: tiled) { rows in pixels.append(contentsOf: rows) }
        return Image(width: base.width, height: base.height, premultiplied: pixels)
    }

    /// Writes the view of frame `frame` to the PNG at `path`, whole or not at all. A view of
    /// whole pixels of its level (any scale 1/2^k on a rectangle of whole blocks, scale 1
    /// anywhere) is streamed band by band, in the memory of a band whatever its size.
    public nonisolated func writePNG(_ scene: Scene, frame: Int, view: View, to path: String, primitive: Primitive = .points,
                                     compression: Int = Int(PNGFile.defaultCompression)) async throws {
        guard (0...9).contains(compression) else { throw RenderError("a PNG compression level is 0 to 9 (got \(compression))") }
        try Self.checkView(view, of: scene)
        guard view.isLevelCrop else {
            let image = try await render(scene, frame: frame, view: view, primitive: primitive)
            return try PNGFile.write(image, to: path, compression: Int32(compression))
        }
        let writer = try PNGBandWriter(path: path, width: view.outputWidth, height: view.outputHeight,
                                       compression: Int32(compression))
        do {
            try await viewRows(scene, frame: frame, view: view, primitive: primitive) { row in
                var copy = Array(row)  // the writer un-premultiplies in place
                try writer.write(premultiplied: &copy)
            }
            try writer.finish()
        } catch {
            writer.abandon()
            throw error
        }
    }

    static func checkView(_ view: View, of scene: Scene) throws {
        guard view.canvasWidth == scene.canvas.width, view.canvasHeight == scene.canvas.height else {
            throw RenderError("the view is of a \(view.canvasWidth)×\(view.canvasHeight) canvas, the script's is "
                              + "\(scene.canvas.width)×\(scene.canvas.height)")
        }
    }

    /// Draws the view's area band by band (the next band drawn while this one is reduced)
    /// and hands its level's rows to `take`, one at a time, top to bottom.
    nonisolated func viewRows(_ scene: Scene, frame: Int, view: View, primitive: Primitive,
                              take: (UnsafeRawBufferPointer) throws -> Void) async throws {
        try await levelRows(scene, frame: frame, area: view.canvasArea, levels: view.level, primitive: primitive) { level, row in
            if level == view.level { try take(row) }
        }
    }

    /// Draws `area` of frame `frame` band by band and hands every row of every pyramid level
    /// from 0 (the canvas) to `levels` to `take(level, row)`, each level top to bottom.
    nonisolated func levelRows(_ scene: Scene, frame: Int, area: PixelBox, levels: Int, primitive: Primitive,
                               tile: Int? = nil, bandDone: (Int, Int) -> Void = { _, _ in },
                               take: (Int, UnsafeRawBufferPointer) throws -> Void) async throws {
        let tiled = try await planTiles(scene, frame: frame, primitive: primitive, tile: tile, area: area)
        var chain = PyramidRows(width: area.width, levels: levels)
        let rowBytes = area.width * 4
        try await eachBand(of: tiled, bandDone: bandDone) { rows in
            try rows.withUnsafeBytes { all in
                for r in 0..<(all.count / rowBytes) {
                    try chain.push(UnsafeRawBufferPointer(rebasing: all[(r * rowBytes)..<((r + 1) * rowBytes)]), emit: take)
                }
            }
        }
        try chain.finish(emit: take)
    }
}
