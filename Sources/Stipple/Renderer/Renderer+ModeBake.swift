/// A bake's frames when the script has stroke layers (`ModeBake`): the target is kept from
/// frame to frame, and a frame fills, draws and reads back only the boxes its layers can
/// change — every live stamp's square, grown by what its mode reads around it (a blur's
/// radius, a shadow's offset and spread).
///
/// Outside the boxes the target holds whatever an earlier frame left: no pixel inside a box
/// depends on it, since every pass reads only around its stamps (and a mode's weight is zero
/// away from them), so the boxes come out as a whole frame drawn over the frame's colour
/// would have them.
///
/// The GPU target belongs to the renderer's render thread: only `Renderer` methods touch it.
// Unchecked: its one field is read and written only by `Renderer` methods, on the render thread.
package final class ModeBakeTarget: @unchecked Sendable {
    fileprivate var target: Framebuffer?
    package init() {}
}

extension Renderer {
    /// The boxes of a `width`×`height` canvas that `ids` at `frame` can change or read:
    /// every plain stamp's square, and for a stroke layer all its passes may write or read
    /// of the canvas (its region, and its stamps' box grown by its blur and shadow spread),
    /// with a blur's radius to spare. Cells of 16 pixels (even corners) merged into at most
    /// 32 rectangles, clipped to the canvas.
    func modeBakeBoxes(_ ids: [LayerID], width: Int, height: Int, frame: Int, effects: AgeEffects) throws -> [PixelBox] {
        let chosen = try resolve(ids, frame: frame, effects: effects)
        let f = Float(frame)
        var cells = DirtyCells(width: width, height: height)
        for pass in FramePasses(modes: chosen.lazy.map(\.mode)).passes {
            guard case let .layer(index, mode) = pass else {
                guard case let .stamps(range) = pass else { continue }
                for layer in chosen[range] {
                    for s in layer.stamps[layer.window(at: f, effects: effects)] where effects.isLive(age: s.age + f) {
                        if let b = effects.pixelBox(of: s, age: s.age + f) { cells.mark(b) }
                    }
                }
                continue
            }
            let layer = chosen[index]
            let window = layer.window(at: f, effects: effects)
            // "Detect edges" reads its reference under the first sample the frame it is born.
            if mode.edgeTolerance != nil, layer.edgeReference == nil, let first = layer.stamps.first,
               let p = EdgeAnchor(x: first.x, y: first.y, frame: 0, entry: 0).pixel(width: width, height: height) {
                cells.mark(PixelBox(x0: p.x, y0: p.y, x1: p.x + 1, y1: p.y + 1))
            }
            var any = mode
            any.edgeTolerance = nil
            let pass = layer.stamps[window].withUnsafeBufferPointer {
                StrokeLayerPass(mode: any, stamps: $0, ageOffset: f, effects: effects, width: width, height: height,
                                reference: nil)
            }
            guard let pass else { continue }
            let spare = StrokeMode.blurRadius
            let spread = mode.readSpread + spare
            cells.mark(pass.region.grown(x: spare, y: spare))
            cells.mark(pass.stamps.grown(x: spread, y: spread))
        }
        return cells.isEmpty ? [] : cells.boxes().filter { !$0.isEmpty }
    }

    /// Fills `boxes` of the kept target with `pixels` (opaque RGBA, one array a box, the
    /// box's bottom row first), draws `ids` at `frame` over them and reads the boxes back:
    /// premultiplied RGBA in the same order.
    func renderModeBoxes(_ kept: ModeBakeTarget, layers ids: [LayerID], width: Int, height: Int, frame: Int,
                         settings: RenderSettings, boxes: [PixelBox], pixels: [[UInt8]]) throws -> [[UInt8]] {
        guard !boxes.isEmpty else { return [] }
        let canvas = Canvas(width: width, height: height)
        let band = guardBand(for: canvas)
        if let t = kept.target, t.width != width || t.height != height || t.guardBand != band {
            device.deleteTarget(t)
            kept.target = nil
        }
        let target: Framebuffer
        if let t = kept.target {
            target = t
        } else {
            target = try device.makeKeptTarget(width: width, height: height, guardBand: band, fill: (0, 0, 0, 0))
            kept.target = target
        }
        try device.uploadBoxes(target, boxes: boxes, pixels: pixels)
        let chosen = try resolve(ids, frame: frame, effects: settings.effects)
        try drawResident(chosen, canvas: canvas, frame: frame, settings: settings, into: target)
        return try boxes.map { try device.readKept(target, box: ($0.x0, $0.y0, $0.x1, $0.y1)) }
    }

    /// Frees a bake's kept target.
    func release(_ kept: ModeBakeTarget) {
        kept.target.map(device.deleteTarget)
        kept.target = nil
    }
}
