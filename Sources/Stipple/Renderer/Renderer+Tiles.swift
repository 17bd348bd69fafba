/// A frame cut into tiles, planned on the CPU: the canvas, its stamps binned to the tiles
/// they can touch, and the apron every tile is drawn with. `Renderer.renderBand` draws one
/// row of tiles (a band of full-width rows) at a time, so a canvas far beyond the driver's
/// texture limit, or beyond memory, is drawn piece by piece.
package struct TiledFrame: Sendable {
    package let canvas: Canvas
    let batches: [StampBatch]
    let settings: RenderSettings
    let ageOffset: Float
    let grid: TileGrid
    /// The widest apron of any tile: pixels drawn around a tile and thrown away, wide enough
    /// that every stamp that touches the tile is drawn the way a one-pass render draws it,
    /// and that anything reading past the tile's edge finds what the one-pass render would.
    let apron: Int
    /// What the frame's stroke layers change and how far they read, for each tile's apron.
    let reaches: PassReaches
    let bins: TileBins
    /// Pixels of the area drawn already (straight alpha, the area's size): each tile starts
    /// as its part of them, not as the background, and only the batches drawn since are
    /// drawn over it (`Renderer.render(_:frame:view:over:)`).
    var base: Image?

    /// Bands (rows of tiles), top to bottom.
    package var bandCount: Int { grid.rows }
    /// The canvas rows of band `n`.
    package func rows(ofBand n: Int) -> Range<Int> { grid.band(n) }
    package var tileWidth: Int { grid.tileWidth }
    package var tileHeight: Int { grid.tileHeight }
}

extension Renderer {
    /// The canvas size a one-pass render is used up to when no tile size is asked for:
    /// past it, an image is drawn and written band by band (bit-identical, less memory, and
    /// faster: the PNG encoder works while the next band is drawn; measured at 8192²: 1.1 s
    /// and 0.26 GB streamed against 2.0 s and 0.94 GB in one pass).
    package static let onePassPixels = 4096 * 4096
    /// The most bytes a band of a tiled render holds by default (its rows, full width): a
    /// streamed render holds two (one drawn while the other is encoded).
    package static let bandBytes = 64 << 20

    /// Half the widest point any stamp of `batches` can be drawn as, plus rounding: a point
    /// that touches a pixel is then centred inside a target with this much around the pixel,
    /// and drawn as in one pass (stamps wider than a point are quads, which need none).
    nonisolated func pointApron(for batches: [StampBatch], effects: AgeEffects = AgeEffects()) -> Int {
        var widest: Float = 0
        for batch in batches {
            for p in batch.stamps where p.radius.isFinite { widest = max(widest, p.radius) }
        }
        let half = min(widest * abs(effects.pointScale) * (effects.maxAge > 0 ? 2 : 1), info.pointSizeRange.upperBound / 2)
        return half.isFinite ? Int(half.rounded(.up)) + 2 : Int((info.pointSizeRange.upperBound / 2).rounded(.up)) + 2
    }

    /// The apron tiles of `batches` are drawn with: the points' apron, plus `cone`, how far
    /// the stroke layers that reach a tile read past it (`PassReaches.cone`, or its widest).
    nonisolated func apron(for batches: [StampBatch], effects: AgeEffects = AgeEffects(), cone: Int = 0) -> Int {
        pointApron(for: batches, effects: effects) + cone
    }

    /// The largest tile side the driver holds with `apron` around it, and `spill` more for
    /// the mode passes' own targets.
    package nonisolated func largestTile(apron: Int, spill: Int = 0) -> (width: Int, height: Int) {
        let side = info.maxCanvasSide
        return (max(1, side.width - 2 * (apron + spill)), max(1, side.height - 2 * (apron + spill)))
    }

    /// True when `canvas` with `batches` is drawn in tiles: asked for (`tile`), too large for
    /// the driver (with what the mode passes' targets spill around it), or larger than
    /// `onePassPixels`.
    package nonisolated func needsTiles(_ canvas: Canvas, batches: [StampBatch], tile: Int?) -> Bool {
        tile != nil || tooLargeForOnePass(canvas, spill: FramePasses(batches).spill)
            || canvas.width * canvas.height > Renderer.onePassPixels
    }

    /// True when the driver cannot hold `canvas` as one target, with `spill` around it.
    nonisolated func tooLargeForOnePass(_ canvas: Canvas, spill: Int) -> Bool {
        let side = info.maxCanvasSide
        return canvas.width + 2 * spill > side.width || canvas.height + 2 * spill > side.height
    }

    /// Plans `batches` over `canvas` in tiles of `tile` × `tile` (clamped to what the driver
    /// holds), or by default as wide as the driver allows; a band (a row of tiles, full
    /// width) stays within `bandBytes` whatever `tile` says. A tile is drawn at least four times
    /// as wide as the stroke layers read past it, so a small `tile` on a blurred script costs
    /// no more than a few one-pass renders (tile size never shows in the image). Throws for
    /// a tile side below 1.
    package nonisolated func planTiles(canvas: Canvas, batches: [StampBatch], settings: RenderSettings = RenderSettings(),
                                       ageOffset: Float = 0, tile: Int? = nil) throws -> TiledFrame {
        try planTiles(canvas: canvas, batches: batches, settings: settings, ageOffset: ageOffset, tile: tile, area: nil)
    }

