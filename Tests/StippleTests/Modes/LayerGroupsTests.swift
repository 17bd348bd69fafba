import Foundation
import XCTest
@testable import Stipple

/// Stroke layers that lie apart share their passes (`LayerGroups`): the frame is the one
/// drawn layer by layer, byte for byte, in one pass, in tiles and in a bake that keeps its
/// sketch, over every mode, shadows, blurs, detect edges and plain strokes between them,
/// stamps that age and drift, strokes crossing each other and the canvas's edges.
final class LayerGroupsTests: XCTestCase {
    private static let modes = [
        #""effect": "desaturate""#, #""effect": "soften""#, #""effect": "sharpen""#, #""blend": "multiply""#,
        #""shadow": { "blur": 3, "offset": [5, -4] }"#, #""shadow": { "blur": 0, "offset": [-9, 2] }"#,
        #""blend": "erase""#, #""strokeOpacity": 0.6"#, #""blend": "screen""#, #""effect": "lighten""#,
        #""edges": { "tolerance": 40 }, "effect": "darken""#,
    ]

    // MARK: the schedule

    private func zone(_ cells: Int...) -> LayerZone { LayerZone(cells: cells) }

    func testLayersApartShareAGroup() {
        let over = StrokeMode()
        XCTAssertEqual(LayerGroups.schedule([zone(1), zone(2), zone(3)], modes: [over, over, over]), [[0, 1, 2]])
    }

    func testALayerFollowsEveryEarlierLayerItMeets() {
        let over = StrokeMode()
        // 0 and 2 meet; 1 lies apart from both.
        XCTAssertEqual(LayerGroups.schedule([zone(1), zone(5), zone(1, 2)], modes: [over, over, over]), [[0, 1], [2]])
        // A chain: each meets the one before.
        XCTAssertEqual(LayerGroups.schedule([zone(1), zone(1, 2), zone(2, 3), zone(9)], modes: [over, over, over, over]),
                       [[0, 3], [1], [2]])
    }

    func testModesKeepTheirOwnGroups() {
        var soften = StrokeMode(); soften.effect = .soften
        let over = StrokeMode()
        // 2 (over) meets nothing: it joins the first over group; 3 meets 1, so it comes after 1's group.
        XCTAssertEqual(LayerGroups.schedule([zone(1), zone(2), zone(3), zone(2)], modes: [over, soften, over, over]),
                       [[0, 2], [1], [3]])
        // A later layer that meets one placed late is placed later still.
        XCTAssertEqual(LayerGroups.schedule([zone(1), zone(1), zone(7), zone(7)], modes: [soften, over, over, soften]),
                       [[0], [1, 2], [3]])
    }

    func testZonesOfStrokesApartDoNotMeet() {
        var shadow = StrokeMode(); shadow.shadow = StrokeMode.Shadow()
        func stamps(_ x: Float, _ y: Float) -> [SketchPoint] {
            (0..<10).map { SketchPoint(x: x + Float($0) * 2, y: y, radius: 4, color: Color(red: 1, green: 0, blue: 0)) }
        }
        func zone(_ s: [SketchPoint], _ mode: StrokeMode) -> LayerZone {
            s.withUnsafeBufferPointer { StrokeLayerPass.zone(mode: mode, stamps: $0, ageOffset: 0, effects: AgeEffects(), width: 400, height: 400) }
        }
        XCTAssertFalse(zone(stamps(10, 10), StrokeMode()).meets(zone(stamps(10, 200), StrokeMode())))
        XCTAssertTrue(zone(stamps(10, 10), StrokeMode()).meets(zone(stamps(10, 20), StrokeMode())))
        XCTAssertFalse(zone(stamps(10, 10), StrokeMode()).meets(zone(stamps(10, 40), StrokeMode())))
        // Sharing cells: 12 px apart their squares, a pixel of rounding and one of margin each way, part; 11 px apart they meet.
        XCTAssertFalse(zone(stamps(10, 10), StrokeMode()).meets(zone(stamps(10, 22), StrokeMode())))
        XCTAssertTrue(zone(stamps(10, 10), StrokeMode()).meets(zone(stamps(10, 21), StrokeMode())))
        // A shadow's cast and blur reach further.
        XCTAssertFalse(zone(stamps(10, 10), StrokeMode()).meets(zone(stamps(10, 35), StrokeMode())))
        XCTAssertTrue(zone(stamps(10, 10), shadow).meets(zone(stamps(10, 35), shadow)))
        XCTAssertFalse(zone(stamps(10, 10), shadow).meets(zone(stamps(10, 90), shadow)))
    }

