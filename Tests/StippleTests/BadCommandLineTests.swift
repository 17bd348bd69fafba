import Foundation
import Stipple
import XCTest

/// Bad files, EGL, command lines and `compare` inputs (see BadInputTestCase for what every
/// case checks).
final class BadCommandLineTests: BadInputTestCase {
    // MARK: Files

    func testMissingScript() throws {
        try assertRefused(["render", "nope.json", "-o", "out.png"], output: "out.png",
                          says: "nope.json: file not found")
        try assertRefused(["stamps", "nope.json", "-o", "out.sketchpoints"], output: "out.sketchpoints",
                          says: "nope.json: file not found")
    }

    func testOutputThatIsTheScript() throws {
        try write("good.json", stampScript("[4, 4, 2, 0, 0, 1, 0, 0, 1]"))
        // The script is its own sentinel: the snapshot proves it is untouched.
        try assertRefused(["render", "good.json", "-o", "good.json"], output: nil,
                          says: "good.json: refusing to overwrite an input of this script; choose another output path")
        try assertRefused(["render", "good.json", "-o", "./good.json"], output: nil,
                          says: "./good.json: refusing to overwrite an input of this script; choose another output path")
        try assertRefused(["stamps", "good.json", "-o", "good.json"], output: nil,
                          says: "good.json: refusing to overwrite an input of this script; choose another output path")
    }

    func testOutputInAMissingFolder() throws {
        try write("good.json", stampScript("[4, 4, 2, 0, 0, 1, 0, 0, 1]"))
        try assertRefused(["render", "good.json", "-o", "missing/out.png"], output: "missing/out.png", sentinel: false,
                          says: "missing/out.png: cannot write: the folder missing does not exist")
        try assertRefused(["stamps", "good.json", "-o", "missing/out.sketchpoints"], output: "missing/out.sketchpoints",
                          sentinel: false, says: "missing/out.sketchpoints: cannot write: the folder missing does not exist")
    }

    // MARK: EGL

    func testNoEGLVendorSaysHowToInstallMesa() throws {
        try write("good.json", stampScript("[4, 4, 2, 0, 0, 1, 0, 0, 1]"))
        try assertRefused(["render", "good.json", "-o", "out.png"], output: "out.png",
                          saysAll: ["no usable EGL", "install Mesa's EGL", "apt-get install", "libegl-mesa0"],
                          environment: ["__EGL_VENDOR_LIBRARY_FILENAMES": "/nonexistent.json"])
    }

    func testGBMWithoutARenderNode() throws {
        let hasRenderNode = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri"))?
            .contains { $0.hasPrefix("renderD") } ?? false
        try XCTSkipIf(hasRenderNode, "this machine has a render node: GBM works here")
        try write("good.json", stampScript("[4, 4, 2, 0, 0, 1, 0, 0, 1]"))
        try assertRefused(["render", "good.json", "-o", "out.png"], output: "out.png",
                          saysAll: ["no usable EGL", "render node (/dev/dri/renderD*)", "STIPPLE_EGL_PLATFORM=surfaceless"],
                          environment: ["STIPPLE_EGL_PLATFORM": "gbm"])
    }

    // MARK: Command line

    func testNegativeFrame() throws {
        try write("good.json", stampScript("[4, 4, 2, 0, 0, 1, 0, 0, 1]"))
        try assertRefused(["render", "good.json", "-o", "out.png", "--frame", "-1"], output: "out.png", status: 64,
                          says: "Please give a frame from 0 to 16777215 (got -1). (see 'stipple render --help')")
        try assertRefused(["stamps", "good.json", "--frame", "-1", "-o", "out.sketchpoints"], output: "out.sketchpoints",
                          status: 64, says: "Please give a frame from 0 to 16777215 (got -1). (see 'stipple stamps --help')")
    }

    func testFrameAndFramesTogether() throws {
        try write("good.json", stampScript("[4, 4, 2, 0, 0, 1, 0, 0, 1]"))
        try assertRefused(["render", "good.json", "-o", "out.png", "--frame", "1", "--frames", "0...3"],
                          output: "out.png", status: 64,
                          says: "Please give --frame or --frames, not both. (see 'stipple render --help')")
    }

    func testFramesIntoAFile() throws {
        try write("good.json", stampScript("[4, 4, 2, 0, 0, 1, 0, 0, 1]"))
        try assertRefused(["render", "good.json", "-o", "good.json/frames", "--frames", "0...1"], output: nil,
                          says: "good.json/frames: cannot make the folder for --frames: not a directory")
    }

    func testUnknownCommand() throws {
        try assertRefused(["paint"], output: nil, status: 64,
                          says: "Unknown command 'paint'; the commands are render, stamps, describe, convert, brush, "
                              + "compare, info, bench, test, bisect, bake, pyramid-join, serve (see 'stipple --help')")
    }

    // MARK: compare

    func testCompareWithAMissingFile() throws {
        try writePNG("a.png", width: 8, height: 8)
        try assertRefused(["compare", "a.png", "nope.png", "--diff", "diff.png"], output: "diff.png",
                          says: "nope.png: no such file (a PNG was expected here)")
        try assertRefused(["compare", "nope.png", "a.png"], output: nil,
                          says: "nope.png: no such file (a PNG was expected here)")
    }

    func testCompareWithACorruptPNG() throws {
        let png = try writePNG("a.png", width: 8, height: 8)
        try write("t.png", Data(png.prefix(50)))
        try assertRefused(["compare", "a.png", "t.png", "--diff", "diff.png"], output: "diff.png",
                          says: "t.png:byte 50: not a readable PNG: the file ends early: truncated?")
    }

    func testCompareRefusesToWriteTheDiffOverAnInput() throws {
        try writePNG("a.png", width: 8, height: 8)
        try writePNG("b.png", width: 8, height: 8)
        try assertRefused(["compare", "a.png", "b.png", "--diff", "b.png"], output: nil,
                          says: "b.png: refusing to overwrite an image being compared; choose another output path")
    }

    func testCompareImagesOfDifferentSizes() throws {
        try writePNG("a.png", width: 8, height: 8)
        try writePNG("b.png", width: 9, height: 8)
        let run = try TestSupport.stipple(["compare", "a.png", "b.png"], in: dir)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(run.stdout, "DIFFERENT: sizes differ: expected 8×8, actual 9×8; allowed 0 pixels over 0\n")
        // Even with a generous tolerance: images of different sizes are never the same.
        let lenient = try TestSupport.stipple(["compare", "a.png", "b.png", "--max-channel-diff", "255",
                                               "--max-pixels", "100%"], in: dir)
        XCTAssertEqual(lenient.status, 1, lenient.stderr)
        XCTAssertTrue(lenient.stdout.hasPrefix("DIFFERENT: sizes differ: expected 8×8, actual 9×8"), lenient.stdout)
    }
}
