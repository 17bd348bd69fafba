import Foundation
import XCTest
@testable import Stipple

final class InkMLReaderTests: XCTestCase {
    func testChannelsInAnyOrderWithUnknownOnesAndDeclaredForce() throws {
        let d = try InkMLReader.read(path: InkFiles.fixture("channels.inkml"))
        XCTAssertEqual(d.strokes.count, 2)
        let a = d.strokes[0]
        // Y T TILT X F: X and Y found by name, TILT ignored, px units (1 px a step).
        XCTAssertEqual(a.points.map(\.x), [20, 30, 40])
        XCTAssertEqual(a.points.map(\.y), [10, 10, 12])
        // Time in seconds, from the file's first sample.
        XCTAssertEqual(a.points.map { $0.t! }, [0, 0.1, 0.2], accuracy: 1e-12)
        // Force over its declared 0…1000, clamped to 1.
        XCTAssertEqual(a.points.map { $0.pressure! }, [0.5, 1, 0.25])
        XCTAssertEqual(a.color, Color(hex: "#ff0000"))
        XCTAssertEqual(a.width, 6)
        XCTAssertEqual(d.strokes[1].points.map { $0.pressure! }, [0, 1])
        XCTAssertNil(d.strokes[1].color)
    }

    func testDifferenceEncodingReadsAsTheExplicitValues() throws {
        let explicit = try InkMLReader.read(path: InkFiles.fixture("explicit.inkml"))
        let diff = try InkMLReader.read(path: InkFiles.fixture("difference.inkml"))
        XCTAssertEqual(explicit.strokes.count, 3)
        XCTAssertEqual(explicit.strokes.map(\.points), diff.strokes.map(\.points))
        XCTAssertEqual(explicit.strokes[0].points[4], InkDrawing.Point(x: 1251, y: 18559, t: 0.04))
        XCTAssertEqual(explicit.strokes[2].points, [InkDrawing.Point(x: -40, y: -20, t: 0.3)])
    }

    func testPrefixesHoldPerChannelUntilChanged() throws {
        let d = try InkFiles.inkML("<ink><trace>10 100, '1 '10, 1 \"0, 1 0, !0 !0, 5 5</trace></ink>")
        // X: 10, 11, 12, 13 (first differences held), then 0 and 5 (explicit again). Y: 100,
        // 110, then second differences from a velocity of 10: 120, 130, then 0 and 5: a
        // prefix belongs to one value, so each channel is switched back on its own.
        XCTAssertEqual(d.strokes[0].points.map(\.x), [10, 11, 12, 13, 0, 5])
        XCTAssertEqual(d.strokes[0].points.map(\.y), [100, 110, 120, 130, 0, 5])
    }

    func testSeparatorsAndNumberForms() throws {
        let d = try InkFiles.inkML("<ink><trace>\n 1 2,3\t4 ,\r\n5-6,-7+8,.5 1.,1e1 -2E-1 </trace></ink>")
        XCTAssertEqual(d.strokes[0].points.map(\.x), [1, 3, 5, -7, 0.5, 10])
        XCTAssertEqual(d.strokes[0].points.map(\.y), [2, 4, -6, 8, 1, -0.2])
    }

    func testPrefixedDefaultAndUnprefixedElementsAllRead() throws {
        let prefixed = try InkFiles.inkML("<i:ink xmlns:i=\"http://www.w3.org/2003/InkML\"><i:trace>1 2, 3 4</i:trace></i:ink>")
        let bare = try InkFiles.inkML("<ink><trace>1 2, 3 4</trace></ink>")
        // Wacom's pages: a prefixed root with unprefixed traces, inside a <paper> root.
        let mixed = try InkFiles.inkML("<paper><inkml:ink xmlns:inkml=\"http://www.w3.org/2003/InkML\"><trace>1 2, 3 4</trace></inkml:ink></paper>")
        for d in [prefixed, bare, mixed] { XCTAssertEqual(d.strokes.map(\.points.count), [2]) }
    }