    // MARK: frames

    /// Many short strokes over a `width`×`height` canvas: most lie apart, some cross.
    /// Without a background, a script for a bake.
    private func script(seed: UInt64, maxAge: Int, width: Int, height: Int, background: String?) -> String {
        var rng = SplitMix64(seed: seed)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        let (w, h) = (Double(width), Double(height))
        let draw = (0..<40).map { i -> String in
            let t0 = unit() * 0.8
            // Some strokes start on an edge of the canvas.
            let x = i % 7 == 0 ? 0 : unit() * w, y = i % 9 == 1 ? h - 1 : unit() * h
            let (dx, dy) = (unit() * 40 - 20, unit() * 40 - 20)
            let samples = (0..<4).map { k in
                #"{ "x": \#(x + Double(k) * dx), "y": \#(y + Double(k) * dy), "t": \#(t0 + Double(k) * 0.05), "pressure": \#(0.3 + unit() * 0.7) }"#
            }
            // A run of one mode, then another: most neighbours share a mode. Every sixth stroke is plain.
            let mode = i % 6 == 5 ? "" : Self.modes[(i / 3 + Int(seed % 11)) % Self.modes.count] + ", "
            let colour = String(format: "#%02x%02x%02x", Int(unit() * 255), Int(unit() * 255), Int(unit() * 255))
            return #"{ "brush": "soft", \#(mode)"color": "\#(colour)", "radius": \#(2 + unit() * 7), "points": [\#(samples.joined(separator: ", "))] }"#
        }
        return """
            { \(background.map { #""canvas": { "width": \#(width), "height": \#(height), "background": "\#($0)" },"# } ?? "")
              "fps": 30, "maxAge": \(maxAge), "dissolveDistance": 4,
              "brushes": { "soft": { "builtin": "soft-round", "size": 32 } },
              "draw": [ \(draw.joined(separator: ",\n")) ] }
            """
    }

    /// How many groups the layers of `scene` at `frame` are drawn in, and how many layers.
    private func groups(_ scene: Scene, frame: Int) -> (groups: Int, layers: Int) {
        let batches = scene.batches(atFrame: frame)
        var groups = 0, layers = 0
        var zones: [LayerZone] = [], modes: [LayerGroups.Key] = []
        func flush() {
            groups += LayerGroups.schedule(zones, modes: modes).count
            (zones, modes) = ([], [])
        }
        for pass in FramePasses(batches).passes {
            guard case let .layer(i, mode) = pass else { flush(); continue }
            let live = batches[i].stamps.withUnsafeBufferPointer {
                StrokeLayerPass(mode: mode, stamps: $0, ageOffset: 0, effects: scene.effects,
                                width: scene.canvas.width, height: scene.canvas.height, reference: .color(0, 0, 0, 0))
            }
            guard let live else { continue }
            layers += 1
            zones.append(batches[i].stamps.withUnsafeBufferPointer {
                StrokeLayerPass.zone(mode: mode, stamps: $0, ageOffset: 0, effects: scene.effects,
                                     width: scene.canvas.width, height: scene.canvas.height)
            })
            modes.append(LayerGroups.Key(live))
        }
        flush()
        return (groups, layers)
    }

