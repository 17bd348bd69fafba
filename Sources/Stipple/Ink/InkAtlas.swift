import Dispatch
import Foundation

/// Many drawings in one render target (docs/ink-formats.md, "Datasets"): a page is a grid
/// of cells, each a drawing laid out on its own canvas of `cellWidth` × `cellHeight` and
/// moved by whole pixels to its cell, cells `pad` pixels apart so that no stamp reaches a
/// neighbour. Drawing `i` of a run always lands in the same page and cell (`i` counts from
/// the file's first drawing), so a shard of the run draws its cells exactly as the whole
/// run does. A drawing with a stamp that would reach past its pad is drawn alone instead.
/// One page is drawn and read back at a time; laying out, stamping, downscaling and the
/// caller's encoding run on every core.
// Unchecked: one run uses an atlas from one task; its timings are summed there, after each parallel step has
// joined.
package final class InkAtlas: @unchecked Sendable {
    /// The output's size, and the factor each side is drawn larger before it is averaged down.
    package let width: Int, height: Int, supersample: Int
    package let cellWidth: Int, cellHeight: Int, pad: Int
    package let pageSide: Int
    package let columns: Int, rows: Int
    let options: InkOptions
    let brush: Brush
    let brushKey: String

    /// Seconds spent in each step, summed over the run.
    package struct Timings: Sendable {
        package var stamp = 0.0, draw = 0.0, readback = 0.0, downscale = 0.0, deliver = 0.0
        package var pages = 0, alone = 0
        /// Stamps (or chords, drawn as lines) drawn on pages.
        package var drawn = 0
    }
    package private(set) var timings = Timings()
    /// Two read-back buffers in turn, kept from one batch to the next: a page is read into one
    /// while the last page's cells are still averaged from the other.
    private var buffers: [ReadbackBuffer] = []

    /// An atlas for `width` × `height` outputs drawn `supersample` times larger, on pages at
    /// most `maxSide` pixels square.
    package init(width: Int, height: Int, supersample: Int, options: InkOptions, maxSide: Int) {
        self.width = width; self.height = height; self.supersample = supersample
        var o = options
        o.size = (width * supersample, height * supersample)
        o.margin = (options.margin ?? InkOptions.defaultMargin(size: (width, height), radius: 0)) * Double(supersample)
        o.radius = options.radius.map { $0 * Double(supersample) }
        self.options = o
        cellWidth = width * supersample; cellHeight = height * supersample
        // Room for a default Quick, Draw! stroke (8 of 256) or the given radius, anti-aliasing,
        // and the smoothed curve's bulge past its samples' box (a drawing fitted to its frame
        // touches the cell's edges): 2 pixels in 256 kept every one of 10 000 Quick,
        // Draw!-shaped drawings on its page, where without it 72 were drawn alone.
        let reach = o.radius ?? 8 * Double(max(cellWidth, cellHeight)) / 256 * 2
        pad = Int(reach.rounded(.up)) + 2 + max(cellWidth, cellHeight) / 128
        pageSide = max(cellWidth + 2 * pad, cellHeight + 2 * pad, min(maxSide, 4096))
        columns = max(1, pageSide / (cellWidth + 2 * pad))
        rows = max(1, pageSide / (cellHeight + 2 * pad))
        brush = Brush.builtin(options.brush, size: InkOptions.brushSize)
        brushKey = "builtin:\(options.brush.rawValue):\(InkOptions.brushSize)"
    }

    package var cellsPerPage: Int { columns * rows }

    /// The top-left corner of slot `slot`'s cell on its page.
    func origin(_ slot: Int) -> (x: Int, y: Int) {
        (pad + (slot % columns) * (cellWidth + 2 * pad), pad + (slot / columns) * (cellHeight + 2 * pad))
    }

    /// About as many stamps as `drawing` makes on a cell, found without making them: its
    /// strokes' polyline lengths over their smallest step, plus a stamp a sample. A smoothed
    /// curve through the samples is at least as long as their polyline, so a drawing this
    /// counts over `Limits.maxStampsPerScript` is over it; it is refused before it is stamped.
    package func stampBound(_ drawing: InkDrawing) -> Double {
        let plan = InkPlan.layout(drawing, options)
        var total = 0.0
        for s in plan.strokes {
            let pressed = s.samples.contains { $0.pressure != nil }
            let minRadius = Double(s.style.radius) * Double(pressed ? min(s.style.pressure.radius.lowerBound, 1) : 1)
            let step = max(1e-3, Double(s.style.spacing) * 2 * max(minRadius, 0.01))
            var length = 0.0
            for (a, b) in zip(s.samples, s.samples.dropFirst()) {
                let dx = Double(b.x - a.x), dy = Double(b.y - a.y)
                length += (dx * dx + dy * dy).squareRoot()
            }
            total += length / step + Double(s.samples.count) + 2
        }
        return total
    }

    /// The stamps of `drawing` laid out on a cell, in draw order; nil when the drawing needs
    /// its stroke layers (an eraser) and cannot share a page.
    func stamps(_ drawing: InkDrawing) -> (stamps: [SketchPoint], plan: InkPlan)? {
        let plan = InkPlan.layout(drawing, options)
        guard !plan.needsStrokeLayers else { return nil }
        var out: [SketchPoint] = []
        for s in plan.strokes {
            for st in StrokeBuilder.stamps(for: s.samples, style: s.style, fps: InkOptions.fps, seed: 0, strokeIndex: s.index)
            where st.point.alpha > 0 {
                var p = st.point
                p.age = 0  // every stamp shown, as at the drawing's last frame
                out.append(p)
            }
        }
        return (out, plan)
    }

    /// With `options.lines`: each stroke of `drawing` laid out on a cell as a polyline
    /// (`InkChords`); nil when the drawing needs its stroke layers and is drawn alone, in stamps.
    func polylines(_ drawing: InkDrawing) -> (strokes: [[InkChords.Knot]], plan: InkPlan)? {
        let plan = InkPlan.layout(drawing, options)
        guard !plan.needsStrokeLayers else { return nil }
        return (plan.strokes.map(InkChords.polyline), plan)
    }

    /// The chords of `strokes`, moved by `dx`, `dy`.
    static func chords(_ strokes: [[InkChords.Knot]], dx: Float, dy: Float) -> [Float] {
        var out: [Float] = []
        for s in strokes { InkChords.emit(s, dx: dx, dy: dy, to: &out) }
        return out
    }

    /// Renders drawing `items` (each with its index in the run) and hands each one's
    /// coverage (`width` × `height` bytes, 0 none … 255 full, rows top to bottom; with
    /// `inverted`, 255 minus it) to `deliver`, called on any thread, once per drawing, in no
    /// set order. While a page is drawn, the next one's stamps are made and the last one's
    /// cells averaged and delivered. Pages are drawn in white into a one-channel target where
    /// the driver has one (a quarter of the bytes to clear, blend and read back); the drawings
    /// drawn alone are drawn after the last page, so that the page's target is made once.
    package func render(_ items: [(index: Int, drawing: InkDrawing)], on renderer: Renderer, inverted: Bool = false,
                        progress: (Int) -> Void = { _ in },
                        deliver: @escaping @Sendable (Int, [UInt8]) throws -> Void) async throws {
        var pages: [[(index: Int, drawing: InkDrawing)]] = []
        var start = 0
        while start < items.count {
            let page = items[start].index / cellsPerPage
            var end = start
            while end < items.count, items[end].index / cellsPerPage == page { end += 1 }
            pages.append(Array(items[start..<end]))
            start = end
        }
        guard !pages.isEmpty else { return }
        let first = pages[0]
        var done = 0
        var next: Task<Page, Never>? = Task.detached { [self] in prepare(first) }
        var finishing: Task<(Double, Double), Error>?
        var finishingCount = 0  // the drawings it delivers
        var alone: [(index: Int, drawing: InkDrawing)] = []
        for k in pages.indices {
            let page = await next!.value
            timings.stamp += page.seconds
            if k + 1 < pages.count {
                let following = pages[k + 1]
                next = Task.detached { [self] in prepare(following) }
            } else {
                next = nil
            }
            var clock = Date()
            func lap() -> Double { let now = Date(); defer { clock = now }; return now.timeIntervalSince(clock) }
            let canvas = Canvas(width: pageSide, height: pageSide, background: .color(.transparent))
            if options.lines {
                try await renderer.drawInkLines(canvas: canvas, vertices: page.lines, coverage: true)
            } else {
                try await renderer.drawImmediate(canvas: canvas, batches: [StampBatch(brushKey: brushKey, brush: brush, stamps: page.stamps)],
                                                 coverage: true)
            }
            await renderer.finish()
            timings.draw += lap()
            if buffers.count <= k % 2 { buffers.append(ReadbackBuffer(byteCount: pageSide * pageSide * 4)) }
            let frame = buffers[k % 2]
            let layout = try await renderer.readFrame(into: frame)
            timings.readback += lap()
            timings.pages += 1
            timings.drawn += options.lines ? page.lines.count / (6 * InkLineDrawer.floatsPerVertex) : page.stamps.count
            // Drawings that reach past their pad, or need stroke layers: alone, after the last page.
            let skipped = Set(page.alone)
            alone += page.alone.map { page.items[$0] }
            if let finishing {
                let (downscale, rest) = try await finishing.value
                timings.downscale += downscale; timings.deliver += rest
                done += finishingCount
                progress(done)
            }
            finishingCount = page.items.count - page.alone.count
            finishing = Task.detached { [self] in
                try finish(page.items, skipping: skipped, frame: frame, layout: layout, inverted: inverted, deliver: deliver)
            }
        }
        if let finishing {
            let (downscale, rest) = try await finishing.value
            timings.downscale += downscale; timings.deliver += rest
            done += finishingCount
            progress(done)
        }
        // As `render` draws them, each on a canvas of one cell.
        for item in alone {
            let clock = Date()
            let coverage = try await renderAlone(item.drawing, on: renderer)
            timings.alone += 1
            timings.draw += Date().timeIntervalSince(clock)
            try deliver(item.index, InkAtlas.average(coverage, stride: cellWidth, at: (0, 0), width: width, height: height,
                                                     factor: supersample, inverted: inverted))
            done += 1
            progress(done)
        }
    }

    /// A page's stamps, moved to their cells, in draw order; which drawings must be drawn alone.
    struct Page: Sendable {
        var items: [(index: Int, drawing: InkDrawing)]
        var stamps: [SketchPoint]
        /// With `options.lines`, the chords drawn instead of `stamps` (`InkChords`).
        var lines: [Float]
        var alone: [Int]
        var seconds: Double
    }

    func prepare(_ items: [(index: Int, drawing: InkDrawing)]) -> Page {
        let t0 = Date()
        let cells = cellWidth, cellsH = cellHeight, pad = Float(self.pad)
        // A page holds at most a script's stamps: a drawing over its cell's share is drawn alone.
        let share = max(1, Limits.maxStampsPerScript / cellsPerPage)
        func outside(_ x: Float, _ y: Float, _ r: Float) -> Bool {
            x - r < -pad || y - r < -pad || x + r > Float(cells) + pad || y + r > Float(cellsH) + pad
        }
        let lines = options.lines
        let laid: [(stamps: [SketchPoint], lines: [Float], fits: Bool)] = InkAtlas.parallelMap(items.count) { i in
            let o = origin(items[i].index % cellsPerPage)
            if lines {
                guard let made = polylines(items[i].drawing),
                      !made.strokes.contains(where: { $0.contains { outside($0.x, $0.y, $0.radius) } }) else { return ([], [], false) }
                return ([], InkAtlas.chords(made.strokes, dx: Float(o.x), dy: Float(o.y)), true)
            }
            guard var moved = stamps(items[i].drawing)?.stamps, moved.count <= share,
                  !moved.contains(where: { outside($0.x, $0.y, $0.radius) }) else { return ([], [], false) }
            // White, so that a one-channel page's red is the stamps' alpha (colour is not kept);
            // moved in place (the array is this closure's alone), each centre first put where
            // the renderer places it on its own canvas (`placed`): then the move is exact.
            for k in moved.indices {
                moved[k].x = InkAtlas.placed(moved[k].x) + Float(o.x); moved[k].y = InkAtlas.placed(moved[k].y) + Float(o.y)
                moved[k].red = 1; moved[k].green = 1; moved[k].blue = 1
            }
            return (moved, [], true)
        }
        var all: [SketchPoint] = []
        all.reserveCapacity(laid.reduce(0) { $0 + $1.stamps.count })
        for l in laid { all += l.stamps }
        var chords: [Float] = []
        chords.reserveCapacity(laid.reduce(0) { $0 + $1.lines.count })
        for l in laid { chords += l.lines }
        let alone = laid.indices.filter { !laid[$0].fits }
        return Page(items: items, stamps: all, lines: chords, alone: alone, seconds: Date().timeIntervalSince(t0))
    }

    /// A stamp's coordinate on the grid the renderer places it on (GLSL/sketch.vert: 1/512
    /// of a pixel, the same float operations; stamps on a page never age, so a centre is its
    /// stored place). Moved by a cell's whole-pixel offset, a coordinate already on that grid
    /// stays exact (a float holds a 1/512 step up to 2¹⁴), and the stamp lands on the pixels
    /// it has on a canvas of its own. Moved as drawn, the sum would round to the float's step
    /// at the page's size (1/4096 of a pixel at 4096), which can move a stamp by a step of the
    /// grid and, at a hard brush's edge, a pixel from no ink to full.
    @inline(__always) static func placed(_ v: Float) -> Float {
        abs(v) < 16384 ? (v * 512 + 0.5).rounded(.down) / 512 : v
    }

    /// Averages a drawn page's cells down and delivers them, on every core. Returns the
    /// seconds spent averaging (summed over cores, divided by them) and the rest.
    /// `frame` holds the page as GL reads it, rows bottom to top.
    func finish(_ items: [(index: Int, drawing: InkDrawing)], skipping alone: Set<Int>, frame: ReadbackBuffer,
                layout: (bytesPerPixel: Int, coverage: Int), inverted: Bool,
                deliver: @escaping @Sendable (Int, [UInt8]) throws -> Void) throws -> (Double, Double) {
        let t0 = Date()
        let s = supersample, w = width, h = height, side = pageSide
        let px = UnsafeBufferPointer(frame.bytes.bindMemory(to: UInt8.self))
        let results: [(error: Error?, seconds: Double)] = InkAtlas.parallelMap(items.count) { i in
            guard !alone.contains(i) else { return (nil, 0) }
            let t0 = Date()
            let o = origin(items[i].index % cellsPerPage)
            let out = InkAtlas.averagePage(px, layout: layout, stride: side, rows: side, at: o, width: w, height: h, factor: s,
                                           inverted: inverted)
            let spent = Date().timeIntervalSince(t0)
            do { try deliver(items[i].index, out) } catch { return (error, spent) }
            return (nil, spent)
        }
        let total = Date().timeIntervalSince(t0)
        let cores = Double(max(1, ProcessInfo.processInfo.activeProcessorCount))
        let downscale = min(total, results.reduce(0) { $0 + $1.seconds } / cores)
        if let error = results.lazy.compactMap(\.error).first { throw error }
        return (downscale, total - downscale)
    }

    /// `body(0) … body(count − 1)` on every core, results in order.
    static func parallelMap<T>(_ count: Int, _ body: (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: count)
        defer { buffer.deallocate() }
        let base = UnsafeSendableBox(buffer)
        withoutActuallyEscaping(body) { body in
            let run = UnsafeSendableBox(body)
            DispatchQueue.concurrentPerform(iterations: count) { i in
                (base.value.baseAddress! + i).initialize(to: run.value(i))
            }
        }
        let out = Array(buffer)
        _ = buffer.deinitialize()
        return out
    }

    /// A drawing on its own canvas of one cell, as coverage bytes.
    func renderAlone(_ drawing: InkDrawing, on renderer: Renderer) async throws -> [UInt8] {
        if options.lines, let made = polylines(drawing) {
            let canvas = Canvas(width: made.plan.width, height: made.plan.height, background: .color(.transparent))
            try await renderer.drawInkLines(canvas: canvas, vertices: InkAtlas.chords(made.strokes, dx: 0, dy: 0))
            let image = try await renderer.readFrame()
            return (0..<(canvas.width * canvas.height)).map { image[$0 * 4 + 3] }
        }
        var o = options
        o.background = .transparent
        let plan = InkPlan.layout(drawing, o)
        var script = Script(path: drawing.name ?? "drawing", directory: ".", canvas: CanvasSpec(width: plan.width, height: plan.height),
                            fps: InkOptions.fps, brushes: ["ink": .builtin(options.brush, size: InkOptions.brushSize, location: .file)],
                            brushOrder: ["ink"])
        script.draw = plan.strokes.map { DrawEntry(brush: "ink", stamps: [], stroke: $0, mode: $0.style.mode) }
        let scene = try Scene(script: script)
        let lastFrame = Int((plan.strokes.compactMap { $0.samples.last?.t }.max() ?? 0) * InkOptions.fps) + 2
        let image = try await renderer.render(scene, frame: lastFrame)
        var alpha = [UInt8](repeating: 0, count: plan.width * plan.height)
        for i in alpha.indices { alpha[i] = image.pixels[i * 4 + 3] }
        return alpha
    }
}