    func testUglyFileReadsWhatItMeans() throws {
        let d = try InkMLReader.read(path: InkFiles.fixture("ugly.inkml"))
        // Empty traces are not strokes; the hover trace is not drawn; annotationXML is not ink.
        XCTAssertEqual(d.strokes.map(\.points.count), [1, 4, 2, 2, 2, 2])
        XCTAssertEqual(d.strokes[1].points[0], d.strokes[1].points[1])
        // traceGroup brushRef: inherited (a brush that inherits its colour), into a nested group.
        XCTAssertEqual(d.strokes[2].color, Color(hex: "#0000FF"))
        XCTAssertEqual(d.strokes[2].width!, 0.2 * 96 / 2.54, accuracy: 1e-9)
        XCTAssertEqual(d.strokes[2].points.map(\.x), [-1000, 1500])
        XCTAssertEqual(d.strokes[3].color, Color(hex: "#0000FF"))
        // The eraser tip.
        XCTAssertTrue(d.strokes[4].erases)
        XCTAssertFalse(d.strokes[3].erases)
        // The affine canvas transform.
        XCTAssertEqual(d.strokes[5].points.map(\.x), [1000, 1010])
        XCTAssertEqual(d.strokes[5].points.map(\.y), [2000, 2010])
    }

    func testForceWithoutRangeIsNormalisedByTheFilesLargest() throws {
        let d = try InkFiles.inkML("""
            <ink><traceFormat><channel name="X"/><channel name="Y"/><channel name="F"/></traceFormat>
            <trace>0 0 10, 1 1 40</trace><trace>5 5 20</trace><trace>9 9 0, 8 8 0</trace></ink>
            """)
        // The last trace never presses: a hover, not drawn.
        XCTAssertEqual(d.strokes.count, 2)
        XCTAssertEqual(d.strokes.flatMap { $0.points.map { $0.pressure! } }, [0.25, 1, 0.5])
    }

    func testMissingTimeGetsTheDefaultSpeed() throws {
        // In pixels (a declared unit): placed at its own size.
        let d = try InkFiles.inkML("""
            <ink><traceFormat><channel name="X" units="px"/><channel name="Y" units="px"/></traceFormat>
            <trace>0 0, 300 400</trace><trace>0 0</trace></ink>
            """)
        var o = InkOptions()
        o.margin = 0
        let plan = InkPlan.layout(d, o)
        // 500 px at 500 px/s, then a 0.1 s gap.
        XCTAssertEqual(plan.strokes[0].samples.map(\.t), [0, 1])
        XCTAssertEqual(plan.strokes[1].samples.map(\.t), [1.1])
        XCTAssertGreaterThanOrEqual(plan.startFrame, 34)
    }

    /// MathWriting and other datasets write X Y T points without declaring a format.
    func testUndeclaredThirdValueIsTime() throws {
        let d = try InkFiles.inkML("""
            <ink xmlns="http://www.w3.org/2003/InkML"><annotation type="label">x</annotation>
            <trace>144.2 -143.2 4286.0,144.7 -143.0 4302.0</trace><trace>1 2 4400</trace></ink>
            """)
        XCTAssertEqual(d.strokes[0].points.map(\.x), [144.2, 144.7])
        XCTAssertEqual(d.strokes.flatMap { $0.points.map { $0.t! } }, [0, 0.016, 0.114], accuracy: 1e-9)
        // Four values with no format is still an error.
        XCTAssertTrue(InkFiles.error { _ = try InkFiles.inkML("<ink><trace>1 2 3 4</trace></ink>") }
            .contains("more values than its trace format's 2 channels"))
    }

    /// Ink in tiny units (0…1) is scaled up to a canvas, but its default pen stays a pen.
    func testTinyUnitsKeepAPenRadius() throws {
        let d = try InkFiles.inkML("<ink><trace>0 0, 0.5 0.25, 1 1</trace></ink>")
        var o = InkOptions()
        o.size = (340, 340)
        let plan = InkPlan.layout(d, o)
        XCTAssertEqual(plan.strokes[0].style.radius, 2)  // 340 / 170, not 1.5 × 330
        o.radius = 5
        XCTAssertEqual(InkPlan.layout(d, o).strokes[0].style.radius, 5)
    }

