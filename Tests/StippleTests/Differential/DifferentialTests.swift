import Foundation
import XCTest
@testable import Stipple
@testable import StippleGolden

/// Every path draws the same frame: random scripts mixing every feature (`RandomScript`),
/// each drawn by every path and compared. For each script:
/// - one pass equals tiles at three random sizes, byte for byte;
/// - views are the one-pass render cropped and reduced, and every tile of a pyramid (Deep
///   Zoom with small tiles, xyz) is its level's pixels;
/// - `render --frames` shards joined equal the whole range, file for file, as PNGs and as video;
/// - a bake with the kept sketch equals the full redraw, and `bake --frames A...B` equals
///   the same frames of the whole bake;
/// - the CPU oracle agrees with a stroke layer within 2 per channel;
/// - an opaque canvas with no eraser keeps every pixel opaque;
/// - bisect on a repainted entry names it;
/// - the script's length (`describe`, `--frames all`, the bake) is where its frames stop
///   changing: with ageing, the canvas is empty after it (a bake passes the video through).
///
/// `STIPPLE_DIFFERENTIAL_CASES` sets how many scripts (default 24), `STIPPLE_DIFFERENTIAL_SEED`
/// the first seed; `make differential N=…` runs more. A failure prints its seed and the
/// smallest script (entries removed one by one while it still fails).
final class DifferentialTests: XCTestCase {
    static var cases: Int { Int(ProcessInfo.processInfo.environment["STIPPLE_DIFFERENTIAL_CASES"] ?? "") ?? 24 }
    static var firstSeed: UInt64 { UInt64(ProcessInfo.processInfo.environment["STIPPLE_DIFFERENTIAL_SEED"] ?? "") ?? 2718 }

    struct Case {
        var seed: UInt64
        var json: String
        var path: String
        var scene: Scene
        var frame: Int
        var width: Int, height: Int
    }

