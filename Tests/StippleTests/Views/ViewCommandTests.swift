import Foundation
import XCTest
@testable import Stipple

/// `stipple render --region/--scale/--size/--pyramid` as people type them: the files it
/// writes, one-line errors for bad input with nothing written, and Deep Zoom as `vips dzsave`
/// lays it out.
final class ViewCommandTests: XCTestCase {
    private var demo: String { TestSupport.fixtures.appendingPathComponent("scripts/demo.json").path }

    func testBadViewsAndPyramidsAreOneLineErrorsAndWriteNothing() throws {
        let dir = try TestSupport.temporaryDirectory(self, "view-cli")
        let out = dir.appendingPathComponent("v.png").path
        let cases: [([String], String)] = [
            (["--region", "600,0,100,10"], "leaves the 640×360 canvas"),
            (["--region", "0,0,0,10"], "at least 1×1"),
            (["--region", "-1,0,10,10"], "leaves the 640×360 canvas"),
            (["--region", "1,2,3"], "X,Y,W,H"),
            (["--scale", "0"], "above 0 and at most 1"),
            (["--scale", "-0.5"], "above 0 and at most 1"),
            (["--scale", "1.5"], "above 0 and at most 1"),
            (["--scale", "nan"], "above 0 and at most 1"),
            (["--size", "0x10"], "W×H"),
            (["--region", "0,0,10,10", "--frames", "0...3"], "one frame"),
        ]
        for (arguments, message) in cases {
            let run = try TestSupport.stipple(["render", demo, "-o", out] + arguments)
            XCTAssertNotEqual(run.status, 0, "\(arguments)")
            XCTAssertTrue(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            XCTAssertEqual(run.stderr.split(separator: "\n").filter { !$0.hasPrefix("Usage") && !$0.hasPrefix("  See") && !$0.isEmpty }.count,
                           1, "one line: \(run.stderr)")
            XCTAssertEqual(FileSystem.entry(at: out), .missing, "\(arguments) wrote nothing")
        }
        let pyramid = dir.appendingPathComponent("p").path
        for (arguments, message) in [(["--tile-size", "0"], "--tile-size is 1 to"), (["--tile-size", "9000"], "--tile-size is 1 to"),
                                     (["-o", out], "leave -o out"), (["--scale", "0.5"], "whole canvas")] {
            let run = try TestSupport.stipple(["render", demo, "--pyramid", pyramid] + arguments)
            XCTAssertNotEqual(run.status, 0, "\(arguments)")
            XCTAssertTrue(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            XCTAssertEqual(FileSystem.entry(at: pyramid + "_files"), .missing)
        }
        // A pyramid is not replaced without --overwrite; with it, it is.
        XCTAssertEqual(try TestSupport.stipple(["render", demo, "--pyramid", pyramid]).status, 0)
        let again = try TestSupport.stipple(["render", demo, "--pyramid", pyramid])
        XCTAssertNotEqual(again.status, 0)
        XCTAssertTrue(again.stderr.contains("--overwrite"), again.stderr)
        XCTAssertEqual(try TestSupport.stipple(["render", demo, "--pyramid", pyramid, "--overwrite"]).status, 0)
        XCTAssertEqual(FileSystem.entry(at: pyramid + ".dzi"), .file)
    }

    /// Same levels, tile names, tile sizes, overlap and descriptor as `vips dzsave --suffix .png`
    /// of the full render; the full-size level identical, the others within vips's flooring.
    func testDeepZoomIsLaidOutAsVipsLaysItOut() throws {
        guard let vips = TestSupport.which("vips") else {
            throw XCTSkip("vips is not on PATH (Debian's libvips-tools; make test-deps installs it)")
        }
        let dir = try TestSupport.temporaryDirectory(self, "view-vips")
        let full = dir.appendingPathComponent("full.png").path
        XCTAssertEqual(try TestSupport.stipple(["render", demo, "--frame", "40", "-o", full]).status, 0)
        let theirs = dir.appendingPathComponent("vips/demo").path
        try FileManager.default.createDirectory(atPath: dir.appendingPathComponent("vips").path, withIntermediateDirectories: true)
        let v = try TestSupport.run(vips, ["dzsave", full, theirs, "--suffix", ".png"])
        XCTAssertEqual(v.status, 0, v.stderr)
        let ours = dir.appendingPathComponent("ours/demo").path
        XCTAssertEqual(try TestSupport.stipple(["render", demo, "--frame", "40", "--pyramid", ours]).status, 0)
        func squeezed(_ path: String) throws -> String {
            try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        XCTAssertEqual(try squeezed(ours + ".dzi"), try squeezed(theirs + ".dzi"))
        func tiles(_ base: String) throws -> [String] {
            let root = base + "_files"
            return try FileManager.default.subpathsOfDirectory(atPath: root).filter { $0.hasSuffix(".png") }.sorted()
        }
        let names = try tiles(ours)
        XCTAssertEqual(names, try tiles(theirs))
        var worst: [Int: Int] = [:]
        for name in names {
            let a = try PNGFile.read(path: ours + "_files/" + name).image, b = try PNGFile.read(path: theirs + "_files/" + name).image
            XCTAssertEqual([a.width, a.height], [b.width, b.height], name)
            let level = Int(name.split(separator: "/")[0])!
            let d = zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            worst[level] = max(worst[level] ?? 0, d)
        }
        let top = worst.keys.max()!
        XCTAssertEqual(worst[top], 0, "the full-size level is the render")
        print("Deep Zoom against vips dzsave (most difference a level, full size last): "
              + worst.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))
    }
}
