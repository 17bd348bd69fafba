/// A frame written to a PNG band by band: a canvas of any size in the memory of two bands,
/// never the whole image (`render(_:frame:primitive:)` holds at most `maxImagePixels`).
extension Renderer {
    /// The most pixels `render(_:frame:primitive:)` returns as one image: 2^28, a 16384×16384
    /// canvas (1 GiB as RGBA). A larger canvas is written with `writePNG(_:frame:to:primitive:tile:compression:)`.
    public static let maxImagePixels = Limits.maxPNGPixels

    /// Refuses a canvas over `maxImagePixels` before any pixel is allocated, naming the
    /// streaming call.
    static func checkImageBudget(_ canvas: Canvas) throws {
        let (pixels, overflow) = canvas.width.multipliedReportingOverflow(by: canvas.height)
        guard overflow || pixels > maxImagePixels else { return }
        throw RenderError("a \(canvas.width)×\(canvas.height) canvas is more than one image in memory holds "
            + "(\(maxImagePixels) pixels, 16384×16384); write it band by band with "
            + "Renderer.writePNG(_:frame:to:), as `stipple render` does")
    }

    /// Draws frame `frame` of `scene` in tiles of `tile` × `tile` pixels (default: as the
    /// driver and the band size allow) and writes it to the PNG at `path` as each band of
    /// tiles is done, whole or not at all. Memory holds two bands, whatever the canvas's size;
    /// the tile target is freed when it returns.
    public nonisolated func writePNG(_ scene: Scene, frame: Int, to path: String, primitive: Primitive = .points,
                                     tile: Int? = nil, compression: Int = Int(PNGFile.defaultCompression)) async throws {
        try await writePNG(scene, frame: frame, to: path, primitive: primitive, tile: tile,
                           compression: compression, exclusive: false, durable: true)
    }

    /// As above; `exclusive` refuses a file that exists, `durable` syncs it before it is put
    /// in place, and `bandDone` gets the bands written so far and their count.
    package nonisolated func writePNG(_ scene: Scene, frame: Int, to path: String, primitive: Primitive, tile: Int?,
                                      compression: Int, exclusive: Bool, durable: Bool,
                                      bandDone: (Int, Int) -> Void = { _, _ in }) async throws {
        guard (0...9).contains(compression) else { throw RenderError("a PNG compression level is 0 to 9 (got \(compression))") }
        let tiled = try await planTiles(scene, frame: frame, primitive: primitive, tile: tile)
        let writer = try PNGBandWriter(path: path, width: scene.canvas.width, height: scene.canvas.height,
                                       compression: Int32(compression), exclusive: exclusive)
        do {
            try await eachBand(of: tiled, bandDone: bandDone) { try writer.write(premultiplied: &$0) }
            try writer.finish(durable: durable)
        } catch {
            writer.abandon()
            throw error
        }
    }

    /// Draws `tiled` band by band and hands each band's rows to `take`, top to bottom: the
    /// next band is drawn on the render thread while `take` works on this one (two bands in
    /// memory at most). `bandDone` gets the bands taken and their count. The tile target is
    /// freed at the end, or after a failure once the band in flight is done.
    nonisolated func eachBand(of tiled: TiledFrame, bandDone: (Int, Int) -> Void = { _, _ in },
                              take: (inout [UInt8]) throws -> Void) async throws {
        var next: Task<[UInt8], Error>? = Task { try await self.renderBand(tiled, 0) }
        do {
            for band in 0..<tiled.bandCount {
                var rows = try await next!.value
                next = band + 1 < tiled.bandCount ? Task { try await self.renderBand(tiled, band + 1) } : nil
                try take(&rows)
                bandDone(band + 1, tiled.bandCount)
            }
        } catch {
            if let next { _ = try? await next.value }
            await endTiles()
            throw error
        }
        await endTiles()
    }

    /// Frees the tile target and its staging buffer.
    package func endTiles() { device.endTiles() }

    /// True while a tile target is held (between tiles of a frame).
    package var holdsTileTarget: Bool { device.tileTarget != nil }
}
