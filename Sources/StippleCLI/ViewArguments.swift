import ArgumentParser
import Stipple

/// `render`'s views and pyramids (docs/views.md).
struct ViewArguments: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Write only this rectangle of the canvas: X,Y,W,H in canvas pixels (inside the canvas). With --scale or --size it is shrunk as the canvas's pyramid shrinks it; at scale 1 it is the crop of the full render, byte for byte, drawn in the time and memory of the rectangle.", valueName: "X,Y,W,H"))
    var region: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Output pixels per canvas pixel, above 0 and at most 1: the view (--region, or the whole canvas) at that scale, from the pyramid of exact 2×2 means. With a script, --size WxH instead picks the largest scale whose image fits in W×H.", valueName: "F"))
    var scale: Double?

    @Flag(help: "With --scale or --size: draw the stamps straight at the view's scale (time follows the stamps in the region, not its pixels), an approximation of the exact view; a stamp narrower than a pixel keeps its coverage (docs/views.md gives the error).")
    var preview = false

    @Option(help: ArgumentHelp("Write the frame as a tile pyramid instead of one PNG: Deep Zoom (PATH.dzi and PATH_files/LEVEL/COL_ROW.png, tiles of 254 with 1 of overlap, as vips dzsave) or, with --layout xyz, PATH/Z/X/Y.png (256 tiles for Leaflet, PATH/pyramid.json). The descriptor is written last; an existing pyramid is replaced only with --overwrite.", valueName: "PATH"))
    var pyramid: String?

    @Option(help: "With --pyramid: dz (Deep Zoom, the default) or xyz (Leaflet's z/x/y).")
    var layout: PyramidOptions.Layout?

    @Option(name: .customLong("tile-format"), help: "With --pyramid: png (exact, the default), jpeg (over white) or webp; JPEG and WebP need Debian's libturbojpeg0 and libwebp7.")
    var tileFormat: PyramidOptions.TileFormat?

    @Option(parsing: .unconditional, help: ArgumentHelp("With --tile-format jpeg or webp: the quality, 1 to 100 (default 90).", valueName: "Q"))
    var quality: Int?

    @Option(name: .customLong("tile-size"), parsing: .unconditional,
            help: ArgumentHelp("With --pyramid: the tile side (default 254 for dz, 256 for xyz), 1 to \(PyramidOptions.maxTileSize).", valueName: "N"))
    var tileSize: Int?

    /// True when the run writes a view rather than the whole frame (`inkSize`: `--size` given with a script).
    func asksForView(inkSize: String?) -> Bool { region != nil || scale != nil || inkSize != nil || preview }

    /// The rectangle asked for, parsed.
    func parsedRegion() throws -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let region else { return nil }
        let parts = region.split(separator: ",", omittingEmptySubsequences: false)
            .map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3] else {
            throw ValidationError("--region is X,Y,W,H in whole canvas pixels, such as 0,0,1920,1080 (got \(region)).")
        }
        guard w >= 1, h >= 1 else { throw ValidationError("--region is at least 1×1 pixels (got \(w)×\(h)).") }
        return (x, y, w, h)
    }

    func validate(frames: Bool, isDataset: Bool, inkInput: Bool, output: String) throws {
        _ = try parsedRegion()
        if let scale, !(scale > 0 && scale <= 1 && scale.isFinite) {
            throw ValidationError("--scale is above 0 and at most 1, such as 0.25 (got \(scale)); a view is never larger than its region.")
        }
        let view = region != nil || scale != nil || preview
        if (view || pyramid != nil) && (frames || isDataset) {
            throw ValidationError("--region, --scale, --preview and --pyramid render one frame (--frame N), not --frames or a dataset.")
        }
        if (view || pyramid != nil) && inkInput {
            throw ValidationError("--region, --scale, --preview and --pyramid apply to scripts; convert the ink first (stipple convert).")
        }
        if pyramid != nil && view {
            throw ValidationError("--pyramid writes the whole canvas at every scale; leave --region, --scale and --preview out.")
        }
        if pyramid != nil && !output.isEmpty {
            throw ValidationError("--pyramid PATH names what is written; leave -o out.")
        }
        if pyramid == nil && (layout != nil || tileSize != nil || tileFormat != nil || quality != nil) {
            throw ValidationError("--layout, --tile-size, --tile-format and --quality apply to --pyramid.")
        }
        if let quality, !(1...100).contains(quality) { throw ValidationError("--quality is 1 to 100 (got \(quality)).") }
        if quality != nil && (tileFormat ?? .png) == .png { throw ValidationError("--quality applies to --tile-format jpeg or webp.") }
        if let tileSize, !(1...PyramidOptions.maxTileSize).contains(tileSize) {
            throw ValidationError("--tile-size is 1 to \(PyramidOptions.maxTileSize) (got \(tileSize)).")
        }
        if let pyramid, pyramid.isEmpty { throw ValidationError("--pyramid needs a path, such as out/drawing.") }
    }
}

extension PyramidOptions.Layout: ExpressibleByArgument {}
extension PyramidOptions.TileFormat: ExpressibleByArgument {}