    func testSharedPassesDrawTheFramesLayerByLayerDraws() async throws {
        let dir = try TestSupport.temporaryDirectory(self, "layer-groups")
        let renderer = try Renderer()
        try TileTestSupport.requireTranslationInvariantDriver(renderer)
        var (shared, layers) = (0, 0)
        // seed, maxAge, width, height, background
        let cases: [(UInt64, Int, Int, Int, String)] = [(1, 0, 320, 200, "#406080"), (2, 24, 257, 181, "#ffffff"),
                                                        (3, 0, 400, 150, "#00000000"), (4, 12, 200, 200, "#102030c0")]
        for (seed, maxAge, w, h, background) in cases {
            let path = dir.appendingPathComponent("s\(seed).json").path
            try script(seed: seed, maxAge: maxAge, width: w, height: h, background: background)
                .write(toFile: path, atomically: true, encoding: .utf8)
            let scene = try Scene(script: try Script.load(path: path))
            for frame in [8, 20, 40] {
                let counted = groups(scene, frame: frame)
                shared += counted.layers - counted.groups
                layers += counted.layers
                await renderer.setMergesLayers(false)
                let apart = try await renderer.render(scene, frame: frame)
                await renderer.setMergesLayers(true)
                let together = try await renderer.render(scene, frame: frame)
                let what = "seed \(seed), frame \(frame), \(counted.layers) layers in \(counted.groups) groups"
                XCTAssertNil(DifferentialTests.firstDifference(apart.pixels, together.pixels, width: w), what)
                let plan = try await renderer.planTiles(scene, frame: frame, tile: 64 + Int(seed) * 17)
                let tiled = try await renderer.renderTiled(plan)
                XCTAssertNil(DifferentialTests.firstDifference(apart.pixels, tiled.pixels, width: w), "\(what), in tiles")
            }
        }
        // Runs of five layers at most (a plain stroke every sixth), of two modes: a quarter at least share.
        XCTAssertGreaterThan(shared, layers / 4, "layers drawn in a shared group")
        print("layer groups: \(layers) layers, \(layers - shared) passes")
    }