    /// As above, the tiles covering only `area` of the canvas (a view's), when given.
    nonisolated func planTiles(canvas: Canvas, batches: [StampBatch], settings: RenderSettings,
                               ageOffset: Float, tile: Int?, area: PixelBox?) throws -> TiledFrame {
        guard canvas.width >= 1, canvas.height >= 1 else { throw RenderError("an empty canvas has no tiles") }
        if case .surface = canvas.background { throw RenderError("a tiled canvas cannot start as a surface") }
        if let tile, tile < 1 { throw RenderError("a tile is at least 1 pixel wide (got \(tile))") }
        let reaches = PassReaches(batches, settings: settings, ageOffset: ageOffset, canvas: canvas)
        var apron = apron(for: batches, effects: settings.effects, cone: reaches.widestCone)
        let spill = FramePasses(batches).spill
        let most = largestTile(apron: apron, spill: spill)
        let bandRows = max(1, Renderer.bandBytes / ((area?.width ?? canvas.width) * 4))
        let least = 4 * reaches.widestCone
        let side = info.maxCanvasSide
        let width: Int, height: Int
        if 2 * (apron + spill) + min(least, canvas.width, canvas.height) > min(side.width, side.height) {
            // Layers that read far, chained across the canvas: no tile with that apron fits the
            // driver. A canvas that fits it is drawn as one tile (reads stop at its edges).
            guard !tooLargeForOnePass(canvas, spill: spill) else {
                throw RenderError("the stroke layers read up to \(reaches.widestCone) pixels around a tile, and a "
                    + "\(canvas.width)×\(canvas.height) canvas is more than one target of the driver "
                    + "(\(side.width)×\(side.height)) holds: draw fewer overlapping shadows or blurs")
            }
            let room = (min(side.width, side.height) - max(canvas.width, canvas.height)) / 2 - spill
            apron = max(guardBand(for: canvas), min(pointApron(for: batches, effects: settings.effects), max(0, room)))
            (width, height) = (canvas.width, canvas.height)
        } else if let tile {
            width = min(max(tile, least), most.width)
            height = min(max(tile, least), most.height, bandRows)
        } else {
            width = most.width
            height = min(most.height, max(64, bandRows))
        }
        let grid = TileGrid(canvasWidth: canvas.width, canvasHeight: canvas.height, tileWidth: width, tileHeight: height,
                            area: area)
        guard grid.count <= TileBins.maxTiles else {
            throw RenderError("tiles of \(width)×\(height) cut a \(canvas.width)×\(canvas.height) canvas into \(grid.count) tiles; "
                + "at most \(TileBins.maxTiles) are drawn: give a larger --tile")
        }
        let bins = TileBins(grid: grid, batches: batches, reach: StampReach(effects: settings.effects), apron: apron)
        return TiledFrame(canvas: canvas, batches: batches, settings: settings, ageOffset: ageOffset, grid: grid,
                          apron: apron, reaches: reaches, bins: bins)
    }

    /// Draws band `n` of `frame` tile by tile and returns its rows: premultiplied RGBA, the
    /// width of the tiled area (the canvas, unless a view asked for less), top to bottom.
    /// `tileDone` is called after each tile.
    package func renderBand(_ frame: TiledFrame, _ n: Int, tileDone: @Sendable () -> Void = {}) throws -> [UInt8] {
        let grid = frame.grid
        let rows = grid.band(n)
        let rowBytes = grid.area.width * 4
        var band = [UInt8](unsafeUninitializedCapacity: rowBytes * rows.count) { _, count in count = rowBytes * rows.count }
        for column in 0..<grid.columns {
            let rect = grid.rect(column: column, row: n)
            let batches = frame.bins.batches(frame.batches, column: column, row: n)
            let box = rect.box
            let cone = frame.reaches.cone(box)
            // Rounded up to 32 px (at most the widest), so neighbouring tiles share a target.
            let apron = frame.reaches.isEmpty ? frame.apron
                : min(frame.apron, (apron(for: batches, effects: frame.settings.effects, cone: cone) + 31) / 32 * 32)
            let fill = try frame.base.map { Self.baseFill($0, of: grid.area, rect, apron: apron) } ?? tileFill(frame.canvas, rect, apron: apron)
            let target = try device.beginTile(width: grid.tileWidth, height: grid.tileHeight, apron: apron,
                                              originX: rect.x, originY: rect.y, fill: fill)
            try drawPasses(batches, canvas: frame.canvas, settings: frame.settings, ageOffset: frame.ageOffset,
                           into: target, exact: box.grown(x: cone, y: cone))
            try band.withUnsafeMutableBytes {
                try device.readTile(target, width: rect.width, height: rect.height, into: $0, rowBytes: rowBytes,
                                    row: 0, column: rect.x - grid.area.x0)
            }
            tileDone()
        }
        // The last band frees the tile's and the mode passes' targets: a streamed render ends here.
        if n == frame.bandCount - 1 { device.endTiles() }
        return band
    }

