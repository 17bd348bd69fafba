import ArgumentParser
import Foundation
import Stipple

struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a script's frame to a PNG, or a range of frames into a folder.",
        usage: """
            stipple render <script>... --output <output> [--frame <frame>] [--frames <A...B|all>] [--shard <K/N>] \
            [--clean] [--overwrite] [--tile <N>] [--speed <F>] [--primitive <primitive>] [--compression <compression>] \
            [--index <N>] [--key <KEY_ID>] [--size <WxH>] [--margin <PX>] [--radius <PX>] [--spacing <S>] \
            [--fit <ink|frame>] [--brush <hard-round|soft-round>] [--width <PX>] [--format <script|inkml|ndjson>] \
            [--skip-bad-lines] [--lines] [--region <X,Y,W,H>] [--scale <F>] [--preview] [--pyramid <PATH>] \
            [--layout <dz|xyz>] [--tile-size <N>] [--tile-format <png|jpeg|webp>] [--quality <Q>]
            """,
        discussion: """
            Frame N shows every stamp born at or before frame N, aged by N frames (docs/reference.md §3).
            With --frames A...B, OUT is a folder (made if missing) that receives frame-NNNN.png \
            files (at least 4 digits, as many as B needs). A frame file that exists is an error \
            unless --overwrite; frame files this run would not write (outside A...B, or of another \
            digit width) left there by an earlier render are refused (--clean removes them); \
            a run that fails removes the frames and folders it made. \
            Frames run from 0 to \(Limits.maxFrame), at most \(Limits.maxFramesPerRun) a run \
            (docs/limits.md). `stipple describe SCRIPT` tells which frames show stamps. One line \
            on stderr sums up what was written.
            Examples:
              stipple render demo.json -o demo.png
              stipple render anim.json -o frames/ --frames 0...119
              stipple render anim.json -o frames/ --frames 0...2399 --shard 2/8
              stipple render drawing.json --frames all --speed 20 -o timelapse.mp4
            Ink files (docs/ink-formats.md): a W3C InkML file (.inkml) or a Quick, Draw! drawing \
            (.ndjson: its only line, or --index N / --key KEY_ID) renders as the script `convert` \
            makes of it. Whole .ndjson files, several ink files and folders of them render as a \
            dataset into a folder (-o cats/, or a name without an extension: one grey PNG a \
            drawing, named by key_id, else line-N) or one .npy array (-o cats.npy: N×H×W uint8, \
            white strokes on black), with a labels file (labels.csv in the folder, cats.labels.csv \
            beside the array: row or file, word, key_id, source file and line) and, with \
            --skip-bad-lines, the list of skipped lines (skipped.txt, cats.skipped.txt); one \
            renderer for the run; --shard K/N renders a part of the drawings.
              stipple render formula.inkml -o formula.png
              stipple render cats.ndjson --index 3 --size 256x256 -o cat.png
              stipple render cats.ndjson -o cats.npy --size 28x28
              stipple render quickdraw/ -o all.npy --width 2 --skip-bad-lines
            Views and pyramids (docs/views.md): --region X,Y,W,H writes that rectangle of the \
            canvas, --scale F (0 < F ≤ 1) or --size WxH (the largest scale that fits) shrinks it \
            exactly as the canvas's pyramid of 2×2 means does (--preview: drawn straight at that \
            scale, faster, approximate); --pyramid PATH writes the whole \
            canvas as Deep Zoom tiles (PATH.dzi, PATH_files/) or, with --layout xyz, as Leaflet's \
            PATH/Z/X/Y.png, drawn band by band in the memory of a band.
              stipple render huge.json --region 4096,4096,1920,1080 -o detail.png
              stipple render huge.json --size 1024x1024 -o overview.png
              stipple render huge.json --pyramid out/huge
            """)

    @Argument(help: "The JSON script to render (docs/reference.md §9), or an ink file: .inkml or .ndjson (docs/ink-formats.md). Into a folder or a .npy file: any number of ink files and folders of them.")
    var inputs: [String] = []

    /// The one input of every render but a dataset's.
    var script: String { inputs.first ?? "" }

    @Option(name: .shortAndLong, help: "The PNG to write, or the folder for --frames.")
    var output: String = ""

    // Unconditional, so that `--frame -1` reaches validate() instead of reading as a missing value.
    @Option(parsing: .unconditional, help: "The frame to render (from 0).")
    var frame: Int?

    // Unconditional, so that `--frames -1...2` reaches the parser's message.
    @Option(parsing: .unconditional,
            help: ArgumentHelp("Frames A...B (A ≤ B), or all (frame 0 to the last frame describe prints: the last live stamp, or the last undo, redo or clear while stamps never die): PNGs into the folder given by -o, or a video when -o ends in .y4m, .mp4, .mov, .mkv, .webm or .gif, or is - (y4m on stdout).",
                               valueName: "A...B|all"),
            transform: FrameSelection.parse)
    var frames: FrameSelection?

    @Option(help: ArgumentHelp("With --frames: render only the K-th of N contiguous parts of the range (K from 1), named as the whole run names them, so that N processes or machines can share the work and one folder (docs/distributed.md). With a .ndjson file into a folder or .npy: the K-th of N contiguous parts of its drawings. With --pyramid: the K-th of N parts of the canvas's rows of tiles; stipple pyramid-join finishes the pyramid.", valueName: "K/N"))
    var shard: String?

    @Flag(help: "With --frames: remove frame-NNNN.png files this run does not write (outside A...B, or of another digit width) that an earlier render left in the folder.")
    var clean = false

    @Flag(help: "With --frames, or a dataset into a folder: replace frame or drawing files that exist (by default an existing one is an error).")
    var overwrite = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Draw the canvas in tiles of N × N pixels (at most what the driver holds) and write the PNG band by band. Canvases larger than the driver's limit or than 4096×4096 are tiled without it (docs/large-canvases.md).", valueName: "N"))
    var tile: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Timelapse: touch times and undo, redo and clear entries play F times faster (F > 0); stamps still age one frame a frame. A saved drawing replays its strokes from frame 0.", valueName: "F"))
    var speed: Double?

    @Option(help: "Draw stamps as point sprites (default) or quads (placement exact on every driver).")
    var primitive: Primitive = .points

    @Option(help: ArgumentHelp("How stamps reach GL across frames: resident (ages computed in the shader, only new stamps uploaded) or reupload (every live stamp each frame, for comparison).", visibility: .hidden))
    var upload: UploadStrategy = .resident

    @Option(parsing: .unconditional, help: "PNG compression: 0-3 fast (Stipple's encoder on every core: per-row None/Sub/Up/Paeth, run-length Huffman; 0 stores; default 1, which also finds repeats farther back where a sample of the image shows they pay, as in textures and screenshots; 2-3 always look for them, 3 deeper, at 1.3-14 times the time), 4-9 smaller and slower (libpng's adaptive filters, deflate at that level).")
    var compression: Int = Int(PNGFile.defaultCompression)

    @OptionGroup(title: "Views and pyramids")
    var views: ViewArguments

    @OptionGroup(title: "Ink files")
    var ink: InkArguments

    @Flag(help: "Ink, rendering a whole .ndjson file into a folder or .npy: draw each stroke as one anti-aliased line, 2×radius wide with round caps and joins, along the curve its stamps would follow, instead of as stamps of the brush: a fraction of the work. Coverage only; --brush and --spacing do not apply.")
    var lines = false

    /// Whole .ndjson files, several inputs or folders of ink into a folder or a .npy file.
    var isDataset: Bool {
        let many = inputs.count > 1 || inputs.contains { FileSystem.entry(at: $0) == .folder }
        return (many || (try? ink.inkFormat(of: script)) == .quickDraw) && ink.index == nil && ink.key == nil
            && frames == nil && frame == nil
            && (output.hasSuffix("/") || OutputKind.pathExtension(output).isEmpty || OutputKind.pathExtension(output) == "npy"
                || FileSystem.entry(at: output) == .folder)
    }

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("Missing expected argument '<script>'.") }
        guard !output.isEmpty || views.pyramid != nil else { throw ValidationError("Missing expected argument '--output <output>'.") }
        try views.validate(frames: frames != nil, isDataset: isDataset, inkInput: (try? ink.inkFormat(of: script)) != nil,
                           output: output)
        if inputs.count > 1 || inputs.contains(where: { FileSystem.entry(at: $0) == .folder }), !isDataset {
            let what = inputs.count > 1 ? "several inputs" : "a folder"
            throw ValidationError("\(what) render as a dataset: ink files (.ndjson, .inkml) into a folder (-o NAME/) or a .npy file (-o NAME.npy), without --frame, --frames, --index or --key; a script renders one at a time.")
        }
        if frame != nil && frames != nil { throw ValidationError("Please give --frame or --frames, not both.") }
        if let frame, !(0...Limits.maxFrame).contains(frame) {
            throw ValidationError("Please give a frame from 0 to \(Limits.maxFrame) (got \(frame)).")
        }
        if let frames, shard == nil { try frames.validate() }  // a shard's part is checked once resolved
        if let shard {
            guard FrameShard(shard) != nil else { throw ValidationError("--shard is K/N with 1 ≤ K ≤ N, such as 2/3 (got \(shard)).") }
            guard frames != nil || isDataset || views.pyramid != nil else {
                throw ValidationError("--shard splits --frames A...B, a .ndjson file's drawings into a folder or .npy, or a --pyramid's tiles; please give --frames too.")
            }
        }
        if shard != nil && views.pyramid != nil && overwrite {
            throw ValidationError("a part of a pyramid (--shard) never replaces files: remove the old pyramid first, then write every part.")
        }
        if !isDataset, (try? ink.inkFormat(of: script)) == nil { try ink.refuseFor(script: script, viewSize: true) }
        if ink.skipBadLines && !isDataset {
            throw ValidationError("--skip-bad-lines applies when drawings render as a dataset: whole .ndjson files into a folder (-o NAME/) or a .npy file.")
        }
        if lines && !isDataset {
            throw ValidationError("--lines applies when drawings render as a dataset: whole .ndjson files into a folder (-o NAME/) or a .npy file (coverage only); a single drawing is drawn with its brush.")
        }
        if let speed, !(speed > 0 && speed.isFinite) { throw ValidationError("--speed is a number above 0, such as 20 (got \(speed)).") }
        if let tile, tile < 1 { throw ValidationError("Please give a tile side of at least 1 pixel (got \(tile)).") }
        if tile != nil, frames != nil, isVideoOutput(output) {
            throw ValidationError("--tile draws PNGs band by band; a video's frames are drawn whole (leave --tile out).")
        }
        if !(0...9).contains(compression) { throw ValidationError("Please give a compression level from 0 to 9.") }
    }

    func run() async throws {
        if isDataset { return try await renderDataset() }
        let format = try ink.inkFormat(of: script)
        var loaded = format != nil
            ? try InkImport.script(path: script, selection: ink.selection, options: try ink.options(), format: format)
            : try Script.load(path: script)
        if let speed { try loaded.play(atSpeed: speed) }
        let scene = try Scene(script: loaded)
        if views.pyramid != nil || views.asksForView(inkSize: format == nil ? ink.size : nil) {
            return try await renderView(scene)
        }
        // Bad output paths are refused before EGL is opened.
        if frames == nil { try checkOutput(output, notAnyOf: scene.inputFiles) }
        _ = try OutputKind.forRender(output, frames: frames != nil)
        let renderer = try makeRenderer()
        try checkTile(renderer)
        let tiled = drawsInTiles(scene, renderer) && !(frames != nil && isVideoOutput(output))
        if !tiled { try scene.checkFits(renderer.info) }
        let settings = RenderSettings(effects: scene.effects, primitive: primitive)

        if let frames {
            let range = frames.resolve(scene)
            let whole = range.lower...range.upper
            let part = shard.flatMap(FrameShard.init).map({ $0.part(of: whole) }) ?? whole
            try range.validate(written: part?.count ?? 0)
            if isVideoOutput(output) {
                // An empty part writes the header alone, so that every part's file can be joined.
                return try await renderVideo(scene, part, output: output, renderer: renderer, settings: settings)
            }
            guard let part else {
                // Nothing to write; the output is still checked as every part's is (a folder, or
                // a path where one can be made), so that a bad -o fails every shard alike.
                try OutputFolder.make(output, for: "--frames").removeIfEmpty()
                note("\(output): shard \(shard ?? "") of \(range.count) frame\(range.count == 1 ? "" : "s") is empty; nothing written")
                return
            }
            try await renderFrames(scene, whole: whole, part: part, renderer, settings)
            return
        }
        let n = frame ?? 0
        if tiled {
            try await renderTiledFrame(scene, frame: n, renderer: renderer, settings: settings)
            return note(summary(scene, frame: n))
        }
        let image = try await renderer.render(scene, frame: n, primitive: primitive)
        try PNGFile.write(image, to: output, compression: Int32(compression))
        note(summary(scene, frame: n))
    }

    /// Renders on the render thread while earlier frames are encoded on other threads.
    /// A shard writes `part` of `whole`: named as the whole run names them, and only frames
    /// outside the whole range are stale (other shards write the rest of it into the folder).
    private func renderFrames(_ scene: Scene, whole: ClosedRange<Int>, part: ClosedRange<Int>, _ renderer: Renderer,
                              _ settings: RenderSettings) async throws {
        let sequence = FrameSequence(frames: part, folder: output, compression: Int32(compression),
                                     lastFrameOfRun: whole.upperBound)
        let made = try OutputFolder.make(output, for: "--frames")
        let stale: [String]
        do {
            stale = try staleFrames(of: FrameSequence(frames: whole, folder: output), notAnyOf: scene.inputFiles)
            try sequence.checkTargets(notAnyOf: scene.inputFiles, overwrite: overwrite)
            if drawsInTiles(scene, renderer) {
                try await renderTiledFrames(scene, sequence, renderer: renderer, settings: settings)
                try remove(stale)
                return note(summary(scene, frames: sequence, removed: stale.count))
            }
            // Stamps stay resident with their ages at frame 0: a frame uploads only what is new.
            let layers = try await scene.makeLayers(on: renderer)
            try await renderSequence(sequence, scene, layers, renderer, settings)
        } catch {
            made.removeIfEmpty()
            throw error
        }
        try remove(stale)
        note(summary(scene, frames: sequence, removed: stale.count))
    }

    private func renderSequence(_ sequence: FrameSequence, _ scene: Scene, _ layers: [LayerID],
                                _ renderer: Renderer, _ settings: RenderSettings) async throws {
        let range = sequence.frames
        let canvas = scene.canvas, upload = self.upload
        let progress = ProgressLine(total: range.count, label: "rendering frames")
        if scene.hasStrokeLayers {
            // Stroke layers read the canvas drawn so far: each frame is drawn from the scene.
            let primitive = settings.primitive
            return try await sequence.run(overwrite: overwrite, render: { n in
                try await renderer.render(scene, frame: n, primitive: primitive)
            }, progress: { progress.update($0) })
        }
        try await sequence.run(overwrite: overwrite, render: { n in
            try await renderer.render(scene.state(atFrame: n), layers: layers, canvas: canvas,
                                      settings: settings, upload: upload)
        }, progress: { progress.update($0) })
    }
}
