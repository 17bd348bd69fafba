import Foundation
import XCTest
@testable import Stipple

/// A bake keeps its sketch on the GPU and draws again only the boxes that changed between
/// frames; the video it writes is the full redraw's, byte for byte: random scripts, stamps
/// that never age and stamps that dissolve, strokes born across the video, stamps born out
/// of order, undo, redo and clear as entries and as live events, live strokes, odd sizes,
/// 4:2:0 and 4:4:4; sketches drawn one, two or three frames ahead of the frame composited.
final class KeptSketchPropertyTests: XCTestCase {
    /// `outOfOrder`: an entry of raw stamps born out of order among the strokes.
    private func script(seed: UInt64, maxAge: Int, sessions: Bool, width: Int, height: Int, outOfOrder: Bool = true) -> String {
        var rng = SplitMix64(seed: seed)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        func colour() -> String {
            String(format: "#%02x%02x%02x%02x", Int(unit() * 255), Int(unit() * 255), Int(unit() * 255), 128 + Int(unit() * 127))
        }
        let (w, h) = (Double(width), Double(height))
        var draw = (0..<12).map { _ -> String in
            let t0 = unit() * 1.2, x = unit() * w, y = unit() * h
            let samples = (0..<5).map { i in
                #"{ "x": \#(x + Double(i) * (unit() * w / 8 - w / 16)), "y": \#(y + Double(i) * (unit() * h / 8 - h / 16)), "t": \#(t0 + Double(i) * 0.08) }"#
            }
            return #"{ "brush": "soft", "color": "\#(colour())", "radius": \#(2 + unit() * 7), "points": [\#(samples.joined(separator: ", "))] }"#
        }
        // Stamps born out of order (ages rise and fall along the entry).
        let stamps = (0..<10).map { _ in
            "[\(unit() * w), \(unit() * h), \(2 + unit() * 6), \(-(unit() * 50).rounded()), \(unit() * 6), \(unit()), \(unit()), \(unit()), 0.8]"
        }
        if outOfOrder { draw.insert(#"{ "brush": "soft", "stamps": [\#(stamps.joined(separator: ", "))] }"#, at: 3) }
        if sessions {
            draw.append(#"{ "undo": 1, "t": 1.0 }"#)
            draw.append(#"{ "undo": 2, "t": 1.1 }"#)
            draw.append(#"{ "redo": 1, "t": 1.2 }"#)
            draw.append(#"{ "clear": true, "t": 1.3 }"#)
            draw.append(#"{ "undo": 1, "t": 1.5 }"#)
        }
        return """
            { "fps": 30, "maxAge": \(maxAge), "seed": \(seed), "brushes": { "soft": { "builtin": "soft-round", "size": 32 } },
              "draw": [ \(draw.joined(separator: ",\n")) ] }
            """
    }

    /// Two live strokes and an undo and redo, as touch events.
    private func events(seed: UInt64, width: Int, height: Int) -> String {
        var rng = SplitMix64(seed: seed &* 31)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        var lines: [(Double, String)] = []
        for (stroke, t0) in [(1, 0.2), (2, 0.5)] {
            for i in 0..<6 {
                let t = t0 + Double(i) * 0.06, x = unit() * Double(width), y = unit() * Double(height)
                lines.append((t, i == 0
                    ? ##"{"t": \##(t), "stroke": \##(stroke), "x": \##(x), "y": \##(y), "brush": "soft", "color": "#30a0ff", "radius": 5}"##
                    : #"{"t": \#(t), "stroke": \#(stroke), "x": \#(x), "y": \#(y)}"#))
            }
            lines.append((t0 + 0.4, #"{"t": \#(t0 + 0.4), "end": \#(stroke)}"#))
        }
        lines.append((1.05, #"{"t": 1.05, "undo": 1}"#))
        lines.append((1.4, #"{"t": 1.4, "redo": 1}"#))
        // In time order (stable: a stroke's own events keep theirs).
        let ordered = lines.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
        return ordered.map(\.element.1).joined(separator: "\n") + "\n"
    }

    /// Frames the kept bakes drew in boxes, drew whole, and drew only their new stamps over
    /// what the target held.
    private var boxedFrames = 0, wholeFrames = 0, appendedFrames = 0
    /// The most boxes one frame of the last kept bake drew.
    private var lastMostBoxes = 0

    private func bake(_ loaded: Script, _ header: Y4MHeader, input: String, output: String, events: String?,
                      keep: Bool, ahead: Int) async throws -> [UInt8] {
        let renderer = try Renderer()
        let bake = try VideoBake(scene: try Scene(script: loaded), header: header, renderer: renderer)
        bake.keepsSketch = keep
        bake.sketchesAhead = ahead
        let live = try events.map { try LiveStrokes(events: try EventStream(path: $0, script: loaded), script: loaded, renderer: renderer) }
        let reader = try Y4MReader(path: input)
        let writer = try Y4MWriter(path: output, header: header)
        var extra: VideoBake.BeforeFrame?
        if let live { extra = { n in try await live.frame(n) } }
        _ = try await bake.run(reader: reader, writer: writer, extraLayers: extra)
        try writer.finish()
        if let kept = bake.lastKept {
            lastMostBoxes = kept.mostBoxes
            boxedFrames += kept.framesDrawn - kept.wholeFrames - kept.appendedFrames
            wholeFrames += kept.wholeFrames
            appendedFrames += kept.appendedFrames
        }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    func testKeptEqualsFullRedraw() async throws {
        let dir = try TestSupport.temporaryDirectory(self, "kept-sketch")
        let cases: [(UInt64, Int, Bool, Bool, Int, Int, Bool, Bool)] = [
            // seed, maxAge, session entries, live events, width, height, 4:4:4, stamps born out of order
            (1, 0, false, false, 96, 64, false, true), (2, 20, false, false, 96, 64, false, true),
            (3, 0, true, false, 203, 121, false, true), (4, 12, true, false, 203, 121, false, true),
            (5, 0, false, true, 203, 121, false, true), (6, 30, true, true, 131, 77, true, true),
            (7, 0, true, true, 131, 77, true, true), (8, 16, false, true, 203, 121, false, true),
            // Strokes whose stamps are born in order: frames that only add stamps after all
            // the target holds draw those alone; strokes overlapping in time, undo and live
            // strokes still redraw boxes.
            (9, 0, false, false, 203, 121, false, false), (10, 0, true, true, 131, 77, false, false),
            (11, 0, false, true, 96, 64, true, false),
        ]
        for (seed, maxAge, sessions, live, w, h, full444, outOfOrder) in cases {
            let header = Y4MHeader(width: w, height: h, rateNumerator: 30, rateDenominator: 1,
                                   chroma: full444 ? .yuv444 : .yuv420(tag: "420jpeg"))
            let input = dir.appendingPathComponent("in\(seed).y4m").path
            let writer = try Y4MWriter(path: input, header: header)
            var frame = Y4MFrame(header: header)
            for n in 0..<60 {
                frame.fill(y: UInt8(16 + n * 3), cb: UInt8(100 + n), cr: UInt8(150 - n))
                try writer.write(frame)
            }
            try writer.finish()
            let path = dir.appendingPathComponent("s\(seed).json").path
            try script(seed: seed, maxAge: maxAge, sessions: sessions, width: w, height: h, outOfOrder: outOfOrder)
                .write(toFile: path, atomically: true, encoding: .utf8)
            var eventsPath: String?
            if live {
                eventsPath = dir.appendingPathComponent("e\(seed).jsonl").path
                try events(seed: seed, width: w, height: h).write(toFile: eventsPath!, atomically: true, encoding: .utf8)
            }
            let loaded = try VideoBake.loadScript(script: path, header: header, video: input)
            // Kept, with sketches drawn two (the default) or three frames ahead; the full redraw
            // drawn one frame ahead, each sketch started when the last was taken.
            let kept = try await bake(loaded, header, input: input, output: dir.appendingPathComponent("k\(seed).y4m").path,
                                      events: eventsPath, keep: true, ahead: seed % 3 == 0 ? 3 : 2)
            let full = try await bake(loaded, header, input: input, output: dir.appendingPathComponent("f\(seed).y4m").path,
                                      events: eventsPath, keep: false, ahead: 1)
            XCTAssertEqual(kept.count, full.count)
            let first = kept.indices.first { kept[$0] != full[$0] }
            XCTAssertNil(first, "seed \(seed), maxAge \(maxAge), sessions \(sessions), live \(live), \(w)×\(h): "
                         + "first differing byte \(first ?? -1) of \(full.count)")
            // The sketch is not empty: the video changed where it was drawn.
            XCTAssertNotEqual(full, [UInt8](try Data(contentsOf: URL(fileURLWithPath: input))), "seed \(seed) drew nothing")
        }
        // Every way a kept frame is drawn was taken: boxes, the whole canvas, new stamps alone.
        XCTAssertGreaterThan(boxedFrames, 0)
        XCTAssertGreaterThan(wholeFrames, 0)
        XCTAssertGreaterThan(appendedFrames, 0)
    }

    /// Many strokes drawn at the same time, as several hands or people draw: each frame adds
    /// stamps all over the canvas, many under stamps that later strokes drew before, so a
    /// frame draws dozens of boxes again. Still the full redraw's bytes.
    func testStrokesDrawnAtOnceKeptEqualsFullRedraw() async throws {
        let dir = try TestSupport.temporaryDirectory(self, "kept-at-once")
        let (w, h, frames) = (640, 360, 40)
        let header = Y4MHeader(width: w, height: h, rateNumerator: 30, rateDenominator: 1, chroma: .yuv420(tag: "420jpeg"))
        let input = dir.appendingPathComponent("in.y4m").path
        let writer = try Y4MWriter(path: input, header: header)
        var frame = Y4MFrame(header: header)
        for n in 0..<frames {
            frame.fill(y: UInt8(40 + n * 2), cb: UInt8(110 + n), cr: UInt8(140 - n))
            try writer.write(frame)
        }
        try writer.finish()
        var rng = SplitMix64(seed: 42)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        // 48 strokes, every one drawn from the first frames to the last, wandering and crossing.
        let draw = (0..<48).map { _ -> String in
            var (x, y) = (unit() * Double(w), unit() * Double(h))
            var angle = unit() * 2 * Double.pi
            let t0 = unit() * 0.1
            let samples = (0..<12).map { i -> String in
                defer {
                    angle += (unit() - 0.5) * 1.5
                    x = min(max(x + cos(angle) * 40, 0), Double(w)); y = min(max(y + sin(angle) * 40, 0), Double(h))
                }
                return #"{ "x": \#(x), "y": \#(y), "t": \#(t0 + Double(i) * 0.11) }"#
            }
            let colour = String(format: "#%02x%02x%02x%02x", Int(unit() * 255), Int(unit() * 255), Int(unit() * 255),
                                128 + Int(unit() * 127))
            return #"{ "brush": "soft", "color": "\#(colour)", "radius": \#(3 + unit() * 5), "points": [\#(samples.joined(separator: ", "))] }"#
        }
        let path = dir.appendingPathComponent("at-once.json").path
        try """
            { "fps": 30, "maxAge": 0, "brushes": { "soft": { "builtin": "soft-round", "size": 32 } },
              "draw": [ \(draw.joined(separator: ",\n")) ] }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = try VideoBake.loadScript(script: path, header: header, video: input)
        let kept = try await bake(loaded, header, input: input, output: dir.appendingPathComponent("k.y4m").path,
                                  events: nil, keep: true, ahead: 2)
        let most = lastMostBoxes
        let full = try await bake(loaded, header, input: input, output: dir.appendingPathComponent("f.y4m").path,
                                  events: nil, keep: false, ahead: 1)
        XCTAssertEqual(kept.count, full.count)
        let first = kept.indices.first { kept[$0] != full[$0] }
        XCTAssertNil(first, "strokes at once: first differing byte \(first ?? -1) of \(full.count)")
        // Frames drew more boxes than a coarser grid would have left them, most of them only
        // their new stamps where nothing lies over those.
        XCTAssertGreaterThan(most, 32, "the most boxes a frame drew")
        XCTAssertGreaterThan(appendedFrames, frames / 2)
    }
}