    /// Strokes of one mode packed close over plain ones: many pairs lie just inside or just
    /// outside each other's reach (a shadow cast onto a neighbour, a blur reading one), and
    /// one long run of layers is scheduled at once.
    func testPackedStrokesOfOneModeDrawTheSameFrame() async throws {
        let dir = try TestSupport.temporaryDirectory(self, "layer-groups-packed")
        let renderer = try Renderer()
        let modes = [#""shadow": { "blur": 3, "offset": [8, -6] }"#, ##""shadow": { "blur": 1.5, "offset": [-6, 7], "color": "#20408080" }"##,
                     #""effect": "soften""#, #""effect": "sharpen""#, #""effect": "desaturate""#, #""strokeOpacity": 0.6"#,
                     #""blend": "multiply""#,
                     // "Detect edges" strokes, each with its own reference, share the passes of a group.
                     #""edges": { "tolerance": 60 }, "effect": "darken""#, #""edges": { "tolerance": 90 }, "blend": "screen""#,
                     #""edges": { "tolerance": 60 }, "effect": "soften""#]
        var shared = 0
        for (n, mode) in modes.enumerated() {
            var rng = SplitMix64(seed: 40 + UInt64(n))
            func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
            let (w, h) = (240, 160)
            // Plain strokes first, so that blurs and effects have something to change; then the run.
            let draw = (0..<120).map { i -> String in
                let (x, y) = (unit() * Double(w), unit() * Double(h))
                let (dx, dy) = (unit() * 30 - 15, unit() * 30 - 15)
                let colour = String(format: "#%02x%02x%02x", Int(unit() * 255), Int(unit() * 255), Int(unit() * 255))
                let keys = i < 40 ? "" : mode + ", "
                return #"{ "brush": "soft", \#(keys)"color": "\#(colour)", "radius": \#(2 + unit() * (i < 40 ? 9 : 3)), "points": [{ "x": \#(x), "y": \#(y), "t": 0 }, { "x": \#(x + dx), "y": \#(y + dy), "t": 0.05 }] }"#
            }
            let path = dir.appendingPathComponent("m\(n).json").path
            try """
                { "canvas": { "width": \(w), "height": \(h), "background": "#c08040" }, "fps": 30,
                  "brushes": { "soft": { "builtin": "soft-round", "size": 32 } }, "draw": [ \(draw.joined(separator: ",\n")) ] }
                """.write(toFile: path, atomically: true, encoding: .utf8)
            let scene = try Scene(script: try Script.load(path: path))
            let counted = groups(scene, frame: 10)
            shared += counted.layers - counted.groups
            await renderer.setMergesLayers(false)
            let apart = try await renderer.render(scene, frame: 10)
            await renderer.setMergesLayers(true)
            let together = try await renderer.render(scene, frame: 10)
            XCTAssertNil(DifferentialTests.firstDifference(apart.pixels, together.pixels, width: w),
                         "\(mode): \(counted.layers) layers in \(counted.groups) groups")
        }
        XCTAssertGreaterThan(shared, 150, "layers drawn in a shared group")
    }

    /// Two sharpen strokes eight rows apart, in cells of their own: the second reads, through
    /// its blur, pixels the first changes, so they must not share their passes.
    func testABlurReadsANeighboursPixels() async throws {
        let dir = try TestSupport.temporaryDirectory(self, "layer-groups-blur")
        let renderer = try Renderer()
        var rng = SplitMix64(seed: 77)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        // Texture under both: short plain strokes of every colour.
        var draw = (0..<80).map { _ -> String in
            let (x, y) = (unit() * 64, unit() * 32)
            let colour = String(format: "#%02x%02x%02x", Int(unit() * 255), Int(unit() * 255), Int(unit() * 255))
            return #"{ "brush": "hard", "color": "\#(colour)", "radius": 1.5, "points": [{ "x": \#(x), "y": \#(y), "t": 0 }, { "x": \#(x + 3), "y": \#(y + 1), "t": 0.05 }] }"#
        }
        for y in [12, 20] {
            draw.append(##"{ "brush": "hard", "effect": "sharpen", "color": "#ffffff", "radius": 2, "points": [{ "x": 4, "y": \##(y), "t": 0 }, { "x": 60, "y": \##(y), "t": 0.05 }] }"##)
        }
        let path = dir.appendingPathComponent("blur.json").path
        try """
            { "canvas": { "width": 64, "height": 32, "background": "#808080" }, "fps": 30,
              "brushes": { "hard": { "builtin": "hard-round", "size": 16 } }, "draw": [ \(draw.joined(separator: ",\n")) ] }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let scene = try Scene(script: try Script.load(path: path))
        await renderer.setMergesLayers(false)
        let apart = try await renderer.render(scene, frame: 5)
        await renderer.setMergesLayers(true)
        let together = try await renderer.render(scene, frame: 5)
        let counted = groups(scene, frame: 5)
        XCTAssertEqual(counted.groups, 2, "the two strokes are drawn apart")
        XCTAssertNil(DifferentialTests.firstDifference(apart.pixels, together.pixels, width: 64))
    }

    /// A bake that keeps its sketch draws its resident layers in shared groups too, and keeps
    /// their layer targets from frame to frame when they do not age.
    func testABakeWithSharedPassesWritesTheSameVideo() async throws {
        let dir = try TestSupport.temporaryDirectory(self, "layer-groups-bake")
        let (w, h) = (240, 136)
        let header = Y4MHeader(width: w, height: h, rateNumerator: 30, rateDenominator: 1, chroma: .yuv420(tag: "420jpeg"))
        let input = dir.appendingPathComponent("in.y4m").path
        try ModeFixtures.writeBusyVideo(input, header: header, frames: 30)
        for (seed, maxAge) in [(UInt64(7), 0), (8, 16)] {
            let path = dir.appendingPathComponent("s\(seed).json").path
            try script(seed: seed, maxAge: maxAge, width: w, height: h, background: nil)
                .write(toFile: path, atomically: true, encoding: .utf8)
            let loaded = try VideoBake.loadScript(script: path, header: header, video: input)
            func bake(merging: Bool, keeping: Bool = true) async throws -> Data {
                let renderer = try Renderer()
                await renderer.setMergesLayers(merging)
                await renderer.setKeepsLayerTargets(keeping)
                let bake = try VideoBake(scene: try Scene(script: loaded), header: header, renderer: renderer)
                bake.keepsSketch = true
                let output = dir.appendingPathComponent("\(seed)-\(merging)-\(keeping).y4m").path
                let writer = try Y4MWriter(path: output, header: header)
                _ = try await bake.run(reader: try Y4MReader(path: input), writer: writer)
                try writer.finish()
                return try Data(contentsOf: URL(fileURLWithPath: output))
            }
            let apart = try await bake(merging: false, keeping: false), together = try await bake(merging: true)
            XCTAssertEqual(apart.count, together.count)
            XCTAssertNil(apart.indices.first { apart[$0] != together[$0] }, "seed \(seed): first differing byte")
            let redrawn = try await bake(merging: true, keeping: false)
            XCTAssertNil(redrawn.indices.first { redrawn[$0] != together[$0] }, "seed \(seed), layer targets kept: first differing byte")
        }
    }
}
