import Foundation
import XCTest
@testable import Stipple

/// Every output asks `FrameState` what a frame shows: a `render --frames` video honours the
/// script's undo, redo and clear entries exactly as its PNG frames do.
final class FrameStateTests: XCTestCase {
    static let script = """
        {"canvas": {"width": 48, "height": 32, "background": "#203040"}, "fps": 10,
         "brushes": {"dot": {"builtin": "hard-round"}},
         "draw": [{"brush": "dot", "color": "#ffffff", "radius": 4,
                   "points": [{"x": 5, "y": 5, "t": 0}, {"x": 40, "y": 30, "t": 0.1}]},
                  {"brush": "dot", "color": "#ff3b30", "radius": 3,
                   "points": [{"x": 40, "y": 5, "t": 0.2}, {"x": 8, "y": 28, "t": 0.3}]},
                  {"undo": 1, "t": 0.4}, {"redo": 1, "t": 0.6}, {"clear": true, "t": 0.8}]}
        """

    func testStatesFollowTheSessionEntries() throws {
        let dir = try TestSupport.temporaryDirectory(self, "frame-state")
        let path = dir.appendingPathComponent("s.json").path
        try Self.script.write(toFile: path, atomically: true, encoding: .utf8)
        let scene = try Scene.load(path: path)
        XCTAssertEqual(scene.state(atFrame: 3).entries, [0, 1])
        XCTAssertEqual(scene.state(atFrame: 4).entries, [0], "undo at frame 4")
        XCTAssertEqual(scene.state(atFrame: 6).entries, [0, 1], "redo at frame 6")
        XCTAssertEqual(scene.state(atFrame: 8).entries, [], "clear at frame 8")
    }

    func testVideoFramesEqualThePNGFramesThroughUndoAndClear() throws {
        let dir = try TestSupport.temporaryDirectory(self, "frame-state-video")
        try Self.script.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        var run = try TestSupport.stipple(["render", "s.json", "--frames", "0...9", "-o", "frames"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        run = try TestSupport.stipple(["render", "s.json", "--frames", "0...9", "-o", "out.y4m"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        let video = try VideoTestSupport.read(dir.appendingPathComponent("out.y4m").path)
        XCTAssertEqual(video.frames.count, 10)
        let conversion = YCbCrConversion(matrix: .default(forHeight: 32), range: .limited)
        var pictures: [[UInt8]] = []
        for n in 0...9 {
            let image = try PNGFile.read(path: dir.appendingPathComponent("frames/frame-000\(n).png").path).image
            var frame = Y4MFrame(header: video.header)
            frame.fill(y: UInt8(conversion.y(0, 0, 0)), cb: 128, cr: 128)
            PlaneCompositor.composite(image, over: &frame, conversion: conversion)
            XCTAssertEqual(Array(frame.planes), video.frames[n], "frame \(n): the video shows what the PNG shows")
            pictures.append(video.frames[n])
        }
        XCTAssertNotEqual(pictures[3], pictures[4], "the undo shows")
        XCTAssertEqual(pictures[4], pictures[5])
        XCTAssertEqual(pictures[6], pictures[3], "the redo restores the stroke")
        XCTAssertNotEqual(pictures[7], pictures[8], "the clear shows")
        XCTAssertEqual(pictures[8], pictures[9])
    }
}
