/// A video's sketch kept between frames: a frame draws again only the box where something
/// changed — stamps born, or appended by a live stroke, since the last frame, or, when
/// stamps age, every stamp live then or now — clearing that box and drawing every shown
/// stamp into it in draw order, so the result is the full redraw's, byte for byte. Only
/// that box is read back into the kept copy on the CPU.
///
/// The GPU target belongs to the renderer's render thread: only `Renderer` methods touch it.
package final class KeptSketch: @unchecked Sendable {
    /// The sketch as drawn last: premultiplied RGBA, rows top to bottom.
    fileprivate(set) var pixels: [UInt8] = []
    fileprivate var target: Framebuffer?
    fileprivate var layers: [LayerID] = []
    fileprivate var frame = 0
    fileprivate var counts: [Int] = []
    /// Boxes drawn and pixels read back so far (what the benchmark reports).
    package fileprivate(set) var redrawnPixels = 0
    package fileprivate(set) var framesDrawn = 0

    package init() {}
}

extension Renderer {
    /// Frame `frame` of `ids` over a transparent `canvas`, premultiplied, drawing again only
    /// what changed since `kept` last drew. Stroke layers (brush modes) draw whole frames.
    package func renderKept(_ kept: KeptSketch, layers ids: [LayerID], canvas: Canvas, frame: Int,
                            settings: RenderSettings) throws -> [UInt8] {
        // The layers as the last frame left them (stamps that died since are still there):
        // the changed box is found before this frame moves them on.
        let before = try ids.map { id -> StampLayer in
            guard let l = self.layers[id] else { throw RenderError("\(id) does not exist") }
            return l
        }
        guard case let .color(color) = canvas.background, !before.contains(where: { $0.mode != nil }) else {
            kept.target.map(device.deleteTarget)
            kept.target = nil
            return try renderLayersPremultiplied(ids, canvas: canvas, frame: frame, settings: settings)
        }
        let fill = color.premultipliedRGBA8
        var box = PixelBox(x0: 0, y0: 0, x1: canvas.width, y1: canvas.height)
        if let t = kept.target, t.width == canvas.width, t.height == canvas.height, kept.layers == ids, frame >= kept.frame {
            box = changedBox(before, counts: kept.counts, from: kept.frame, to: frame, effects: settings.effects)
                .clipped(width: canvas.width, height: canvas.height)
        } else {
            kept.target.map(device.deleteTarget)
            kept.target = try device.makeKeptTarget(width: canvas.width, height: canvas.height,
                                                    guardBand: guardBand(for: canvas), fill: fill)
            kept.pixels = [UInt8](repeating: 0, count: canvas.width * canvas.height * 4)
        }
        let chosen = try resolve(ids, frame: frame, effects: settings.effects)
        kept.layers = ids
        kept.frame = frame
        kept.counts = chosen.map(\.stamps.count)
        guard !box.isEmpty, let target = kept.target else { return kept.pixels }
        device.beginKeptDraw(target, box: (box.x0, box.y0, box.x1, box.y1), fill: fill)
        defer { device.endKeptDraw() }
        try drawResident(chosen, canvas: canvas, frame: frame, settings: settings, into: target)
        try device.readKept(target, box: (box.x0, box.y0, box.x1, box.y1), into: &kept.pixels)
        kept.redrawnPixels += box.width * box.height
        kept.framesDrawn += 1
        return kept.pixels
    }

    /// The canvas box that can differ between frame `from` and frame `to`: stamps that
    /// became live (or were appended: `counts` are the layers' stamps then), and with ageing
    /// every stamp live at either frame, each at its size and place at both ages.
    private func changedBox(_ layers: [StampLayer], counts: [Int], from p: Int, to f: Int,
                            effects: AgeEffects) -> PixelBox {
        var box = PixelBox(x0: .max, y0: .max, x1: .min, y1: .min)
        func add(_ s: SketchPoint, age: Float) {
            let g = effects.geometry(of: s, age: age)
            let half = g.diameter / 2
            guard g.centreX.isFinite, g.centreY.isFinite, half.isFinite else { return }
            // Pixels whose centre lies in the stamp's square, and one more for the driver's rounding.
            let b = PixelBox(x0: Int(max(-1e7, (g.centreX - half).rounded(.down))) - 1,
                             y0: Int(max(-1e7, (g.centreY - half).rounded(.down))) - 1,
                             x1: Int(min(1e7, (g.centreX + half).rounded(.up))) + 1,
                             y1: Int(min(1e7, (g.centreY + half).rounded(.up))) + 1)
            box = box.isEmpty ? b : box.union(b)
        }
        let (fp, ff) = (Float(p), Float(f))
        for (i, layer) in layers.enumerated() {
            let old = i < counts.count ? counts[i] : 0
            for (j, s) in layer.stamps.enumerated() {
                let liveNow = effects.isLive(age: s.age + ff), liveThen = j < old && effects.isLive(age: s.age + fp)
                if effects.maxAge > 0 {
                    if liveNow { add(s, age: s.age + ff) }
                    if liveThen { add(s, age: s.age + fp) }
                } else if liveNow && !liveThen {
                    add(s, age: s.age + ff)
                }
            }
        }
        return box
    }
}