    func testMalformedFilesAreErrorsAtLineAndColumn() {
        let cases: [(String, String)] = [
            ("<ink>\n  <trace>1 2, 3 x</trace></ink>", "bad.inkml:2:17: expected a number, T, F, ? or * in the trace; found 'x'"),
            ("<ink>\n<trace>1 2</ink>", "bad.inkml:2:11: </ink> does not close <trace> (opened at 2:1)"),
            ("<ink><trace>1 2 3 4</trace></ink>", "bad.inkml:1:17: this point has more values than its trace format's 2 channels"),
            ("<ink><trace>1 2,,3 4</trace></ink>", "bad.inkml:1:17: expected a point's values before ','"),
            ("<ink><trace>'1 2</trace></ink>", "bad.inkml:1:14: a difference needs an earlier value"),
            ("<ink><trace contextRef=\"#nope\">1 2</trace></ink>", "bad.inkml:1:13: contextRef \"#nope\" is not defined in this file"),
            ("<ink><trace>1e999 2</trace></ink>", "bad.inkml:1:13: the number 1e999 is out of range"),
            ("<notink/>", "bad.inkml:1:1: no <ink> element"),
            ("<ink a='1' a='2'/>", "bad.inkml:1:12: attribute a appears twice"),
            ("<ink>&bogus;</ink>", "bad.inkml:1:6: unknown entity &bogus;"),
            ("<ink><trace>1 2", "bad.inkml:1:6: <trace> is not closed"),
            ("", "bad.inkml:1:1: the file holds no XML element"),
            ("<ink><context xml:id=\"c\"><canvasTransform><mapping type=\"mathml\"/></canvasTransform></context><trace contextRef=\"#c\">1 1</trace></ink>",
             "bad.inkml:1:43: canvasTransform mapping type \"mathml\" is not read"),
        ]
        for (text, expected) in cases {
            let message = InkFiles.error { _ = try InkMLReader.parse(Array(text.utf8), file: "bad.inkml") }
            XCTAssertTrue(message.hasPrefix(expected), "\(message)\n does not start with\n\(expected)")
        }
    }

    func testHugeSpansAreRefused() throws {
        let d = try InkFiles.inkML("<ink><trace>-1e300 0, 1e300 0</trace></ink>")
        XCTAssertThrowsError(try d.check(file: "huge.inkml"))
    }

    /// Wacom's pages: the same ink written three ways (explicit in an inkml:ink root, in a
    /// <paper> root, difference encoded) reads as the same strokes.
    func testRealWacomPagesAgreeAcrossTheirEncodings() throws {
        for page in ["IMG_001", "IMG_002"] {
            let names = page == "IMG_001" ? ["IMG_001_0_oldformat.INKML", "IMG_001_1_.INKML", "IMG_001_2_traceDiff.inkml"]
                : ["IMG_002_0_oldformat.inkml", "IMG_002_1_.inkml", "IMG_002_2_traceDiff.inkml"]
            let drawings = try names.map { try InkMLReader.read(path: try InkFiles.real("inkml/" + $0)) }
            for d in drawings.dropFirst() {
                XCTAssertEqual(d.strokes.map(\.points), drawings[0].strokes.map(\.points), page)
                XCTAssertEqual(d.strokes.map(\.erases), drawings[0].strokes.map(\.erases), page)
            }
        }
        let d = try InkMLReader.read(path: try InkFiles.real("inkml/IMG_001_0_oldformat.INKML"))
        // 12 pen-down traces (4 pencil, 8 eraser); the 23 pen-up hovers are not drawn.
        XCTAssertEqual(d.strokes.count, 12)
        XCTAssertEqual(d.strokes.filter(\.erases).count, 8)
        // The pencil ignores pressure; the eraser's width is 0.69442 cm.
        XCTAssertTrue(d.strokes.filter { !$0.erases }.allSatisfy { $0.points.allSatisfy { $0.pressure == nil } })
        XCTAssertEqual(d.strokes.first(where: \.erases)!.width!, 0.69442 * 96 / 2.54, accuracy: 1e-9)
    }

    /// An independent reading: every pen-down trace's first X and Y as the file writes them,
    /// found with a regular expression, at 0.01 mm a step (resolution 100/mm) and 96 dpi.
    func testRealWacomTracesAreWhereTheirCoordinatesSay() throws {
        let path = try InkFiles.real("inkml/IMG_001_0_oldformat.INKML")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let regex = try NSRegularExpression(pattern: "<trace [^>]*type=\"penDown\"[^>]*>\\s*(-?\\d+) (-?\\d+)")
        let firsts = regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { m in
            (Double(text[Range(m.range(at: 1), in: text)!])!, Double(text[Range(m.range(at: 2), in: text)!])!)
        }
        let d = try InkMLReader.read(path: path)
        XCTAssertEqual(firsts.count, d.strokes.count)
        let px = 96 / 25.4 / 100
        for (s, f) in zip(d.strokes, firsts) {
            XCTAssertEqual(s.points[0].x, f.0 * px, accuracy: 1e-9)
            XCTAssertEqual(s.points[0].y, f.1 * px, accuracy: 1e-9)
        }
    }
}

private func XCTAssertEqual(_ a: [Double], _ b: [Double], accuracy: Double, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.count, b.count, file: file, line: line)
    for (x, y) in zip(a, b) { XCTAssertEqual(x, y, accuracy: accuracy, file: file, line: line) }
}
