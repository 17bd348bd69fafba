import Foundation
import XCTest
@testable import Stipple

/// Ink drawn as lines (`InkOptions.lines`, `--lines`): the chords follow the stroke's curve,
/// the GPU's coverage is the capsule's, a cell is its drawing alone, and lines cover what
/// the stamps of the same strokes cover.
final class InkLinesTests: XCTestCase {
    private static let renderer = Result { try Renderer() }

    private func stroke(_ points: [(Float, Float)], radius: Float = 8, pressures: [Float]? = nil) -> StrokeSpec {
        var style = StrokeStyle(color: .white, radius: radius)
        style.smoothing = 0.5
        let samples = points.enumerated().map { i, p in
            TouchSample(x: p.0, y: p.1, t: Double(i) * 0.02, pressure: pressures?[i])
        }
        return StrokeSpec(samples: samples, style: style, index: 0)
    }

    /// Every point of the smoothed curve lies within the tolerance of the polyline, and every
    /// knot lies on the curve: the line is drawn along the stamps' curve.
    func testChordsStayOnTheCurve() {
        let s = stroke([(10, 10), (60, 20), (80, 70), (40, 90), (45, 40), (120, 30), (121, 30), (200, 150)])
        let knots = InkChords.polyline(s)
        XCTAssertGreaterThan(knots.count, 8)
        let points = s.samples.map { SIMD2(Double($0.x), Double($0.y)) }
        let curve = CurveSmoother.segments(through: points, smoothing: s.style.smoothing)
        func distanceToPolyline(_ p: SIMD2<Double>) -> Double {
            zip(knots, knots.dropFirst()).map { a, b in
                let pa = SIMD2(Double(a.x), Double(a.y)), pb = SIMD2(Double(b.x), Double(b.y))
                let ab = pb - pa, len2 = (ab * ab).sum()
                let t = len2 > 0 ? min(max(((p - pa) * ab).sum() / len2, 0), 1) : 0
                let q = p - (pa + t * ab)
                return (q * q).sum().squareRoot()
            }.min()!
        }
        var worst = 0.0
        for c in curve {
            for k in 0...200 { worst = max(worst, distanceToPolyline(c.point(at: Double(k) / 200))) }
        }
        XCTAssertLessThanOrEqual(worst, InkChords.tolerance + 1e-3)
        XCTAssertEqual(Double(knots.first!.x), 10, accuracy: 1e-4)
        XCTAssertEqual(Double(knots.last!.x), 200, accuracy: 1e-4)
        XCTAssertEqual(Double(knots.last!.y), 150, accuracy: 1e-4)
        XCTAssertTrue(knots.allSatisfy { $0.radius == 8 })
    }

    /// Pressure sizes the line as it sizes the stamps: the radius goes from one sample's to the next.
    func testPressureSizesTheLine() {
        var s = stroke([(0, 0), (100, 0)], pressures: [0, 1])
        s.style.pressure = PressureMapping(radius: 0.5...1.5, opacity: 1...1)
        let knots = InkChords.polyline(s)
        XCTAssertEqual(knots.first!.radius, 4, accuracy: 1e-5)
        XCTAssertEqual(knots.last!.radius, 12, accuracy: 1e-5)
    }

    /// A quad reaches the whole cap past a stroke's ends and past a sharp turn, and only what a
    /// gentle turn leaves open past a joint.
    func testJointsReachOnlyWhatTheTurnLeavesOpen() {
        typealias K = InkChords.Knot
        let a = K(x: 0, y: 0, radius: 8), b = K(x: 10, y: 0, radius: 8)
        XCTAssertEqual(InkChords.joint(nil, b, a), 9)
        XCTAssertEqual(InkChords.joint(K(x: 20, y: 0, radius: 8), b, a), 1, accuracy: 1e-5)
        let gentle = InkChords.joint(K(x: 20, y: 1, radius: 8), b, a)
        XCTAssertGreaterThan(gentle, 1)
        XCTAssertLessThan(gentle, 2)
        XCTAssertEqual(InkChords.joint(K(x: 10, y: 10, radius: 8), b, a), 9, accuracy: 1e-4)  // 90°
        XCTAssertEqual(InkChords.joint(K(x: 0, y: 1, radius: 8), b, a), 9)  // doubling back
    }