    func testEveryPathDrawsTheSameFrame() async throws {
        let renderer = try Renderer()
        try TileTestSupport.requireTranslationInvariantDriver(renderer)
        let dir = try TestSupport.temporaryDirectory(self, "differential")
        var failures: [String] = []
        var counts: [String: Int] = [:]
        for n in 0..<Self.cases {
            let seed = Self.firstSeed &+ UInt64(n)
            guard let c = try load(seed: seed, dir: dir, forBake: n % 4 == 3, edgesHeavy: n % 2 == 1) else {
                counts["refused", default: 0] += 1
                continue
            }
            var checks: [(String, (Case) async throws -> String?)] = []
            if n % 4 == 3 {
                checks.append(("bake", { try await self.bakes($0) }))
            } else {
                checks.append(("tiles", { try await self.tiles($0, renderer) }))
                checks.append(("opaque", { try await self.staysOpaque($0, renderer) }))
                checks.append(("oracle", { try await self.oracle($0, renderer) }))
                checks.append(("bisect", { try await self.bisect($0, renderer) }))
                checks.append(("length", { try await self.length($0, renderer) }))
                if n % 4 == 1 { checks.append(("shards", { try await self.shards($0, dir: dir) })) }
                if n % 4 == 2 { checks.append(("views", { try await self.views($0, renderer, dir: dir) })) }
            }
            for (name, check) in checks {
                counts[name, default: 0] += 1
                // A check that throws fails, with the error: every path must draw every script.
                let guarded: (Case) async throws -> String? = { c in
                    do { return try await check(c) } catch { return "threw: \(error)" }
                }
                guard let failure = try await guarded(c) else { continue }
                let smallest = try await shrink(c, dir: dir, check: guarded)
                failures.append("seed \(seed), \(name): \(failure)\nsmallest script (frame \(smallest.frame)):\n\(smallest.json)")
            }
        }
        print("differential: \(Self.cases) scripts from seed \(Self.firstSeed); checks run: "
              + counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        XCTAssertTrue(failures.isEmpty, failures.joined(separator: "\n\n"))
    }

    // MARK: scripts

    func load(seed: UInt64, dir: URL, forBake: Bool, edgesHeavy: Bool) throws -> Case? {
        var random = RandomScript(seed: seed)
        random.edgesHeavy = edgesHeavy
        let (json, w, h) = random.script(forBake: forBake, image: "bg-\(seed).png")
        if json.contains("bg-\(seed).png") {
            try random.backgroundImage(width: w, height: h).writePNG(to: dir.appendingPathComponent("bg-\(seed).png").path)
        }
        let frame = random.int(0...36)
        return try load(json, seed: seed, frame: frame, dir: dir, forBake: forBake, width: w, height: h)
    }

    func load(_ json: String, seed: UInt64, frame: Int, dir: URL, forBake: Bool, width: Int, height: Int) throws -> Case? {
        let path = dir.appendingPathComponent("script-\(seed).json").path
        var text = json
        if forBake {
            // A bake draws on the video's canvas: the script's is the video's size.
            text = text.replacingOccurrences(of: "{\n  \"fps\"",
                                             with: "{\n  \"canvas\": { \"width\": \(width), \"height\": \(height) },\n  \"fps\"")
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        // Session entries with nothing to act on are bad input: such a script is not drawn.
        guard let scene = try? Scene.load(path: path) else { return nil }
        return Case(seed: seed, json: text, path: path, scene: scene, frame: frame, width: width, height: height)
    }

    /// The smallest script that still fails `check`: entries removed one at a time.
    func shrink(_ c: Case, dir: URL, check: (Case) async throws -> String?) async throws -> Case {
        guard let object = try JSONSerialization.jsonObject(with: Data(c.json.utf8)) as? [String: Any],
              var draw = object["draw"] as? [Any] else { return c }
        var best = c
        var i = draw.count - 1
        while i >= 0, draw.count > 1 {
            var trial = draw
            trial.remove(at: i)
            var o = object
            o["draw"] = trial
            let text = String(decoding: try JSONSerialization.data(withJSONObject: o, options: [.prettyPrinted, .sortedKeys]),
                              as: UTF8.self)
            if let smaller = try load(text, seed: c.seed, frame: c.frame, dir: dir, forBake: false, width: c.width,
                                      height: c.height),
               try await check(smaller) != nil {
                draw = trial
                best = smaller
            }
            i -= 1
        }
        return best
    }

    // MARK: checks

    static func firstDifference(_ a: [UInt8], _ b: [UInt8], width: Int) -> String? {
        guard a.count == b.count else { return "sizes \(a.count) and \(b.count) bytes" }
        var count = 0, first = -1, worst = 0
        for i in stride(from: 0, to: a.count, by: 4) where a[i..<i + 4] != b[i..<i + 4] {
            count += 1
            if first < 0 { first = i / 4 }
            for k in 0..<4 { worst = max(worst, abs(Int(a[i + k]) - Int(b[i + k]))) }
        }
        return count == 0 ? nil : "\(count) pixels differ (up to \(worst)), first at (\(first % width), \(first / width))"
    }

    /// One pass against tiles of three random sizes.
    func tiles(_ c: Case, _ renderer: Renderer) async throws -> String? {
        let one = try await renderer.render(c.scene, frame: c.frame)
        var random = RandomScript(seed: c.seed ^ 0x7117)
        // No more than about 600 tiles, so the small sizes stay quick.
        let least = max(1, Int((Double(c.width * c.height) / 600).squareRoot().rounded(.up)))
        let most = max(least, min(1200, max(c.width, c.height) + 40))
        for tile in (0..<3).map({ _ in random.int(least...most) }) {
            let plan = try await renderer.planTiles(c.scene, frame: c.frame, tile: tile)
            let tiled = try await renderer.renderTiled(plan)
            if let d = Self.firstDifference(one.pixels, tiled.pixels, width: c.width) { return "--tile \(tile): \(d)" }
        }
        return nil
    }

    func views(_ c: Case, _ renderer: Renderer, dir: URL) async throws -> String? {
        if let f = try await ViewTests.checkViews(c.scene, frame: c.frame, renderer, seed: c.seed) { return f }
        if let f = try await ViewTests.checkBoxedViews(c.scene, frame: c.frame, renderer, seed: c.seed ^ 0xB0) { return f }
        if let f = try await ViewTests.checkPyramid(c.scene, frame: c.frame, renderer, layout: .deepZoom,
                                                    tileSize: 61, in: dir) { return f }
        return try await ViewTests.checkPyramid(c.scene, frame: c.frame, renderer, layout: .xyz, in: dir)
    }

    /// Past the last frame of `--frames all` (the timeline `describe` prints) nothing changes:
    /// the frames after it are all alike, and with ageing they show the canvas alone.
    func length(_ c: Case, _ renderer: Renderer) async throws -> String? {
        let last = c.scene.timeline.allFrames.upperBound
        let after = try await renderer.render(c.scene, frame: last + 1)
        let later = try await renderer.render(c.scene, frame: last + 9)
        if let d = Self.firstDifference(after.pixels, later.pixels, width: c.width) {
            return "--frames all ends at \(last), but frames \(last + 1) and \(last + 9) differ: \(d)"
        }
        if c.scene.effects.maxAge > 0 {
            var empty = c.scene
            empty.batches = empty.batches.map { var b = $0; b.stamps = []; b.rotations = nil; return b }
            let canvas = try await renderer.render(empty, frame: 0)
            if let d = Self.firstDifference(canvas.pixels, after.pixels, width: c.width) {
                return "--frames all ends at \(last), but frame \(last + 1) still shows stamps: \(d)"
            }
        } else if last > 0 {
            let end = try await renderer.render(c.scene, frame: last)
            if let d = Self.firstDifference(end.pixels, after.pixels, width: c.width) {
                return "--frames all ends at \(last), but frame \(last + 1) differs from it: \(d)"
            }
        }
        return nil
    }

    /// An opaque background with no eraser stays opaque everywhere.
    func staysOpaque(_ c: Case, _ renderer: Renderer) async throws -> String? {
        guard !c.scene.batches.contains(where: { $0.mode?.blend == .erase }) else { return nil }
        switch c.scene.canvas.background {
        case let .color(color) where color.alpha == 1: break
        case let .image(image) where stride(from: 3, to: image.pixels.count, by: 4).allSatisfy({ image.pixels[$0] == 255 }): break
        default: return nil
        }
        let image = try await renderer.render(c.scene, frame: c.frame)
        for i in stride(from: 3, to: image.pixels.count, by: 4) where image.pixels[i] != 255 {
            return "pixel (\((i / 4) % c.width), \((i / 4) / c.width)) has alpha \(image.pixels[i]) on an opaque canvas"
        }
        return nil
    }

    /// The CPU oracle against the GPU for the frame's last stroke layer (small canvases).
    func oracle(_ c: Case, _ renderer: Renderer) async throws -> String? {
        // Small canvases only, drawn in one pass (a 1×16909 canvas is small but too long for one).
        guard c.width * c.height <= 160 * 160, max(c.width, c.height) <= 4096 else { return nil }
        let batches = try await renderer.resolvedBatches(c.scene, atFrame: c.frame)
        guard let i = batches.lastIndex(where: { $0.mode != nil }), let mode = batches[i].mode,
              (mode.shadow?.radius ?? 0) <= 24 else { return nil }
        let settings = RenderSettings(effects: c.scene.effects)
        let before = try await renderer.renderPremultiplied(canvas: c.scene.canvas, batches: Array(batches[..<i]),
                                                            settings: settings)
        var plain = batches[i]
        plain.mode = nil
        let layer = try await renderer.renderPremultiplied(canvas: Canvas(width: c.width, height: c.height),
                                                           batches: [plain], settings: settings)
        let after = try await renderer.renderPremultiplied(canvas: c.scene.canvas, batches: Array(batches[...i]),
                                                           settings: settings)
        var reference: [UInt8]?
        if case let .color(r, g, b, a)? = batches[i].edgeReference { reference = [r, g, b, a] }
        let expected = ModeOracle.apply(mode, before: before, layer: layer, width: c.width, height: c.height,
                                        reference: reference)
        let worst = ModeFixtures.worst(after, expected)
        return worst.diff <= 2 ? nil
            : "entry \(i + 1) (\(mode.summary)): the GPU is \(worst.diff) from the oracle at byte \(worst.at)"
    }

    /// Repainting one entry: bisect names it, unless everything it changed lies under later
    /// entries (then no prefix decides those pixels).
    func bisect(_ c: Case, _ renderer: Renderer) async throws -> String? {
        let shown = c.scene.session.shownEntries(count: c.scene.batches.count, atFrame: c.frame)
        guard shown.count >= 2, c.width * c.height <= 1 << 20 else { return nil }
        var random = RandomScript(seed: c.seed ^ 0xB15E)
        let position = random.int(0...shown.count - 1)
        let entry = shown[position]
        var moved = c.scene
        // Its paint changes, not where it lies: half the alpha, the colour inverted.
        moved.batches[entry].stamps = moved.batches[entry].stamps.map {
            var p = $0
            p.alpha *= 0.5; p.red = 1 - p.red; p.green = 1 - p.green; p.blue = 1 - p.blue
            return p
        }
        let golden = try await renderer.render(c.scene, frame: c.frame)
        let altered = try await renderer.render(moved, frame: c.frame)
        guard golden.pixels != altered.pixels else { return nil }
        var search = try await GoldenBisect(renderer: renderer, scene: moved, frame: c.frame, golden: golden,
                                            tolerance: .exact)
        let outcome = try await search.run()
        switch outcome {
        case let .entry(blamed, _, _) where blamed == entry: return nil
        case .entry, .background, .undrawn, .nothing:
            // Where the entry's own change shows outside every later entry, it must be named.
            let later = Array(shown[(position + 1)...])
            let laterFootprints = try await renderer.resolvedBatches(c.scene, atFrame: c.frame).enumerated()
                .filter { later.contains(shown[$0.offset]) }
                .map { item -> StampBatch in
                    var b = item.element
                    b.mode = b.mode?.footprint
                    b.stamps = b.stamps.map { var p = $0; p.alpha = 1; return p }
                    return b
                }
            // In tiles where the canvas needs them, as bisect draws it.
            let footprints = try await renderer.renderTiled(renderer.planTiles(
                canvas: Canvas(width: c.width, height: c.height), batches: laterFootprints,
                settings: RenderSettings(effects: c.scene.effects)))
            let visible = stride(from: 0, to: golden.pixels.count, by: 4).contains {
                golden.pixels[$0..<$0 + 4] != altered.pixels[$0..<$0 + 4] && footprints.pixels[$0 + 3] == 0
            }
            if !visible { return nil }
            return "repainted entry \(entry + 1), bisect says \(outcome.summary)"
        case .sizes: return "sizes"
        }
    }

    /// `render --frames` in two or three shards joined against the whole range.
    func shards(_ c: Case, dir: URL) async throws -> String? {
        guard c.width * c.height <= 200_000 else { return nil }
        let whole = dir.appendingPathComponent("whole-\(c.seed)").path, parts = dir.appendingPathComponent("parts-\(c.seed)").path
        let range = "\(c.frame / 2)...\(c.frame / 2 + 5)"
        let r = try TestSupport.stipple(["render", c.path, "-o", whole, "--frames", range])
        guard r.status == 0 else { return "render --frames \(range) failed: \(r.stderr)" }
        let n = 2 + Int(c.seed % 2)
        for k in 1...n {
            let p = try TestSupport.stipple(["render", c.path, "-o", parts, "--frames", range, "--shard", "\(k)/\(n)"])
            guard p.status == 0 else { return "--shard \(k)/\(n) failed: \(p.stderr)" }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: whole).sorted()
        guard names == (try FileManager.default.contentsOfDirectory(atPath: parts).sorted()) else {
            return "the shards wrote other files than the whole run"
        }
        for name in names where FileManager.default.contents(atPath: "\(whole)/\(name)")
            != FileManager.default.contents(atPath: "\(parts)/\(name)") {
            return "frames \(range) in \(n) shards: \(name) differs from the whole run's"
        }
        // The same range as a video: the parts' frames, in order, are the whole video's.
        guard c.scene.canvas.width <= 4096, c.scene.canvas.height <= 4096 else { return nil }
        let video = try TestSupport.stipple(["render", c.path, "-o", "\(whole).y4m", "--frames", range])
        guard video.status == 0 else { return "render --frames \(range) -o .y4m failed: \(video.stderr)" }
        var joined: [[UInt8]] = []
        for k in 1...n {
            let p = try TestSupport.stipple(["render", c.path, "-o", "\(parts)-\(k).y4m", "--frames", range, "--shard", "\(k)/\(n)"])
            guard p.status == 0 else { return "-o .y4m --shard \(k)/\(n) failed: \(p.stderr)" }
            joined += try VideoTestSupport.read("\(parts)-\(k).y4m").frames
        }
        let all = try VideoTestSupport.read("\(whole).y4m").frames
        guard joined.count == all.count else { return "video shards wrote \(joined.count) frames, the whole \(all.count)" }
        if let f = all.indices.first(where: { all[$0] != joined[$0] }) {
            return "frames \(range) as video in \(n) shards: frame \(f) differs from the whole video's"
        }
        return nil
    }

    /// The kept bake against the full redraw, and a part against the whole bake's frames.
    func bakes(_ c: Case) async throws -> String? {
        var random = RandomScript(seed: c.seed ^ 0xBA6E)
        let header = Y4MHeader(width: c.width, height: c.height, chroma: random.chance(0.5) ? .yuv444 : .yuv420(tag: "420jpeg"))
        let input = "\(c.path).y4m"
        let writer = try Y4MWriter(path: input, header: header)
        let count = 24
        for n in 0..<count {
            var frame = Y4MFrame(header: header)
            for i in frame.yOffset..<frame.bytes.count { frame.bytes[i] = UInt8((i * 7 + n * 13 + (i / max(1, c.width)) * 3) % 256) }
            try writer.write(frame)
        }
        try writer.finish()
        func bake(keep: Bool, frames: ClosedRange<Int>?) async throws -> [[UInt8]] {
            let renderer = try Renderer()
            let bake = try VideoBake(scene: c.scene, header: header, renderer: renderer)
            bake.keepsSketch = keep
            let output = "\(c.path).\(keep)-\(frames.map { "\($0.lowerBound)" } ?? "all").y4m"
            let writer = try Y4MWriter(path: output, header: header)
            _ = try await bake.run(reader: try Y4MReader(path: input), writer: writer, frames: frames)
            try writer.finish()
            return try VideoTestSupport.read(output).frames
        }
        let kept = try await bake(keep: true, frames: nil)
        let whole = try await bake(keep: false, frames: nil)
        if let n = kept.indices.first(where: { kept[$0] != whole[$0] }) { return "the kept bake differs at frame \(n)" }
        let a = random.int(1...count - 4), b = random.int(a...count - 1)
        let part = try await bake(keep: true, frames: a...b)
        guard part.count == b - a + 1 else { return "bake --frames \(a)...\(b) wrote \(part.count) frames" }
        if let n = part.indices.first(where: { part[$0] != whole[a + $0] }) {
            return "bake --frames \(a)...\(b): frame \(a + n) differs from the whole bake's"
        }
        // Past the script's last frame an ageing sketch is gone: the video passes through.
        if c.scene.effects.maxAge > 0 {
            let input = try VideoTestSupport.read(input).frames
            let last = c.scene.timeline.allFrames.upperBound
            if let n = whole.indices.first(where: { $0 > last && whole[$0] != input[$0] }) {
                return "the script ends at frame \(last), but the bake changes frame \(n)"
            }
        }
        return nil
    }
}

extension GoldenBisect.Outcome {
    var summary: String {
        switch self {
        case let .entry(e, _, _): return "entry \(e + 1)"
        case .background: return "the background"
        case .undrawn: return "undrawn pixels"
        case .nothing: return "nothing differs"
        case .sizes: return "sizes differ"
        }
    }
}
