import Foundation
import XCTest
@testable import Stipple

/// A bake whose stroke layers all act pixel by pixel is composed on the CPU from each
/// layer's drawing: it agrees with the same bake drawn through the GPU passes, and keeps its
/// frames when a part of the video is baked alone (a growing stroke's drawing kept from
/// frame to frame is the drawing made whole).
final class PixelLayerBakeTests: XCTestCase {
    private static let modes = [
        "", #""blend": "multiply", "#, #""blend": "screen", "strokeOpacity": 0.6, "#, #""blend": "erase", "#,
        #""strokeOpacity": 0.5, "#, #""effect": "desaturate", "#, #""effect": "lighten", "#,
        #""effect": "darken", "strokeOpacity": 0.7, "#, #""effect": "saturate", "#,
    ]

    /// Strokes of every per-pixel mode (and plain ones), born across the video.
    /// `blurred`: a soften stroke born half a second in, which only the GPU passes draw.
    private func script(seed: UInt64, maxAge: Int, sessions: Bool, width: Int, height: Int, blurred: Bool = false) -> String {
        var rng = SplitMix64(seed: seed)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        let (w, h) = (Double(width), Double(height))
        var draw = (0..<14).map { i -> String in
            let t0 = unit() * 1.0, x = unit() * w, y = unit() * h
            let samples = (0..<6).map { k in
                #"{ "x": \#(x + Double(k) * (unit() * w / 6 - w / 12)), "y": \#(y + Double(k) * (unit() * h / 6 - h / 12)), "t": \#(t0 + Double(k) * 0.07), "pressure": \#(0.3 + unit() * 0.7) }"#
            }
            let colour = String(format: "#%02x%02x%02x%02x", Int(unit() * 255), Int(unit() * 255), Int(unit() * 255),
                                96 + Int(unit() * 159))
            let mode = PixelLayerBakeTests.modes[(i + Int(seed)) % PixelLayerBakeTests.modes.count]
            return #"{ "brush": "\#(i % 2 == 0 ? "soft" : "hard")", \#(mode)"color": "\#(colour)", "radius": \#(3 + unit() * 9), "points": [\#(samples.joined(separator: ", "))] }"#
        }
        if blurred {
            draw.insert(#"{ "brush": "soft", "effect": "soften", "radius": 9, "points": [{ "x": \#(w / 3), "y": \#(h / 2), "t": 0.5 }, { "x": \#(w / 2), "y": \#(h / 3), "t": 0.6 }] }"#, at: 5)
        }
        if sessions {
            draw.append(#"{ "undo": 2, "t": 0.8 }"#)
            draw.append(#"{ "redo": 1, "t": 1.0 }"#)
            draw.append(#"{ "clear": true, "t": 1.3 }"#)
            draw.append(#"{ "undo": 1, "t": 1.4 }"#)
        }
        return """
            { "fps": 30, "maxAge": \(maxAge), "brushes": { "soft": { "builtin": "soft-round", "size": 32 },
              "hard": { "builtin": "hard-round", "size": 32 } }, "draw": [ \(draw.joined(separator: ",\n")) ] }
            """
    }

    /// A video of `frames` frames whose colour varies across each frame and from frame to
    /// frame, inside the R′G′B′ gamut: a 4:2:0 block taken again from its pixels' colours
    /// (where a path changed one of them by a unit) keeps its chroma within a unit or two.
    private func video(_ path: String, _ header: Y4MHeader, frames: Int) throws {
        let writer = try Y4MWriter(path: path, header: header)
        var frame = Y4MFrame(header: header)
        for n in 0..<frames {
            for y in 0..<header.height {
                for x in 0..<header.width {
                    frame.bytes[frame.yOffset + y * header.width + x] = UInt8(60 + (x + 2 * y + 3 * n) % 120)
                }
            }
            for y in 0..<header.chromaHeight {
                for x in 0..<header.chromaWidth {
                    frame.bytes[frame.cbOffset + y * header.chromaWidth + x] = UInt8(110 + (x + n) % 30)
                    frame.bytes[frame.crOffset + y * header.chromaWidth + x] = UInt8(145 - (y + n) % 30)
                }
            }
            try writer.write(frame)
        }
        try writer.finish()
    }

    /// `full`: BT.601 in full range, where the defaults are BT.709 (or BT.601 below 720 rows)
    /// in limited range.
    private func bake(_ script: Script, _ header: Y4MHeader, input: String, output: String, onCPU: Bool,
                      frames: ClosedRange<Int>? = nil, full: Bool = false,
                      budget: Int? = nil) async throws -> (bytes: [UInt8], composed: Int) {
        let bake = try VideoBake(scene: try Scene(script: script), header: header, renderer: try Renderer(),
                                 matrix: full ? .bt601 : nil, range: full ? .full : nil)
        bake.composesOnCPU = onCPU
        if let budget { bake.pixelLayerBudget = budget }
        let reader = try Y4MReader(path: input)
        if let frames { try reader.skip(frames.lowerBound) }
        let writer = try Y4MWriter(path: output, header: header)
        _ = try await bake.run(reader: reader, writer: writer, frames: frames, readerAt: frames?.lowerBound ?? 0)
        try writer.finish()
        return ([UInt8](try Data(contentsOf: URL(fileURLWithPath: output))), bake.framesComposedOnCPU)
    }

    func testTheCPUAgreesWithTheGPUPasses() async throws {
        let dir = try TestSupport.temporaryDirectory(self, "pixel-layers")
        let cases: [(UInt64, Int, Bool, Int, Int, Bool, Bool)] = [
            // seed, maxAge, session entries, width, height, 4:4:4, a soften stroke from frame 15
            (1, 0, false, 96, 64, false, false), (2, 18, false, 96, 64, false, false), (3, 0, true, 203, 121, false, false),
            (4, 12, true, 131, 77, true, false), (5, 0, false, 131, 77, true, false), (6, 0, true, 160, 90, false, false),
            (7, 0, false, 120, 80, false, true), (8, 10, true, 120, 80, false, true),
        ]
        var worst = 0
        for (seed, maxAge, sessions, w, h, full444, blurred) in cases {
            let header = Y4MHeader(width: w, height: h, rateNumerator: 30, rateDenominator: 1,
                                   chroma: full444 ? .yuv444 : .yuv420(tag: "420jpeg"))
            let input = dir.appendingPathComponent("in\(seed).y4m").path
            try video(input, header, frames: 48)
            let path = dir.appendingPathComponent("s\(seed).json").path
            try script(seed: seed, maxAge: maxAge, sessions: sessions, width: w, height: h, blurred: blurred)
                .write(toFile: path, atomically: true, encoding: .utf8)
            let loaded = try VideoBake.loadScript(script: path, header: header, video: input)
            let full = seed % 3 == 0
            let cpu = try await bake(loaded, header, input: input, output: dir.appendingPathComponent("c\(seed).y4m").path,
                                     onCPU: true, full: full)
            let gpu = try await bake(loaded, header, input: input, output: dir.appendingPathComponent("g\(seed).y4m").path,
                                     onCPU: false, full: full)
            let read = [UInt8](try Data(contentsOf: URL(fileURLWithPath: input)))
            let label = "seed \(seed), maxAge \(maxAge), sessions \(sessions), \(w)×\(h), blurred \(blurred), full range \(full)"
            if blurred {
                // The frames the soften stroke shows in are drawn on the GPU, the others not.
                // (From its birth at frame 15 to its last stamp's death, 10 frames after frame 18.)
                if maxAge == 0 { XCTAssertEqual(cpu.composed, 15, label) } else { XCTAssert((30...40).contains(cpu.composed), label) }
            } else {
                XCTAssertEqual(cpu.composed, 48, "every frame composed on the CPU: \(label)")
            }
            XCTAssertEqual(gpu.composed, 0, label)
            XCTAssertEqual(cpu.bytes.count, gpu.bytes.count, label)
            XCTAssertNotEqual(cpu.bytes, read, "the strokes changed the video: \(label)")
            // Each path is within 2 of the exact arithmetic per R′G′B′ channel; the samples
            // then differ by the conversion's rounding, and where one path changed a pixel by
            // a unit and the other did not, by a 4:2:0 block taken again from its pixels.
            var far = 0
            for i in cpu.bytes.indices {
                let d = abs(Int(cpu.bytes[i]) - Int(gpu.bytes[i]))
                worst = max(worst, d)
                if d > 2 { far += 1 }
            }
            XCTAssertLessThanOrEqual(far * 1000, cpu.bytes.count, "more than 0.1 % of samples 3 or more apart: \(label)")
        }
        XCTAssertLessThanOrEqual(worst, 4, "the two paths' largest difference")
    }

    func testAPartOfTheBakeGivesTheWholeBakesFramesWhileStrokesGrow() async throws {
        let dir = try TestSupport.temporaryDirectory(self, "pixel-layers-part")
        let header = Y4MHeader(width: 120, height: 72, rateNumerator: 30, rateDenominator: 1)
        let input = dir.appendingPathComponent("in.y4m").path
        try video(input, header, frames: 40)
        // The third from frames composed on the CPU to frames drawn on the GPU.
        for (seed, maxAge, blurred) in [(UInt64(11), 0, false), (12, 15, false), (13, 0, true)] {
            let path = dir.appendingPathComponent("s\(seed).json").path
            try script(seed: seed, maxAge: maxAge, sessions: true, width: 120, height: 72, blurred: blurred)
                .write(toFile: path, atomically: true, encoding: .utf8)
            let loaded = try VideoBake.loadScript(script: path, header: header, video: input)
            let whole = try await bake(loaded, header, input: input, output: dir.appendingPathComponent("w.y4m").path,
                                       onCPU: true)
            let range = blurred ? 10...20 : 17...25
            let part = try await bake(loaded, header, input: input, output: dir.appendingPathComponent("p.y4m").path,
                                      onCPU: true, frames: range)
            XCTAssertEqual(part.composed, blurred ? 5 : 9)
            let headerBytes = whole.bytes.firstIndex(of: 0x0A)! + 1
            let frameBytes = 6 + header.width * header.height + 2 * header.chromaSize
            let expected = whole.bytes[(headerBytes + range.lowerBound * frameBytes)..<(headerBytes + (range.upperBound + 1) * frameBytes)]
            XCTAssertEqual(Array(part.bytes[headerBytes...]), Array(expected), "maxAge \(maxAge)")
        }
    }

    /// A frame whose layers' drawings would pass the budget is composed a tile at a time:
    /// every frame is still composed on the CPU, to the bytes of the bake with room for all,
    /// and a part of it is the whole bake's frames.
    func testAFrameOverTheBudgetIsComposedInTilesToTheSameBytes() async throws {
        let dir = try TestSupport.temporaryDirectory(self, "pixel-layers-budget")
        for (seed, maxAge, full444) in [(UInt64(21), 0, false), (22, 14, true)] {
            let header = Y4MHeader(width: 122, height: 74, rateNumerator: 30, rateDenominator: 1,
                                   chroma: full444 ? .yuv444 : .yuv420(tag: "420jpeg"))
            let input = dir.appendingPathComponent("in.y4m").path
            try video(input, header, frames: 40)
            let path = dir.appendingPathComponent("s.json").path
            try script(seed: seed, maxAge: maxAge, sessions: true, width: 122, height: 74)
                .write(toFile: path, atomically: true, encoding: .utf8)
            let loaded = try VideoBake.loadScript(script: path, header: header, video: input)
            let roomy = try await bake(loaded, header, input: input, output: dir.appendingPathComponent("r.y4m").path,
                                       onCPU: true)
            // Rows of 8 pixels at most with 14 layers: several tiles a frame.
            let budget = 60_000
            let tight = try await bake(loaded, header, input: input, output: dir.appendingPathComponent("t.y4m").path,
                                       onCPU: true, budget: budget)
            XCTAssertEqual(roomy.composed, 40)
            XCTAssertEqual(tight.composed, 40, "every frame composed on the CPU, whatever the budget")
            XCTAssertEqual(tight.bytes.count, roomy.bytes.count)
            XCTAssert(tight.bytes == roomy.bytes, "the budget changed \(zip(tight.bytes, roomy.bytes).filter { $0 != $1 }.count) bytes (seed \(seed))")
            let range = 12...20
            let part = try await bake(loaded, header, input: input, output: dir.appendingPathComponent("p.y4m").path,
                                      onCPU: true, frames: range, budget: budget)
            XCTAssertEqual(part.composed, range.count)
            let headerBytes = roomy.bytes.firstIndex(of: 0x0A)! + 1
            let frameBytes = 6 + header.width * header.height + 2 * header.chromaSize
            XCTAssert(Array(part.bytes[headerBytes...])
                == Array(roomy.bytes[(headerBytes + range.lowerBound * frameBytes)..<(headerBytes + (range.upperBound + 1) * frameBytes)]),
                "a part under the budget differs from the whole (seed \(seed))")
        }
    }

    /// The tiles cover the frame once, their corners multiples of 8 or the frame's edge,
    /// and fit the budget.
    func testTilesCoverTheFrame() async throws {
        let renderer = try Renderer()
        for (layers, w, h, budget) in [(14, 122, 74, 60_000), (1, 1920, 1080, 64 << 20), (300, 1920, 1080, 64 << 20),
                                       (3, 7, 5, 10)] {
            let tiles = await renderer.pixelLayerTiles(layers: layers, width: w, height: h, budget: budget)
            var covered = [Int](repeating: 0, count: w * h)
            for r in tiles {
                XCTAssert(r.x0 % 8 == 0 && r.y0 % 8 == 0 && (r.x1 % 8 == 0 || r.x1 == w) && (r.y1 % 8 == 0 || r.y1 == h), "\(r)")
                XCTAssert(r.y1 - r.y0 == min(8, h - r.y0) || layers * PixelLayerCache.bytes(r) <= budget, "\(r) for \(layers) layers")
                for y in r.y0..<r.y1 { for x in r.x0..<r.x1 { covered[y * w + x] += 1 } }
            }
            XCTAssertEqual(Set(covered), [1], "\(layers) layers, \(w)×\(h)")
        }
    }
}
