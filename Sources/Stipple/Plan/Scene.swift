import Foundation

/// A script with its resources loaded: brushes decoded, background read, stamps in draw
/// order with their ages at frame 0. Knows nothing of GL.
public struct Scene: Sendable {
    /// The canvas: size and background (colour or decoded image).
    public var canvas: Canvas { didSet { edgeReferences = EdgeReferenceTable() } }
    /// How stamps age: the script's `maxAge`, `dissolveDistance` and `pointScale`.
    public var effects: AgeEffects { didSet { edgeReferences = EdgeReferenceTable() } }
    /// Frames a second: touch times become frames at this rate.
    public var fps: Double
    /// One batch a `draw` entry, ages as at frame 0.
    public var batches: [StampBatch] { didSet { edgeReferences = EdgeReferenceTable() } }
    /// Every file the scene was made from (script, brushes, background, stamp files):
    /// outputs must never overwrite one of them.
    package var inputFiles: [String]
    /// Where the canvas size is written, so a size the driver refuses can be blamed on it.
    package var canvasSizeLocation: InputLocation
    package var scriptPath: String
    /// The script's undo, redo and clear entries and its `startFrame` (docs/reference.md §12).
    package var session = SessionTimeline() { didSet { edgeReferences = EdgeReferenceTable() } }
    /// The "detect edges" references found so far, for every renderer that draws this
    /// scene; a new table whenever the scene changes.
    package internal(set) var edgeReferences = EdgeReferenceTable()

    /// Loads a script's brushes and background. Errors name the file and the place.
    public init(script: Script) throws {
        let brushes = try Scene.brushes(of: script)
        let background: CanvasBackground
        switch script.canvas.background {
        case let .color(c):
            background = .color(c)
        case let .image(path, location):
            let decoded = try Scene.readPNG(path, blaming: script.path, at: location, what: "background")
            guard decoded.image.width == script.canvas.width, decoded.image.height == script.canvas.height else {
                throw InputError(file: script.path, location: location,
                                 "background \(path) is \(decoded.image.width)×\(decoded.image.height); "
                                 + "expected the canvas size \(script.canvas.width)×\(script.canvas.height)")
            }
            background = .image(decoded.image)
        }
        batches = script.draw.enumerated().map { index, entry in
            let b = brushes[entry.brush]!
            guard let stroke = entry.stroke else {
                return StampBatch(brushKey: b.key, brush: b.brush, stamps: entry.stamps).withMode(entry, index: index, fps: script.fps)
            }
            // A stroke becomes stamps here (docs/reference.md §6), ages as at frame 0: those the
            // decoder made, when the stroke, rate and seed are still theirs.
            let (points, rotations) = entry.made.flatMap { made in
                made.matches(stroke, fps: script.touchRate, seed: script.seed) ? (made.points, made.rotations) : nil
            } ?? MadeStamps.split(StrokeBuilder.stamps(for: stroke.samples, style: stroke.style, fps: script.touchRate,
                                                       seed: script.seed, strokeIndex: stroke.index))
            return StampBatch(brushKey: b.key, brush: b.brush, stamps: points,
                              rotations: rotations).withMode(entry, index: index, fps: script.fps)
        }
        canvas = Canvas(width: script.canvas.width, height: script.canvas.height, background: background)
        effects = AgeEffects(maxAge: script.maxAge, dissolveDistance: script.dissolveDistance,
                             pointScale: script.pointScale)
        fps = script.fps
        inputFiles = script.inputFiles
        canvasSizeLocation = script.canvas.sizeLocation
        scriptPath = script.path
        session = script.session
    }

    /// The script's brushes by name, each with the key its texture is shared under (a
    /// builtin's kind and size, a file's path): what its entries and live strokes draw with.
    package static func brushes(of script: Script) throws -> [String: (key: String, brush: Brush)] {
        var brushes: [String: (key: String, brush: Brush)] = [:]
        for name in script.brushOrder {
            guard let spec = script.brushes[name] else { continue }
            switch spec {
            case let .builtin(kind, size, _):
                brushes[name] = ("builtin:\(kind.rawValue):\(size)", Brush.builtin(kind, size: size))
            case let .file(path, location):
                let decoded = try Scene.readPNG(path, blaming: script.path, at: location, what: "brush \"\(name)\"")
                brushes[name] = ("file:\(path)", Brush(image: decoded.image, hasAlpha: decoded.hasAlpha))
            }
        }
        return brushes
    }

    private static func readPNG(_ path: String, blaming script: String, at location: InputLocation,
                                what: String) throws -> PNGFile.Decoded {
        guard FileManager.default.fileExists(atPath: path) else {
            throw InputError(file: script, location: location, "\(what): no such file \(path)")
        }
        do {
            return try PNGFile.read(path: path)
        } catch let error as InputError {
            // Name the PNG and what is wrong with it, at the place in the script that asked for it.
            throw InputError(file: script, location: location, "\(what): \(error)")
        }
    }

    /// The live vertex buffer at frame `n` (docs/reference.md §3): every stamp born at or before frame
    /// n, aged by n, dead stamps gone, in draw order. This is exactly what is uploaded.
    public func batches(atFrame n: Int) -> [StampBatch] {
        let state = state(atFrame: n)
        return state.shown(batches).map { LiveStamps.batch($0, atFrame: state.clockFrame, effects: effects) }
    }

    /// Throws when the driver cannot hold this canvas, blaming the script's canvas size.
    package func checkFits(_ info: RendererInfo) throws {
        let limit = info.maxCanvasSide
        if canvas.width > limit.width || canvas.height > limit.height {
            throw InputError(file: scriptPath, location: canvasSizeLocation,
                             "a \(canvas.width)×\(canvas.height) canvas is larger than this driver allows "
                             + "(\(limit.width)×\(limit.height) on \(info.glRenderer))")
        }
    }
}

extension Scene {
    /// Puts the scene's stamps on `renderer` as resident layers, one a draw entry, ages as
    /// at frame 0: frames drawn from them upload nothing more. The caller frees them
    /// (`Renderer.removeLayers`) when it is done with them.
    package func makeLayers(on renderer: Renderer) async throws -> [LayerID] {
        var ids: [LayerID] = []
        do {
            for batch in batches {
                let id = await renderer.makeLayer(brushKey: batch.brushKey, brush: batch.brush)
                ids.append(id)
                try await renderer.append(batch.stamps, rotations: batch.rotations, to: id)
                if let mode = batch.mode { await renderer.setMode(mode, of: id) }
            }
        } catch {
            // None is left behind half made.
            await renderer.removeLayers(ids)
            throw error
        }
        return ids
    }

    /// Runs `body` with the scene's layers made on `renderer` (`makeLayers`), and frees them
    /// when it ends, whether it finishes or fails: a renderer may run many scenes.
    func withLayers<T>(on renderer: Renderer, _ body: ([LayerID]) async throws -> T) async throws -> T {
        let layers = try await makeLayers(on: renderer)
        do {
            let result = try await body(layers)
            await renderer.removeLayers(layers)
            return result
        } catch {
            await renderer.removeLayers(layers)
            throw error
        }
    }
}