    /// A straight line's pixels are its capsule's coverage, found here on the CPU: the
    /// distance from each pixel's centre to the segment against the radius, over one pixel.
    func testAStraightLineCoversItsCapsule() async throws {
        let renderer = try InkLinesTests.renderer.get()
        let (a, b, r): (SIMD2<Double>, SIMD2<Double>, Double) = ([20.25, 30.5], [100.75, 70.125], 6.5)
        var out: [Float] = []
        InkChords.emit([.init(x: Float(a.x), y: Float(a.y), radius: Float(r)), .init(x: Float(b.x), y: Float(b.y), radius: Float(r))],
                       dx: 0, dy: 0, to: &out)
        let (w, h) = (128, 96)
        try await renderer.drawInkLines(canvas: Canvas(width: w, height: h, background: .color(.transparent)), vertices: out)
        let image = try await renderer.readFrame()
        var worst = 0.0, covered = 0
        for y in 0..<h {
            for x in 0..<w {
                let p = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
                let ab = b - a
                let t = min(max(((p - a) * ab).sum() / (ab * ab).sum(), 0), 1)
                let q = p - (a + t * ab)
                let expected = min(max(r - (q * q).sum().squareRoot() + 0.5, 0), 1) * 255
                let got = Double(image[(y * w + x) * 4 + 3])
                worst = max(worst, abs(got - expected))
                if got > 0 { covered += 1 }
                XCTAssertEqual(image[(y * w + x) * 4], image[(y * w + x) * 4 + 3], "white, premultiplied")
            }
        }
        XCTAssertLessThanOrEqual(worst, 1.0)
        XCTAssertGreaterThan(covered, 1000)
    }

    /// On a page or alone, a drawing's cell holds the same lines (at most one level apart,
    /// the float rounding of the cell's offset), and lines cover what the same strokes'
    /// stamps cover: they differ only along the edges, where the line's edge is anti-aliased.
    func testLinesOnAPageAndAloneAndAgainstStamps() async throws {
        let renderer = try InkLinesTests.renderer.get()
        let drawings = try InkFiles.realDrawings("quickdraw/simplified_snowflake.ndjson")
        var options = InkOptions()
        options.radius = 4
        options.fit = .frame
        options.margin = 0
        options.spacing = 0.15
        var lined = options
        lined.lines = true
        let stamps = InkAtlas(width: 128, height: 128, supersample: 1, options: options, maxSide: 1024)
        let lines = InkAtlas(width: 128, height: 128, supersample: 1, options: lined, maxSide: 1024)
        let items = drawings.enumerated().map { (index: $0.offset, drawing: $0.element) }
        let byStamps = Locked<[Int: [UInt8]]>([:]), byLines = Locked<[Int: [UInt8]]>([:])
        try await stamps.render(items, on: renderer) { i, c in byStamps.update { $0[i] = c } }
        try await lines.render(items, on: renderer) { i, c in byLines.update { $0[i] = c } }
        XCTAssertEqual(byLines.value.count, drawings.count)
        for item in items {
            let l = byLines.value[item.index]!, s = byStamps.value[item.index]!
            let alone = try await lines.renderAlone(item.drawing, on: renderer)
            XCTAssertLessThanOrEqual(zip(l, alone).map { abs(Int($0) - Int($1)) }.max()!, 1, "drawing \(item.index)")
            let inked = s.filter { $0 >= 128 }.count
            let disagree = zip(l, s).filter { ($0 >= 128) != ($1 >= 128) }.count
            XCTAssertGreaterThan(inked, 200, "drawing \(item.index)")
            XCTAssertLessThan(Double(disagree), 0.05 * Double(inked), "drawing \(item.index): \(disagree) of \(inked)")
        }
    }
}