    /// `scene` at `frame` drawn in tiles into one image when the driver cannot hold its
    /// canvas in one pass; nil when it can.
    func renderInTilesWhenTooLarge(_ scene: Scene, frame: Int, primitive: Primitive) throws -> Image? {
        guard tooLargeForOnePass(scene.canvas, spill: FramePasses(scene.batches).spill) else { return nil }
        let settings = RenderSettings(effects: scene.effects, primitive: primitive)
        return try renderTiled(planTiles(canvas: scene.canvas, batches: resolvedBatches(scene, atFrame: frame,
                                         primitive: primitive), settings: settings))
    }

    /// Draws `frame` whole, band by band, into one image (for canvases that fit in memory).
    package func renderTiled(_ frame: TiledFrame) throws -> Image {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(frame.canvas.width * frame.canvas.height * 4)
        defer { device.endTiles() }
        for n in 0..<frame.bandCount { pixels.append(contentsOf: try renderBand(frame, n)) }
        return Image(width: frame.canvas.width, height: frame.canvas.height, premultiplied: pixels)
    }

    /// What tile `rect`'s target starts as over `base`, the pixels of `area` drawn already:
    /// their part under the tile, premultiplied as a frame holds them (an image of
    /// premultiplied pixels made straight and premultiplied again gives back the same bytes:
    /// `Image`'s rounding undoes `(c·a + 127) / 255` exactly for every c ≤ a). The apron
    /// starts transparent: only the tile's own pixels are read back.
    static func baseFill(_ base: Image, of area: PixelBox, _ rect: TileRect, apron: Int) -> TileFill {
        .region(pixels: premultiplied(base, x: rect.x - area.x0, y: rect.y - area.y0, width: rect.width, height: rect.height),
                x: apron, y: apron, width: rect.width, height: rect.height)
    }

    /// The `width` × `height` pixels of `image` from (`x`, `y`), premultiplied as a frame
    /// holds them: `(c·a + 127) / 255`.
    static func premultiplied(_ image: Image, x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
        var region = [UInt8](repeating: 0, count: width * height * 4)
        var o = 0
        for row in y..<(y + height) {
            var i = (row * image.width + x) * 4
            for _ in 0..<width {
                let a = UInt32(image.pixels[i + 3])
                for c in 0..<3 { region[o + c] = UInt8((UInt32(image.pixels[i + c]) * a + 127) / 255) }
                region[o + 3] = image.pixels[i + 3]
                i += 4; o += 4
            }
        }
        return region
    }

    /// What tile `rect`'s target starts as: the background's colour, or the part of the
    /// background image under the tile and its apron (the rest transparent, as the band
    /// around a one-pass canvas is).
    func tileFill(_ canvas: Canvas, _ rect: TileRect, apron: Int) throws -> TileFill {
        switch canvas.background {
        case let .color(c):
            let (r, g, b, a) = c.premultipliedRGBA8
            return .color(r, g, b, a)
        case let .image(image):
            try checkBackground(image, fits: canvas)
            let x0 = max(0, rect.x - apron), y0 = max(0, rect.y - apron)
            let x1 = min(canvas.width, rect.x + rect.width + apron), y1 = min(canvas.height, rect.y + rect.height + apron)
            let region = Self.premultiplied(image, x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            return .region(pixels: region, x: x0 - (rect.x - apron), y: y0 - (rect.y - apron), width: x1 - x0, height: y1 - y0)
        case .surface:
            throw RenderError("a tiled canvas cannot start as a surface")
        }
    }
}

extension Renderer {
    /// The scratch targets held now: the tile's and the mode passes' (a render in tiles
    /// frees them after its last band).
    package func heldScratchTargets() -> Int { (device.tileTarget == nil ? 0 : 1) + (device.madeModes?.heldTargets ?? 0) }

    /// `scene` at `frame` planned in tiles (`tile`, or the driver's size), every edge
    /// reference resolved (the scene's table keeps them from frame to frame).
    package func planTiles(_ scene: Scene, frame: Int, primitive: Primitive = .points, tile: Int? = nil) throws -> TiledFrame {
        try planTiles(scene, frame: frame, primitive: primitive, tile: tile, area: nil)
    }

    /// As above, the tiles covering only `area` of the canvas (a view's), when given.
    func planTiles(_ scene: Scene, frame: Int, primitive: Primitive, tile: Int?, area: PixelBox?) throws -> TiledFrame {
        let batches = try resolvedBatches(scene, atFrame: frame, primitive: primitive)
        return try planTiles(canvas: scene.canvas, batches: batches,
                             settings: RenderSettings(effects: scene.effects, primitive: primitive), ageOffset: 0,
                             tile: tile, area: area)
    }
}
